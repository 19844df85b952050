package org.deliqueue.jcstress;

import static org.deliqueue.jcstress.Outcomes.THREW;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.deliqueue.DeliQueue;
import org.deliqueue.ManualClock;
import org.deliqueue.MessageQueue;
import org.deliqueue.Mutant;
import org.deliqueue.QueueKind;
import org.deliqueue.Steps;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two threads post a sync barrier each, at once. Each barrier gets its own token: with a shared one, a poster's
 * {@code removeSyncBarrier} may remove the other poster's barrier and release the messages that barrier must still
 * hold back.
 *
 * <p>Result: r1, r2 = the two posters' tokens (-1: threw).
 */
// obligation: Refinement
// negative control: BARRIER_TOKEN_READ_THEN_WRITE
public final class BarrierTokens {
    private BarrierTokens() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final DeliQueue q;
        /** The two posts meet here before they take their tokens, so that the two overlap. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, new ManualClock(100));
        }

        final int post() {
            meeting.arrive();
            try {
                return q.postSyncBarrier();
            } catch (RuntimeException e) {
                return THREW;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Two barrier posts at once on DeliQueue: distinct tokens.")
    @Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "distinct tokens")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "two barriers share a token")
    @Outcome(expect = FORBIDDEN, desc = "a post threw (-1), or a token not taken from the counter")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void poster0(II_Result r) {
            r.r1 = post();
        }

        @Actor
        public void poster1(II_Result r) {
            r.r2 = post();
        }
    }

    @JCStressTest
    @State
    @MutantTwin("BARRIER_TOKEN_READ_THEN_WRITE")
    @Description("Twin on Mutant.BARRIER_TOKEN_READ_THEN_WRITE: both posts read the counter before either writes it.")
    @Outcome(id = {"1, 2", "2, 1"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = "1, 1", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): two barriers share a token")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class BarrierTokenReadThenWrite extends Scenario {
        public BarrierTokenReadThenWrite() {
            super(Mutant.BARRIER_TOKEN_READ_THEN_WRITE);
        }

        @Actor
        public void poster0(II_Result r) {
            r.r1 = post();
        }

        @Actor
        public void poster1(II_Result r) {
            r.r2 = post();
        }
    }
}
