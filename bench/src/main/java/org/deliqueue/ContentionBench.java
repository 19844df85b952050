package org.deliqueue;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.deliqueue.bench.Loopers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Insertion under contention: one insertion from every benchmark thread into one shared structure, no consumer. The
 * thread count is JMH's {@code -t} ({@code make bench-scaling}: 1 and 2, or 1, 2, 4, 8 and 14 on 16 cores or more);
 * with more threads than cores the figures measure time-sharing, not contention, and the page marks them so
 * (docs/scaling-coresN.md). Throughput of:
 * <ul>
 *   <li>{@code cas}: a CAS retry loop on one word (the limit of anything that pushes with a CAS on one word);
 *   <li>{@code casBackOff}: the same loop with DeliQueue's randomized exponential backoff after a failed CAS;
 *   <li>{@code xchg}: {@code getAndSet} on one word (a push that cannot fail);
 *   <li>{@code delayQueue}: {@link DelayQueue#offer} (one lock and a heap: the JDK's delayed-task queue);
 *   <li>{@code concurrentLinkedQueue}: {@link ConcurrentLinkedQueue#offer} (Michael-Scott, lock-free);
 *   <li>{@code deliEnqueue}: DeliQueue's {@code enqueueMessage} of a new message (claim, push, wake check).
 * </ul>
 * Every {@value #TRUNCATE} insertions a thread replaces the structure by an empty one (one volatile write), so
 * memory stays flat and the heap of DelayQueue stays small; the cost is the same for all, nearly nothing.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ContentionBench {
    static final int TRUNCATE = 4096;

    /** A DelayQueue element due in an hour: offer sorts it into the heap, nothing ever takes it. */
    static final class Later implements Delayed {
        private final long due = System.nanoTime() + TimeUnit.HOURS.toNanos(1);

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(due, ((Later) o).due);
        }
    }

    @State(Scope.Benchmark)
    public static class Shared {
        final AtomicReference<Object> word = new AtomicReference<>();
        volatile DelayQueue<Later> delayQueue = new DelayQueue<>();
        volatile ConcurrentLinkedQueue<Object> linkedQueue = new ConcurrentLinkedQueue<>();
        DeliQueue deli;
        Handler handler;

        @Setup(Level.Trial)
        public void setUp() {
            Looper looper = Loopers.detached(QueueKind.DELI, Clock.SYSTEM);
            deli = (DeliQueue) looper.getQueue();
            handler = new Handler(looper);
        }
    }

    @State(Scope.Thread)
    public static class Local {
        final Object token = new Object();
        int inserts;

        /** Whether this thread's insertion count reached {@link #TRUNCATE}: time to empty the structure. */
        boolean truncate() {
            if (++inserts == TRUNCATE) {
                inserts = 0;
                return true;
            }
            return false;
        }
    }

    @Benchmark
    public void cas(Shared s, Local l) {
        AtomicReference<Object> w = s.word;
        for (;;) {
            Object cur = w.get();
            if (w.compareAndSet(cur, l.token)) {
                return;
            }
        }
    }

    /** The CAS loop with DeliQueue's backoff after each failed CAS ({@code FieldAccess.backOff}). */
    @Benchmark
    public void casBackOff(Shared s, Local l) {
        AtomicReference<Object> w = s.word;
        for (int bound = FieldAccess.MIN_BACKOFF;; bound = FieldAccess.backOff(bound)) {
            Object cur = w.get();
            if (w.compareAndSet(cur, l.token)) {
                return;
            }
        }
    }

    @Benchmark
    public Object xchg(Shared s, Local l) {
        return s.word.getAndSet(l.token);
    }

    @Benchmark
    public boolean delayQueue(Shared s, Local l) {
        if (l.truncate()) {
            s.delayQueue = new DelayQueue<>();
        }
        return s.delayQueue.offer(new Later());
    }

    @Benchmark
    public boolean concurrentLinkedQueue(Shared s, Local l) {
        if (l.truncate()) {
            s.linkedQueue = new ConcurrentLinkedQueue<>();
        }
        return s.linkedQueue.offer(l.token);
    }

    @Benchmark
    public boolean deliEnqueue(Shared s, Local l) {
        if (l.truncate()) {
            s.deli.top = null;
        }
        Message m = new Message();
        m.setTarget(s.handler);
        return s.deli.enqueueMessage(m, 1);
    }
}
