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
 * Step 7 (deliver: {@code poll} / {@code claimForDelivery}) against step 3 (tombstone: {@code removeMessages}) on
 * one due, already swept message. The REMOVED CAS decides: exactly one side wins.
 *
 * <p>Result: r1 = the Looper's poll returned the message (1) or not (0), r2 = what {@code removeMessages}
 * returned, r3 = the arbiter's check once both are done (0: nothing left, the Looper's next poll returns null and
 * the structure is consistent; 1: the message is still pending or delivered again; -1: threw).
 */
// obligation: ExactlyOnce
public final class DeliveryVsRemoval {
    static final int WHAT = 1;

    private DeliveryVsRemoval() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final ManualClock clock = new ManualClock(0);
        final DeliQueue q;
        final Handler h = Steps.handler();
        final Message m = new Message();
        /** The Looper and the remover meet here before they poll and walk, so that the two overlap. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, clock);
            m.what = WHAT;
            m.setTarget(h);
            q.enqueueMessage(m, 5);
            q.poll(); // the Looper sweeps it into its heap; not due yet
            clock.set(10); // now it is due
        }

        final void looper(III_Result r) {
            meeting.arrive();
            try {
                r.r1 = q.poll() == m ? 1 : 0;
            } catch (RuntimeException e) {
                r.r1 = THREW;
            }
        }

        final void remover(III_Result r) {
            meeting.arrive();
            try {
                r.r2 = q.removeMessages(h, WHAT, null);
            } catch (RuntimeException e) {
                r.r2 = THREW;
            }
        }

        final void arbiter(III_Result r) {
            try {
                Message again = q.poll(); // drains the remover's freelist, if any
                r.r3 = again == null && !q.hasMessages(h) ? 0 : 1;
                Steps.checkInvariants(q);
            } catch (RuntimeException e) {
                r.r3 = THREW;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Delivery vs removal of one due message on DeliQueue: delivered XOR removed.")
    @Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = ACCEPTABLE, desc = "exactly one of delivery and removal won")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "delivered AND removed")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "neither delivered nor removed")
    @Outcome(expect = FORBIDDEN, desc = "message left behind or the queue broke (-1: threw)")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void looperActor(III_Result r) {
            looper(r);
        }

        @Actor
        public void removerActor(III_Result r) {
            remover(r);
        }

        @Arbiter
        public void check(III_Result r) {
            arbiter(r);
        }
    }

    @JCStressTest
    @State
    @MutantTwin("DELIVER_WITHOUT_REMOVED_CAS")
    @Description("Twin on Mutant.DELIVER_WITHOUT_REMOVED_CAS (check-then-set REMOVED): both winning must be observed (x86-64 shows it).")
    @Outcome(id = {"1, 0, 0", "0, 1, 0"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = "1, 1, .*", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): delivered AND removed")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class DeliverWithoutRemovedCas extends Scenario {
        public DeliverWithoutRemovedCas() {
            super(Mutant.DELIVER_WITHOUT_REMOVED_CAS);
        }

        @Actor
        public void looperActor(III_Result r) {
            looper(r);
        }

        @Actor
        public void removerActor(III_Result r) {
            remover(r);
        }

        @Arbiter
        public void check(III_Result r) {
            arbiter(r);
        }
    }
}
