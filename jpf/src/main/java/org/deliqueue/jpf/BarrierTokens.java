package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.Clock;
import org.deliqueue.DeliQueue;
import org.deliqueue.JpfSteps;
import org.deliqueue.ManualClock;

/**
 * The listener demonstration. Two threads post a sync barrier each; their tokens must differ. DeliQueue takes a
 * token with {@code AtomicInteger.getAndIncrement} on a final field. The variant {@code TOKEN_GET_THEN_SET}
 * ({@link JpfSteps#tokenGetThenSet}) uses {@code get} then {@code set}: a lost update. JPF by default never
 * switches threads inside {@code java.util.concurrent.atomic.Atomic*} methods and never at the read of a final
 * field, so without a scheduling point at the {@code set} call it cannot see the lost update; the listener
 * {@code org.deliqueue.jpf.listener.AtomicSchedulingPoints} adds one at every atomic call, and JPF finds it.
 *
 * <p>Distinct tokens are not one of the specification's obligations (the abstract queue does not model barrier
 * tokens); the check is named {@code UniqueBarrierTokens}.
 *
 * <p>Arguments: {@code DELI} or {@code TOKEN_GET_THEN_SET}.
 */
public final class BarrierTokens {
    private BarrierTokens() {
    }

    public static void main(String[] args) throws InterruptedException {
        String kind = args.length > 0 ? args[0] : "DELI";
        Clock clock = new ManualClock(10);
        DeliQueue q = "TOKEN_GET_THEN_SET".equals(kind) ? JpfSteps.tokenGetThenSet(clock)
                : (DeliQueue) Harness.factory(args).create(true, clock);
        int[] tokens = new int[2];
        Thread a = Harness.start("poster-0", () -> tokens[0] = q.postSyncBarrier());
        Thread b = Harness.start("poster-1", () -> tokens[1] = q.postSyncBarrier());
        Harness.join("UniqueBarrierTokens", a, b);
        check(tokens[0] != tokens[1], "UniqueBarrierTokens", "both barriers got token " + tokens[0]);
    }
}
