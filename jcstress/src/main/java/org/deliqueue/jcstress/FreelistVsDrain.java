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
 * Step 3: two removers push their tombstone chains onto the freelist (CAS against CAS) while the Looper drains it
 * (exchange against CAS). One remover is the Looper itself, which then polls: its drain races the other remover's
 * push. Whatever the interleaving, every chain must reach a drain: after the arbiter's poll (the Looper's next
 * step) no tombstone is left linked, the structure is consistent, and only the untouched message remains.
 *
 * <p>Result: r1, r2 = what each {@code removeMessages} returned (1 each), r3 = arbiter (0: all drained and
 * consistent; 1: a tombstone is still linked; 2: wrong messages pending; -1: threw).
 *
 * <p>Twins: {@code Mutant.FREELIST_PLAIN_PUSH}, whose plain write loses one chain (or re-publishes one already
 * drained), and {@code Mutant.FREELIST_DRAIN_READ_THEN_CLEAR}, whose drain loses a chain pushed between its read
 * and its store.
 */
// obligation: HeapStackConsistent
// obligation: GoneNodesUnlinkedAtRest
// obligation: ExactlyOnce
public final class FreelistVsDrain {
    static final int A = 1;
    static final int B = 2;
    static final int KEEP = 3;

    private FreelistVsDrain() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final ManualClock clock = new ManualClock(0);
        final DeliQueue q;
        final Handler h = Steps.handler();
        /** The two removals meet here before they walk: their pushes then overlap often enough to race. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, clock);
            enqueue(A);
            enqueue(B);
            enqueue(KEEP); // untouched throughout (the removals' descriptors are pushed above it)
            q.poll(); // swept; nothing due
        }

        private void enqueue(int what) {
            Message m = new Message();
            m.what = what;
            m.setTarget(h);
            q.enqueueMessage(m, 1_000);
        }

        final void remover(III_Result r) {
            meeting.arrive();
            try {
                r.r1 = q.removeMessages(h, A, null);
            } catch (RuntimeException e) {
                r.r1 = THREW;
            }
        }

        final void looperRemovesThenPolls(III_Result r) {
            meeting.arrive();
            try {
                r.r2 = q.removeMessages(h, B, null);
                q.poll();
            } catch (RuntimeException e) {
                r.r2 = THREW;
            }
        }

        final void looperNextStep(III_Result r) {
            try {
                q.poll();
                Steps.checkInvariants(q);
                if (Steps.linkedTombstones(q) != 0) {
                    r.r3 = 1;
                } else if (q.hasMessages(h, A, null) || q.hasMessages(h, B, null) || !q.hasMessages(h, KEEP, null)) {
                    r.r3 = 2;
                } else {
                    r.r3 = 0;
                }
            } catch (RuntimeException e) {
                r.r3 = THREW;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Freelist pushes vs the Looper's drain on DeliQueue: every tombstone chain is drained and unlinked.")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "both removed, both chains drained and unlinked")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "a tombstone chain never reached the drain")
    @Outcome(expect = FORBIDDEN, desc = "lost removal, wrong messages pending, or the queue broke (-1: threw)")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void removerActor(III_Result r) {
            remover(r);
        }

        @Actor
        public void looperActor(III_Result r) {
            looperRemovesThenPolls(r);
        }

        @Arbiter
        public void check(III_Result r) {
            looperNextStep(r);
        }
    }

    @JCStressTest
    @State
    @MutantTwin("FREELIST_PLAIN_PUSH")
    @Description("Twin on Mutant.FREELIST_PLAIN_PUSH (chain published without CAS): a lost or twice-drained chain must be observed (x86-64 shows it).")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = {"1, 1, 1", "1, 1, -1"}, expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): a chain lost, or drained twice")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class FreelistPlainPush extends Scenario {
        public FreelistPlainPush() {
            super(Mutant.FREELIST_PLAIN_PUSH);
        }

        @Actor
        public void removerActor(III_Result r) {
            remover(r);
        }

        @Actor
        public void looperActor(III_Result r) {
            looperRemovesThenPolls(r);
        }

        @Arbiter
        public void check(III_Result r) {
            looperNextStep(r);
        }
    }

    @JCStressTest
    @State
    @MutantTwin("FREELIST_DRAIN_READ_THEN_CLEAR")
    @Description("Twin on Mutant.FREELIST_DRAIN_READ_THEN_CLEAR (the drain reads the freelist, then clears it): a chain pushed in between is lost.")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = {"1, 1, 1", "1, 1, -1"}, expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): a chain lost, its descriptor left pending")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class FreelistDrainReadThenClear extends Scenario {
        public FreelistDrainReadThenClear() {
            super(Mutant.FREELIST_DRAIN_READ_THEN_CLEAR);
        }

        @Actor
        public void removerActor(III_Result r) {
            remover(r);
        }

        @Actor
        public void looperActor(III_Result r) {
            looperRemovesThenPolls(r);
        }

        @Arbiter
        public void check(III_Result r) {
            looperNextStep(r);
        }
    }
}
