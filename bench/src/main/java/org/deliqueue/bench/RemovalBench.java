package org.deliqueue.bench;

import java.util.concurrent.TimeUnit;
import org.deliqueue.Clock;
import org.deliqueue.Handler;
import org.deliqueue.Looper;
import org.deliqueue.Message;
import org.deliqueue.MessageQueue;
import org.deliqueue.Mutant;
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
 * What atomic removal costs, each against its baseline in the same run:
 * <ul>
 *   <li>{@code removeHalf}: one {@code removeCallbacksAndMessages} taking half of {@code n} pending future messages
 *       (the other half belongs to another handler), off the Looper: DeliQueue (a descriptor, one walk) against the
 *       legacy queue (one lock, one walk) and against DeliQueue's removal before descriptors
 *       ({@code Mutant.BULK_REMOVAL_PER_MESSAGE}: one CAS per message, no descriptor).
 *   <li>{@code drain}: the Looper's sustained rate: {@code poll()} until {@code n} due messages are delivered, with
 *       DeliQueue's reserve-then-resolve delivery against the single REMOVED CAS it replaced
 *       ({@code Mutant.UNRESERVED_DELIVERY}) and the legacy queue.
 * </ul>
 * Single-shot: each measured call gets a freshly filled queue (the fill is not measured).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RemovalBench {

    /** A queue of {@code n} pending messages, half of them {@link #removed}'s, made anew for every call. */
    @State(Scope.Thread)
    public static class Filled {
        @Param({"LEGACY", "DELI", "DELI_PER_MESSAGE_REMOVAL", "DELI_UNRESERVED_DELIVERY"})
        public String impl;

        @Param({"1000", "10000", "100000"})
        public int n;

        /** The clock: 0 while filling, then past every message's {@code when}. */
        final long[] now = {0};
        MessageQueue queue;
        Handler removed;
        Handler kept;

        @Setup(Level.Invocation)
        public void fill() {
            Clock clock = () -> now[0];
            Looper looper = Loopers.detached(factory(impl), clock);
            queue = looper.getQueue();
            removed = new Handler(looper);
            kept = new Handler(looper);
            now[0] = 0;
            // Decreasing whens (n .. 1, never 0: not front of queue) make each message the legacy queue's new
            // head, so filling costs O(n) for every queue and only the measured call differs.
            for (int i = 0; i < n; i++) {
                Message m = Message.obtain(i % 2 == 0 ? removed : kept, i);
                queue.enqueueMessage(m, n - i);
            }
            queue.poll(); // the Looper has swept them: nothing is due yet
            now[0] = n + 1;
        }

        static MessageQueue.Factory factory(String impl) {
            switch (impl) {
                case "LEGACY":
                    return QueueKind.LEGACY;
                case "DELI":
                    return QueueKind.DELI;
                case "DELI_PER_MESSAGE_REMOVAL":
                    return Mutant.BULK_REMOVAL_PER_MESSAGE;
                case "DELI_UNRESERVED_DELIVERY":
                    return Mutant.UNRESERVED_DELIVERY;
                default:
                    throw new IllegalArgumentException("unknown impl " + impl);
            }
        }
    }

    @Benchmark
    public int removeHalf(Filled f) {
        return f.queue.removeCallbacksAndMessages(f.removed, null);
    }

    @Benchmark
    public int drain(Filled f) {
        int delivered = 0;
        while (f.queue.poll() != null) {
            delivered++;
        }
        return delivered;
    }
}
