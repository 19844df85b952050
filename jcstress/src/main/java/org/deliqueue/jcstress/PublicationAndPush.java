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
 * Step 1 (push) against step 2 (sweep): a producer fills a message (what, arg1, obj, when) and enqueues it while
 * the Looper enqueues one of its own and polls. The Looper must never see the producer's message with default
 * field values (the payload is published by the push CAS and read after the acquire read of {@code top}), and
 * both pushes must land: the arbiter, as the Looper, drains the queue and counts.
 *
 * <p>Result: r1 = what the Looper's poll returned (1: the producer's message, complete; 2: its own;
 * 3: the producer's message with a default field; 0: nothing; -1: threw), r2 = messages delivered in all (2 expected),
 * r3 = enqueues accepted (2 expected).
 */
// obligation: NoLostMessage
// obligation: ExactlyOnce
public final class PublicationAndPush {
    static final int WHAT = 7;
    static final int ARG1 = 0x5EED;
    static final long WHEN = 5;
    static final Object PAYLOAD = new Object();

    private PublicationAndPush() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final ManualClock clock = new ManualClock(100);
        final DeliQueue q;
        final Handler h = Steps.handler();
        volatile int accepted;
        /** The two posts meet here before they enqueue, so that their pushes overlap. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, clock);
        }

        final void produce() {
            Message m = new Message();
            m.what = WHAT;
            m.arg1 = ARG1;
            m.obj = PAYLOAD;
            m.setTarget(h);
            meeting.arrive();
            try {
                if (q.enqueueMessage(m, WHEN)) {
                    accepted++;
                }
            } catch (RuntimeException e) {
                accepted = THREW;
            }
        }

        final void looper(III_Result r) {
            try {
                Message own = new Message();
                own.what = WHAT + 1;
                own.setTarget(h);
                meeting.arrive();
                boolean ok = q.enqueueMessage(own, WHEN);
                Message got = q.poll();
                if (got == null) {
                    r.r1 = 0;
                } else if (got == own) {
                    r.r1 = 2;
                } else if (got != null && got.what == WHAT && got.arg1 == ARG1 && got.obj == PAYLOAD
                        && got.getWhen() == WHEN && got.getTarget() == h) {
                    r.r1 = 1;
                } else {
                    r.r1 = 3;
                }
                r.r3 = ok ? 1 : 0;
            } catch (RuntimeException e) {
                r.r1 = THREW;
            }
        }

        final void arbiter(III_Result r) {
            r.r3 = accepted < 0 ? THREW : r.r3 + accepted;
            int delivered = r.r1 == 1 || r.r1 == 2 ? 1 : 0;
            try {
                for (Message m; (m = q.poll()) != null; ) {
                    delivered++;
                }
                r.r2 = delivered;
            } catch (RuntimeException e) {
                r.r2 = THREW;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Publication and push on DeliQueue: the Looper sees a complete message; no push is lost.")
    @Outcome(id = {"1, 2, 2", "2, 2, 2"}, expect = ACCEPTABLE, desc = "complete message seen (or own first); both delivered")
    @Outcome(id = "3, .*", expect = FORBIDDEN, desc = "Looper saw default field values: unsafe publication")
    @Outcome(expect = FORBIDDEN, desc = "a push was lost, or the queue broke (-1: threw)")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void looperActor(III_Result r) {
            looper(r);
        }

        @Arbiter
        public void drain(III_Result r) {
            arbiter(r);
        }
    }

    @JCStressTest
    @State
    @MutantTwin("NON_ATOMIC_PUSH")
    @Description("Twin on Mutant.NON_ATOMIC_PUSH (top written without CAS): a lost push must be observed (x86-64 shows it).")
    @Outcome(id = {"1, 2, 2", "2, 2, 2"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = {"[12], [01], 2", "-1, .*", ".*, -1, .*"}, expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): a push was lost or the stack broke")
    @Outcome(id = "3, .*", expect = FORBIDDEN, desc = "Looper saw default field values: the mutant still publishes by a volatile write")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class NonAtomicPush extends Scenario {
        public NonAtomicPush() {
            super(Mutant.NON_ATOMIC_PUSH);
        }

        @Actor
        public void producer() {
            produce();
        }

        @Actor
        public void looperActor(III_Result r) {
            looper(r);
        }

        @Arbiter
        public void drain(III_Result r) {
            arbiter(r);
        }
    }
}
