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
 * Step 1 (push) against step 8 (quit: {@code quitSafely} pushes the quit sentinel). A push that returned true
 * went in below the sentinel, so the Looper's sweep that finds the sentinel has it and, the message being due,
 * delivers it (upstream edge case 5); a push that returned false never runs; and once the sentinel is on top no
 * push succeeds. The arbiter is the Looper: it drains the queue, then tries one more push.
 *
 * <p>Result: r1 = the producer's enqueue returned true (1) / false (0) / threw (-1), r2 = times the message was
 * delivered, r3 = a push after the drain succeeded (1) or was refused (0).
 */
// obligation: NoPushAfterQuit
// obligation: NoLostMessage
public final class PushVsQuit {
    private PushVsQuit() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final ManualClock clock = new ManualClock(100);
        final DeliQueue q;
        final Handler h = Steps.handler();
        final Message m = new Message();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, clock);
            m.what = 1;
            m.setTarget(h);
        }

        final void producer(III_Result r) {
            try {
                r.r1 = q.enqueueMessage(m, 5) ? 1 : 0;
            } catch (RuntimeException e) {
                r.r1 = THREW;
            }
        }

        final void quitter() {
            q.quit(true);
        }

        final void looper(III_Result r) {
            try {
                int delivered = 0;
                for (Message got; (got = q.poll()) != null; ) {
                    if (got == m) {
                        delivered++;
                    }
                }
                r.r2 = delivered;
                Message late = new Message();
                late.setTarget(h);
                r.r3 = q.enqueueMessage(late, 5) ? 1 : 0;
            } catch (RuntimeException e) {
                r.r2 = THREW;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Push vs quitSafely on DeliQueue: an accepted push is delivered; after quit every push fails.")
    @Outcome(id = {"1, 1, 0", "0, 0, 0"}, expect = ACCEPTABLE, desc = "accepted and delivered, or refused and never run")
    @Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "push returned true but the message is lost")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "a push succeeded after quit")
    @Outcome(expect = FORBIDDEN, desc = "refused but delivered, or the queue broke (-1: threw)")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void producerActor(III_Result r) {
            producer(r);
        }

        @Actor
        public void quitterActor() {
            quitter();
        }

        @Arbiter
        public void looperArbiter(III_Result r) {
            looper(r);
        }
    }

    @JCStressTest
    @State
    @MutantTwin("NON_ATOMIC_PUSH")
    @Description("Twin on Mutant.NON_ATOMIC_PUSH: a racing push overwrites the quit sentinel or is overwritten by it (x86-64 shows it).")
    @Outcome(id = {"1, 1, 0", "0, 0, 0"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = {"1, 0, .*", ".*, 1", ".*, -1, .*"}, expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): accepted push lost, or push after quit")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class NonAtomicPush extends Scenario {
        public NonAtomicPush() {
            super(Mutant.NON_ATOMIC_PUSH);
        }

        @Actor
        public void producerActor(III_Result r) {
            producer(r);
        }

        @Actor
        public void quitterActor() {
            quitter();
        }

        @Arbiter
        public void looperArbiter(III_Result r) {
            looper(r);
        }
    }
}
