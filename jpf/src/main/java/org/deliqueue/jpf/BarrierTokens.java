package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.Clock;
import org.deliqueue.ManualClock;
import org.deliqueue.MessageQueue;

/**
 * Two threads post a sync barrier each; their tokens must differ, or one poster's removeSyncBarrier may remove the
 * other's barrier and release what that one must still hold back (Refinement: each barrier is its own item of the
 * abstract queue, named by its token). DeliQueue takes a token with {@code get} then {@code compareAndSet} of an
 * {@code AtomicInteger} on a final field, again if the CAS fails; the mutant {@code BARRIER_TOKEN_READ_THEN_WRITE}
 * uses {@code get} then {@code set}, a lost update. This is also the listener demonstration: JPF by default never switches threads inside
 * {@code java.util.concurrent.atomic.Atomic*} methods and never at the read of a final field, so without a
 * scheduling point at the {@code set} call it cannot see the lost update; the listener
 * {@code org.deliqueue.jpf.listener.AtomicSchedulingPoints} adds one at every atomic call, and JPF finds it.
 *
 * <p>Arguments: {@code DELI} or {@code BARRIER_TOKEN_READ_THEN_WRITE}.
 */
// obligation: Refinement
// negative control: BARRIER_TOKEN_READ_THEN_WRITE
public final class BarrierTokens {
    private BarrierTokens() {
    }

    public static void main(String[] args) throws InterruptedException {
        Clock clock = new ManualClock(10);
        MessageQueue q = Harness.factory(args).create(true, clock);
        int[] tokens = new int[2];
        Thread a = Harness.start("poster-0", () -> tokens[0] = q.postSyncBarrier());
        Thread b = Harness.start("poster-1", () -> tokens[1] = q.postSyncBarrier());
        Harness.join("Refinement", a, b);
        check(tokens[0] != tokens[1], "Refinement", "each barrier its own token: both barriers got token " + tokens[0]);
    }
}
