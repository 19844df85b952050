package org.deliqueue.bench;

import java.util.concurrent.TimeUnit;
import org.deliqueue.Clock;
import org.deliqueue.Handler;
import org.deliqueue.Looper;
import org.deliqueue.MessageQueue;
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

/**
 * A debounce from another thread while the Looper is busy: per event, {@code removeCallbacks(r)} then
 * {@code postDelayed(r, 100)}, {@code events} times, while the Looper runs one long handler (it never looks at the
 * queue during the measured call: the queue here has no Looper thread at all). The legacy queue unlinks each removed
 * post at once; DeliQueue leaves a tombstone and a finished descriptor per event on the stack until the Looper
 * drains them, so each removal walks what earlier events left. Measured: the whole run of {@code events} events, one
 * call per fresh queue; the per-event cost is that over {@code events}. Flat per-event cost as {@code events} grows
 * is the target (docs/throughput.md).
 *
 * <p>{@link #catchUp} measures the other side: the Looper's first step once the handler returns ({@code poll}, on
 * the benchmark thread), which takes in what the events left: on DeliQueue it sweeps two nodes per event and drains
 * them from the freelist. Flat per-event cost is the target here too.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class DebounceBench {

    @State(Scope.Thread)
    public static class Busy {
        @Param({"LEGACY", "DELI"})
        public String impl;

        @Param({"5000", "10000", "20000"})
        public int events;

        MessageQueue queue;
        Handler handler;
        final Runnable debounced = () -> { };

        @Setup(Level.Invocation)
        public void freshQueue() {
            Looper looper = Loopers.detached(QueueKind.valueOf(impl), Clock.SYSTEM);
            queue = looper.getQueue();
            handler = new Handler(looper);
        }
    }

    /** {@link Busy}'s queue after its {@code events} events, made before the measured call. */
    @State(Scope.Thread)
    public static class Debounced {
        @Param({"LEGACY", "DELI"})
        public String impl;

        @Param({"5000", "20000", "80000"})
        public int events;

        MessageQueue queue;

        @Setup(Level.Invocation)
        public void debouncedQueue() {
            Busy b = new Busy();
            b.impl = impl;
            b.events = events;
            b.freshQueue();
            debounceEvents(b);
            queue = b.queue;
        }
    }

    @Benchmark
    public boolean debounce(Busy b) {
        return debounceEvents(b);
    }

    static boolean debounceEvents(Busy b) {
        boolean posted = false;
        for (int i = 0; i < b.events; i++) {
            b.handler.removeCallbacks(b.debounced);
            posted = b.handler.postDelayed(b.debounced, 100);
        }
        return posted;
    }

    /** The Looper's first step after the events; the post is 100 ms away, so nothing is due unless setup was slow. */
    @Benchmark
    public Object catchUp(Debounced d) {
        return d.queue.poll();
    }
}
