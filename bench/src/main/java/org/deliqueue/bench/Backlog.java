package org.deliqueue.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * The busy-queue workload shared by {@link BusyQueueBench} and {@link PeersBench}: producers insert entries with
 * random future deadlines into a structure that holds about {@code n} pending entries, while one consumer thread
 * (the Looper's role) removes one entry whenever more than {@code n} are pending.
 *
 * <p><b>Keeping N constant.</b> Producers publish their insert count every {@value #PUBLISH} inserts; the
 * consumer removes while {@code inserted - removed > n}. Deadlines are virtual: {@code when = virtualNow + 1 +
 * random(2^30)}, where {@code virtualNow} is the deadline of the last entry the consumer removed and the queue's
 * clock is a constant far in the future, so the consumer's {@code poll()} always takes the earliest entry. In this
 * steady state a new deadline lands, on average, behind two thirds of the pending entries: the legacy queue's
 * sorted-list insertion scans about {@code 2n/3} nodes under its lock.
 *
 * <p><b>Bounding memory.</b> If the consumer cannot keep up, producers wait (yielding) once more than
 * {@code n + slack} entries are pending, {@code slack = 64 + n/8}. The wait counts in the measured time: the
 * sustained rate of a one-consumer queue cannot exceed its consumer's. {@link #writeStats} records, per
 * measurement iteration, the share of producer time spent in such waits and the backlog the consumer saw, so the
 * report can tell an insertion-bound figure from a consumer-bound one.
 */
public final class Backlog {
    /** Inserts between two publications of a producer's count (and two reads of the consumer's progress). */
    static final int PUBLISH = 13; // prime: JMH samples every 2^k-th op, and must not always hit a check
    static final long WINDOW_MASK = (1L << 30) - 1;
    /** The virtual deadlines start here; the queue clock is always far beyond any of them. */
    static final long ORIGIN = 1L << 20;

    /** What the producers insert into and the consumer removes from. */
    public abstract static class Target {
        /** Producer thread: insert an entry due at virtual time {@code when} ({@code offset} after now). */
        public abstract void insert(long when, long offset);

        /** Consumer thread: remove one pending entry; return its virtual deadline, or -1 if none was taken. */
        public abstract long removeOne();

        public void close() {
        }
    }

    final Target target;
    final int n;
    final long slack;
    final int producers;
    final String label;

    final LongAdder inserted = new LongAdder();
    private volatile long removed;
    volatile long virtualNow = ORIGIN;
    private volatile boolean stop;
    private final Thread consumer;

    // statistics, per iteration
    final LongAdder waitNanos = new LongAdder();
    private volatile long backlogSum;
    private volatile long backlogSamples;
    private volatile long backlogMax;
    private volatile boolean resetStats;
    private long iterStartNanos;
    private long iterStartInserted;

    Backlog(String label, Target target, int n, int producers, SplitRandom prefillRandom) {
        this.label = label;
        this.target = target;
        this.n = n;
        this.slack = 64 + n / 8;
        this.producers = producers;
        // Prefill latest-first: each insertion lands at the head of the legacy sorted list (O(1)), so setup
        // stays O(N log N) for every structure; the steady state takes over as the consumer runs.
        long[] offsets = new long[n];
        for (int i = 0; i < n; i++) {
            offsets[i] = 1 + (prefillRandom.next() & WINDOW_MASK);
        }
        java.util.Arrays.sort(offsets);
        for (int i = n - 1; i >= 0; i--) {
            target.insert(ORIGIN + offsets[i], offsets[i]);
        }
        inserted.add(n);
        consumer = new Thread(this::consume, "bench-consumer");
        consumer.setDaemon(true);
        consumer.start();
    }

    private void consume() {
        long done = 0;
        long sum = 0;
        long samples = 0;
        long max = 0;
        int idle = 0;
        while (!stop) {
            if (resetStats) {
                resetStats = false;
                sum = samples = max = 0;
            }
            long backlog = inserted.sum() - done;
            if ((samples & 255) == 0) {
                backlogSum = sum;
                backlogSamples = samples;
                backlogMax = max;
            }
            sum += backlog;
            samples++;
            max = Math.max(max, backlog);
            if (backlog > n) {
                long when = target.removeOne();
                if (when >= 0) {
                    done++;
                    removed = done;
                    if (when > 0) {
                        virtualNow = when;
                    }
                    idle = 0;
                    continue;
                }
            }
            if (++idle < 64) {
                Thread.onSpinWait();
            } else {
                Thread.yield(); // 2 shared cores: give the producers the CPU
            }
        }
    }

    /** Producer side of one insert; {@code p} is the calling producer's own state. */
    void insert(Producer p) {
        if (++p.count == PUBLISH) {
            p.count = 0;
            inserted.add(PUBLISH);
            p.virtualNow = virtualNow;
            if (inserted.sum() - removed > n + slack) {
                long t0 = System.nanoTime();
                do {
                    Thread.yield();
                } while (inserted.sum() - removed > n + slack && !stop);
                waitNanos.add(System.nanoTime() - t0);
            }
        }
        long offset = 1 + (p.random.next() & WINDOW_MASK);
        target.insert(p.virtualNow + offset, offset);
    }

    /** Per-producer state. */
    public static final class Producer {
        int count;
        long virtualNow = ORIGIN;
        final SplitRandom random;

        public Producer(long seed) {
            random = new SplitRandom(seed);
        }
    }

    void startIteration() {
        waitNanos.reset();
        iterStartNanos = System.nanoTime();
        iterStartInserted = inserted.sum();
        resetStats = true;
    }

    /** Appends one JSON line about the iteration just measured to the file named by {@code deliqueue.bench.stats}. */
    void writeStats(String benchmark) {
        String file = System.getProperty("deliqueue.bench.stats");
        if (file == null || file.isEmpty()) {
            return;
        }
        long wall = System.nanoTime() - iterStartNanos;
        long ops = inserted.sum() - iterStartInserted;
        double waitShare = wall <= 0 ? 0 : waitNanos.sum() / (double) (wall * (long) producers);
        long samples = backlogSamples;
        double meanBacklog = samples == 0 ? 0 : backlogSum / (double) samples;
        String line = String.format(Locale.ROOT,
                "{\"benchmark\":\"%s\",\"impl\":\"%s\",\"n\":%d,\"producers\":%d,\"inserts\":%d,"
                        + "\"seconds\":%.3f,\"producerWaitShare\":%.4f,\"meanBacklog\":%.1f,\"maxBacklog\":%d}%n",
                benchmark, label, n, producers, ops, wall / 1e9, waitShare, meanBacklog, backlogMax);
        try {
            Files.write(Path.of(file), line.getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void close() {
        stop = true;
        try {
            consumer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        target.close();
    }
}
