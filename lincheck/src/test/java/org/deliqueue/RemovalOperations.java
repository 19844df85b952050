package org.deliqueue;

import org.jetbrains.lincheck.datastructures.Operation;

/**
 * The removal group: posts, every kind of removal from any thread (one message by identity, all of a
 * {@code what}, all {@code equals} to a probe, all of the handler, an {@code equals} that throws, one whose answer flips
 * when asked again, and a sync barrier by its token), queries, deliveries, a moving clock, quit and quitSafely.
 * Bulk removals race deliveries, pushes, other removals, {@code hasMessages} and quit: the races of
 * atomic bulk removal, and those of ownership: a message covered by two owners (two removals, or a
 * removal and the quit) while the Looper holds it reserved, removals after the quit, and two threads removing the
 * same barrier.
 */
public class RemovalOperations extends QueueOperations {
    public RemovalOperations() {
        this(underTest);
    }

    RemovalOperations(MessageQueue.Factory factory) {
        super(factory);
    }

    /** The sequential specification: the same operations on the legacy queue. */
    public static class Spec extends RemovalOperations {
        public Spec() {
            super(QueueKind.LEGACY);
        }
    }

    @Operation(params = {"thread", "whenIndex", "what"})
    public boolean post(int thread, int whenIndex, int what) {
        return post(thread, WHENS[whenIndex], what, false);
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

    @Operation(params = {"what"})
    public int removeWhat(int what) {
        return super.removeWhat(what);
    }

    @Operation(params = {"what", "group"})
    public int removeEqual(int what, int group) {
        return super.removeEqual(what, group);
    }

    @Operation(params = {"what", "group"})
    public int removeEqualFlipping(int what, int group) {
        return super.removeEqualFlipping(what, group);
    }

    @Operation(params = {"what"})
    public int removeEqualThrowing(int what) {
        return super.removeEqualThrowing(what);
    }

    @Operation
    public int removeAll() {
        return super.removeAll();
    }

    @Operation(nonParallelGroup = LOOPER)
    public String deliver() {
        return super.deliver();
    }

    @Operation(nonParallelGroup = LOOPER)
    public boolean postBarrier() {
        return super.postBarrier();
    }

    @Operation(params = {"barrier"})
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
