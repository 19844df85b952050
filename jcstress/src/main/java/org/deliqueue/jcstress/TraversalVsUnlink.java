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
 * Step 4 (the racy traversal of {@code hasMessages}) against step 3 (the Looper's drain and unlink). The stack is
 * {@code top -> t_N ... t_1 -> live}: the {@code t_i} were tombstoned by another remover and wait on the freelist,
 * whose chain runs bottom-up; {@code live} and {@code top} stay live throughout. The traverser walks top-down
 * while the Looper unlinks bottom-up, so they cross: a cursor standing on a message being unlinked must rejoin
 * the stack through the {@code next} the unlinked message keeps.
 *
 * <p>Result: r1 = {@code hasMessages} found the live message (1) or not (0), or threw (-1); r2 = tombstones
 * still linked after the Looper's drain (0 expected) or -1 if it threw; r3 = arbiter: structure consistent and
 * both live messages still pending (1), or not (0), or threw (-1).
 */
// obligation: TraversalComplete
// obligation: TraversalSafe
public final class TraversalVsUnlink {
    static final int LIVE = 1;
    static final int TOMBSTONED = 2;
    static final int TOP = 3;
    /** Tombstones between top and the live message: enough that the two walks cross inside the chain. */
    static final int TOMBSTONES = 8;

    private TraversalVsUnlink() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final ManualClock clock = new ManualClock(0);
        final DeliQueue q;
        final Handler h = Steps.handler();
        /** The traversal and the drain meet here before they start, so that the walk meets the unlinking. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, clock);
            enqueue(LIVE);
            for (int i = 0; i < TOMBSTONES; i++) {
                enqueue(TOMBSTONED);
            }
            enqueue(TOP);
            q.poll(); // the Looper sweeps: back-links exist; nothing is due
            if (q.removeMessages(h, TOMBSTONED, null) != TOMBSTONES) { // another remover: chain on the freelist
                throw new IllegalStateException("setup: tombstoning failed");
            }
        }

        private void enqueue(int what) {
            Message m = new Message();
            m.what = what;
            m.setTarget(h);
            q.enqueueMessage(m, 1_000);
        }

        final void traverser(III_Result r) {
            meeting.arrive();
            try {
                r.r1 = q.hasMessages(h, LIVE, null) ? 1 : 0;
            } catch (RuntimeException e) {
                r.r1 = THREW;
            }
        }

        final void looper(III_Result r) {
            meeting.arrive();
            try {
                q.poll(); // drains the freelist: unlinks every tombstone
                r.r2 = Steps.linkedTombstones(q);
            } catch (RuntimeException e) {
                r.r2 = THREW;
            }
        }

        final void arbiter(III_Result r) {
            try {
                Steps.checkInvariants(q);
                r.r3 = q.hasMessages(h, LIVE, null) && q.hasMessages(h, TOP, null) ? 1 : 0;
            } catch (RuntimeException e) {
                r.r3 = THREW;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Racy traversal vs unlink on DeliQueue: a message that stays live is always found.")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "found; all tombstones unlinked; structure consistent")
    @Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the traversal missed a live message")
    @Outcome(expect = FORBIDDEN, desc = "threw (-1), tombstones left linked, or structure broken")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void traverserActor(III_Result r) {
            traverser(r);
        }

        @Actor
        public void looperActor(III_Result r) {
            looper(r);
        }

        @Arbiter
        public void check(III_Result r) {
            arbiter(r);
        }
    }

    @JCStressTest
    @State
    @MutantTwin("UNLINK_CLEARS_NEXT")
    @Description("Twin on Mutant.UNLINK_CLEARS_NEXT: a traversal stranded on an unlinked message must be observed (x86-64 shows it).")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the walks did not meet on a message being unlinked")
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): the live message was missed")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class UnlinkClearsNext extends Scenario {
        public UnlinkClearsNext() {
            super(Mutant.UNLINK_CLEARS_NEXT);
        }

        @Actor
        public void traverserActor(III_Result r) {
            traverser(r);
        }

        @Actor
        public void looperActor(III_Result r) {
            looper(r);
        }

        @Arbiter
        public void check(III_Result r) {
            arbiter(r);
        }
    }
}
