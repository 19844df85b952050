package org.deliqueue;

import org.jetbrains.lincheck.datastructures.Operation;

/**
 * The delivery group: what the Looper delivers, and when, under a moving clock that starts at 0. Posts with an
 * absolute {@code when} (front of queue included) and async posts from any thread, posts whose {@code when} comes
 * from the clock, sync barriers (at uptime 0 too), quit and quitSafely against the clock (quitSafely keeps what
 * is due at its linearization point), queries and removal of one message.
 */
public class DeliveryOperations extends QueueOperations {
    public DeliveryOperations() {
        this(underTest);
    }

    DeliveryOperations(MessageQueue.Factory factory) {
        super(factory);
    }

    /** The sequential specification: the same operations on the legacy queue. */
    public static class Spec extends DeliveryOperations {
        public Spec() {
            super(QueueKind.LEGACY);
        }
    }

    @Operation(params = {"thread", "whenIndex", "what"})
    public boolean post(int thread, int whenIndex, int what) {
        return post(thread, WHENS[whenIndex], what, false);
    }

    @Operation(params = {"thread", "whenIndex", "what"})
    public boolean postAsync(int thread, int whenIndex, int what) {
        return post(thread, WHENS[whenIndex], what, true);
    }

    @Operation(params = {"thread", "delay", "what"}, nonParallelGroup = CLOCK)
    public boolean postDelayed(int thread, int delay, int what) {
        return super.postDelayed(thread, delay, what);
    }

    @Operation(params = {"millis"}, nonParallelGroup = CLOCK)
    public void advance(int millis) {
        super.advance(millis);
    }

    @Operation(params = {"what"})
    public boolean has(int what) {
        return super.has(what);
    }

    @Operation(params = {"owner", "k"})
    public int removeOne(int owner, int k) {
        return super.removeOne(owner, k);
    }

    @Operation(nonParallelGroup = LOOPER)
    public String deliver() {
        return super.deliver();
    }

    @Operation(nonParallelGroup = LOOPER)
    public boolean postBarrier() {
        return super.postBarrier();
    }

    @Operation(params = {"barrier"}, nonParallelGroup = LOOPER)
    public boolean removeBarrier(int barrier) {
        return super.removeBarrier(barrier);
    }

    @Operation(nonParallelGroup = CLOCK)
    public void quitSafely() {
        quit(true);
    }

    @Operation
    public void quit() {
        quit(false);
    }
}
