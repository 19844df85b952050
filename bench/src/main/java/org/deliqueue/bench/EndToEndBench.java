package org.deliqueue.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.deliqueue.Clock;
import org.deliqueue.Handler;
import org.deliqueue.Looper;
import org.deliqueue.QueueKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Benchmark 4: end to end, {@code Handler.post} to dispatch on a real Looper thread ({@code Looper.prepare(kind,
 * Clock.SYSTEM)}; {@code Looper.loop()}), which sleeps in {@code next()} when idle and is woken by posts.
 * <ul>
 *   <li>{@link #roundTrip}: post, then wait until the Looper has run the runnable (SampleTime: the latency of
 *       one post, wake-up and dispatch, with percentiles). One producer.
 *   <li>{@link #stream1} / {@link #stream2}: producers post as fast as the Looper dispatches, with at most
 *       {@value #WINDOW} posts in flight (Throughput: posts dispatched per microsecond, all producers together).
 * </ul>
 * Posts take their Message from {@code Message.obtain()}: the legacy queue recycles dispatched messages into the
 * global locked pool, DeliQueue retires them (its pool stays empty and obtain allocates), as in the library.
 */
public class EndToEndBench {
    static final int WINDOW = 1024;

    @State(Scope.Benchmark)
    public static class LooperState {
        @Param({"LEGACY", "DELI"})
        public String impl;

        Looper looper;
        Handler handler;
        Thread thread;
        /** Written by the Looper thread only. */
        volatile long dispatched;
        final LongAdder posted = new LongAdder();
        final Runnable count = () -> dispatched++;

        @Setup(Level.Trial)
        public void setUp() throws InterruptedException {
            AtomicReference<Looper> ready = new AtomicReference<>();
            thread = new Thread(() -> {
                Looper.prepare(QueueKind.valueOf(impl), Clock.SYSTEM);
                ready.set(Looper.myLooper());
                Looper.loop();
            }, "bench-looper");
            thread.setDaemon(true);
            thread.start();
            while (ready.get() == null) {
                Thread.sleep(1);
            }
            looper = ready.get();
            handler = new Handler(looper);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            looper.quit();
            thread.join(10_000);
        }
    }

    @State(Scope.Thread)
    public static class Poster {
        volatile boolean done;
        final Runnable signal = () -> done = true;
        int unpublished;
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Threads(1)
    public void roundTrip(LooperState s, Poster p) {
        p.done = false;
        s.handler.post(p.signal);
        int spins = 0;
        while (!p.done) {
            if (++spins < 1000) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Threads(1)
    public void stream1(LooperState s, Poster p) {
        stream(s, p);
    }

    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    @Threads(2)
    public void stream2(LooperState s, Poster p) {
        stream(s, p);
    }

    private static void stream(LooperState s, Poster p) {
        if (++p.unpublished == 64) {
            p.unpublished = 0;
            s.posted.add(64);
            while (s.posted.sum() - s.dispatched > WINDOW) {
                Thread.yield();
            }
        }
        s.handler.post(s.count);
    }
}
