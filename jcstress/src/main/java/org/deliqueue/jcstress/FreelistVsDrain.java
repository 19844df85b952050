package org.deliqueue.jcstress;

import static org.deliqueue.jcstress.Outcomes.THREW;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;
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
 * <p>No seeded mutant breaks the freelist, so this test has no mutant twin yet (see the module README).
 */
// obligation: HeapStackConsistent
// obligation: ExactlyOnce
public final class FreelistVsDrain {
    static final int A = 1;
    static final int B = 2;
    static final int KEEP = 3;

    private FreelistVsDrain() {
    }

    @JCStressTest
    @State
    @Description("Freelist pushes vs the Looper's drain on DeliQueue: every tombstone chain is drained and unlinked.")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "both removed, both chains drained and unlinked")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "a tombstone chain never reached the drain")
    @Outcome(expect = FORBIDDEN, desc = "lost removal, wrong messages pending, or the queue broke (-1: threw)")
    public static class Deli {
        final ManualClock clock = new ManualClock(0);
        final DeliQueue q = Steps.deli(QueueKind.DELI, clock);
        final Handler h = Steps.handler();

        public Deli() {
            enqueue(A);
            enqueue(B);
            enqueue(KEEP); // stays on top, so no unlink is deferred
            q.poll(); // swept; nothing due
        }

        private void enqueue(int what) {
            Message m = new Message();
            m.what = what;
            m.setTarget(h);
            q.enqueueMessage(m, 1_000);
        }

        @Actor
        public void remover(III_Result r) {
            try {
                r.r1 = q.removeMessages(h, A, null);
            } catch (RuntimeException e) {
                r.r1 = THREW;
            }
        }

        @Actor
        public void looperRemovesThenPolls(III_Result r) {
            try {
                r.r2 = q.removeMessages(h, B, null);
                q.poll();
            } catch (RuntimeException e) {
                r.r2 = THREW;
            }
        }

        @Arbiter
        public void looperNextStep(III_Result r) {
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
}
