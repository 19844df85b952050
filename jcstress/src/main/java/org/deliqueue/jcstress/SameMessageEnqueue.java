package org.deliqueue.jcstress;

import static org.deliqueue.jcstress.Outcomes.THREW;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;
import org.deliqueue.MessageQueue;
import org.deliqueue.Mutant;
import org.deliqueue.QueueKind;
import org.deliqueue.Steps;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Two threads enqueue the same message at once ({@code enqueueMessage}, whose IN_USE claim is
 * {@code MessageQueue.claimForEnqueue}). Exactly one is accepted; the other gets IllegalStateException ("This
 * message is already in use."). A claim by a read of the flags, then a store ({@code CLAIM_CHECK_THEN_SET}, the
 * upstream check a held-out audit seeded as G16) lets both through when both read the message free, and the message
 * is pushed twice: the second push links it to itself.
 *
 * <p>The queue is never looped and never quits: the actors only claim and push, the arbiter only looks at the top
 * two nodes of the stack, a walk that stops there, so the mutant's self-linked message cannot hang the test. The one
 * wait is the enqueuers' {@link Meeting} before they enqueue, bounded, for an arrival that does not depend on the
 * queue.
 *
 * <p>Result: r1, r2 = the two enqueues (1: accepted; 0: refused as in use; -1: threw anything else or returned
 * false), r3 = how many of the top two nodes of the stack are the message (1: linked once; 2: linked to itself,
 * pushed twice).
 */
// obligation: ExactlyOnce
// negative control: CLAIM_CHECK_THEN_SET
public final class SameMessageEnqueue {
    /** A target for the message (its Looper never runs); one for every instance, the enqueue only reads it. */
    static final Handler TARGET = Steps.handler();

    private SameMessageEnqueue() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final DeliQueue q;
        final Message m = new Message();
        /** The enqueuers meet here before they enqueue: the refused one, which builds an exception, lags. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, new ManualClock(100));
            m.setTarget(TARGET);
        }

        final int enqueue() {
            meeting.arrive();
            try {
                return q.enqueueMessage(m, 5) ? 1 : THREW;
            } catch (IllegalStateException inUse) {
                return 0;
            } catch (RuntimeException e) {
                return THREW;
            }
        }

        final int timesLinked() {
            try {
                return Steps.timesOnTop(q, m, 2);
            } catch (RuntimeException e) {
                return THREW;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Two enqueues of one message at once on DeliQueue: exactly one is accepted, and it is linked once.")
    @Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE, desc = "one accepted, the other refused as in use")
    @Outcome(id = {"1, 1, 1", "1, 1, 2"}, expect = FORBIDDEN, desc = "both claims passed: the message enqueued twice")
    @Outcome(expect = FORBIDDEN, desc = "an enqueue threw (-1) or both were refused, or the message not linked once")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void enqueuer0(III_Result r) {
            r.r1 = enqueue();
        }

        @Actor
        public void enqueuer1(III_Result r) {
            r.r2 = enqueue();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = timesLinked();
        }
    }

    @JCStressTest
    @State
    @MutantTwin("CLAIM_CHECK_THEN_SET")
    @Description("Twin on Mutant.CLAIM_CHECK_THEN_SET: both enqueues read the message free before either stores "
            + "IN_USE, and both pass.")
    @Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = {"1, 1, 1", "1, 1, 2"}, expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the "
            + "mutant): both claims passed, the message enqueued twice")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class ClaimCheckThenSet extends Scenario {
        public ClaimCheckThenSet() {
            super(Mutant.CLAIM_CHECK_THEN_SET);
        }

        @Actor
        public void enqueuer0(III_Result r) {
            r.r1 = enqueue();
        }

        @Actor
        public void enqueuer1(III_Result r) {
            r.r2 = enqueue();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = timesLinked();
        }
    }
}
