package org.deliqueue.jcstress;

import static org.deliqueue.jcstress.Outcomes.THREW;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
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
 * Step 3 (a bulk removal) against step 3 (a single removal) followed by step 1 (a push): the history Lincheck
 * found on the per-message removal, before removal descriptors. The queue holds {@code m1} (obj {@code KEY}) above a
 * {@code filler} of the same handler and {@code what} but another obj. Actor 1 removes every message equal to
 * {@code KEY} ({@code removeEqualMessages}); actor 2 removes the messages whose obj is {@code KEY}
 * ({@code removeMessages}, identity), then posts {@code m2} (obj {@code KEY}). The per-message removal
 * tombstones {@code m1}, the single removal finds it gone (returns 0), {@code m2} is pushed, and the bulk removal's
 * next pass over what was pushed meanwhile takes {@code m2} too (returns 2). No single instant explains it: the
 * single removal's 0 puts the bulk removal before it, and {@code m2} comes after the single removal. DeliQueue's
 * removal takes exactly what was pushed before its descriptor, so it returns at most 1 here.
 *
 * <p>The window of the bug lies between the bulk removal's take of {@code m1} and its re-read of {@code top}, while
 * actor 2 walks, pushes and returns. {@code KEY}'s {@code equals}, the user code the bulk removal calls for the
 * filler, takes {@value #SLOW_EQUALS_NS} ns and so holds the bulk removal in that window, as a long queue would;
 * actor 2 compares by identity and passes the filler at once.
 *
 * <p>Result: r1 = the bulk removal's count, r2 = the single removal's count, r3 = the arbiter's check (1: {@code m2}
 * is still pending, 0: it is not, -1: threw, including a broken structure).
 */
// obligation: Refinement, TraversalComplete
public final class RemovalVsRemoveThenPush {
    static final int WHAT = 1;
    static final long SLOW_EQUALS_NS = TimeUnit.MICROSECONDS.toNanos(5);

    private RemovalVsRemoveThenPush() {
    }

    /** The bulk removal's key: equal only to itself, and slow to say that anything else is not. */
    static final class SlowKey {
        @Override
        public boolean equals(Object other) {
            if (other != this) {
                Delays.spin(SLOW_EQUALS_NS);
            }
            return other == this;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final DeliQueue q;
        final Handler h = Steps.handler();
        final SlowKey key = new SlowKey();
        final Message m1 = message(key);
        final Message m2 = message(key);
        /** The two removals meet here before they walk, so that the push lands inside the bulk walk. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, new ManualClock(0));
            q.enqueueMessage(message(new Object()), 5); // the filler
            q.enqueueMessage(m1, 5);
        }

        private Message message(Object obj) {
            Message m = new Message();
            m.what = WHAT;
            m.obj = obj;
            m.setTarget(h);
            return m;
        }

        final void bulkRemover(III_Result r) {
            meeting.arrive();
            try {
                r.r1 = q.removeEqualMessages(h, WHAT, key);
            } catch (RuntimeException e) {
                r.r1 = THREW;
            }
        }

        final void removeThenPush(III_Result r) {
            meeting.arrive();
            try {
                r.r2 = q.removeMessages(h, WHAT, key);
                q.enqueueMessage(m2, 5);
            } catch (RuntimeException e) {
                r.r2 = THREW;
            }
        }

        final void arbiter(III_Result r) {
            try {
                r.r3 = q.hasMessages(h, WHAT, key) ? 1 : 0;
                Steps.checkInvariants(q);
            } catch (RuntimeException e) {
                r.r3 = THREW;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Bulk removal vs a single removal then a push on DeliQueue: the bulk removal never takes a message "
            + "pushed after a removal that found its first match gone.")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "bulk removal (m1), single removal, push")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "single removal (m1), bulk removal, push")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "single removal (m1), push, bulk removal (m2)")
    @Outcome(id = "2, 0, .*", expect = FORBIDDEN, desc = "the bulk removal took m1 and the later m2: not atomic")
    @Outcome(expect = FORBIDDEN, desc = "a message taken twice or lost, or the queue broke (-1)")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void bulkRemoverActor(III_Result r) {
            bulkRemover(r);
        }

        @Actor
        public void removeThenPushActor(III_Result r) {
            removeThenPush(r);
        }

        @Arbiter
        public void check(III_Result r) {
            arbiter(r);
        }
    }

    @JCStressTest
    @State
    @MutantTwin("BULK_REMOVAL_PER_MESSAGE")
    @Description("Twin on Mutant.BULK_REMOVAL_PER_MESSAGE (one CAS per message, repeated passes): the bulk removal "
            + "taking m2 after the single removal found m1 gone must be observed (x86-64 shows it).")
    @Outcome(id = {"1, 0, 1", "0, 1, 1", "1, 1, 0"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = "2, 0, .*", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): not atomic")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class BulkRemovalPerMessage extends Scenario {
        public BulkRemovalPerMessage() {
            super(Mutant.BULK_REMOVAL_PER_MESSAGE);
        }

        @Actor
        public void bulkRemoverActor(III_Result r) {
            bulkRemover(r);
        }

        @Actor
        public void removeThenPushActor(III_Result r) {
            removeThenPush(r);
        }

        @Arbiter
        public void check(III_Result r) {
            arbiter(r);
        }
    }
}
