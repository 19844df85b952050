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
 * Step 3 (a removal off the Looper: its descriptor push, then its walk) against step 7 (delivery: reserve, then
 * resolve) on two due, swept messages that the one removal matches: {@code x1} (when 6, pushed first) and
 * {@code x2} (when 5, pushed second, so it is delivered first and the remover's walk, newest first, meets it
 * first). The removal is one atomic step, linearized at its descriptor's push; a delivery linearizes at the read
 * of {@code top} that resolves its reservation. So the removal takes both, or the Looper delivers {@code x2}
 * (the earlier) and the removal takes {@code x1}. The Looper delivering {@code x1} while the removal took only
 * {@code x2} has no sequential explanation: {@code x2} was gone at the delivery, so the removal came first, and
 * then it took {@code x1} too.
 *
 * <p>{@code BULK_REMOVAL_PER_MESSAGE} (no descriptor) produces exactly that outcome, on x86-64 too: the remover
 * tombstones {@code x2}, the Looper skips it and delivers {@code x1}, the remover finds {@code x1} gone.
 * {@code UNRESERVED_DELIVERY} (a descriptor pushed after the Looper's sweep, a one-CAS delivery that never looks at
 * {@code top} again) produces it too, but its window (a push between the sweep and the CAS) showed up about once in
 * 760,000 samples in quick mode: too rare for a twin that must be observed on every run, so Lincheck's model
 * checking ({@code BulkRemovalOffTheLooperTest}) is its Java checker. The per-message
 * removal's REMOVED CAS also ignores the Looper's reservation, so under {@code BULK_REMOVAL_PER_MESSAGE} a message
 * can be delivered AND removed (ExactlyOnce): its twin grades that as a violation too.
 *
 * <p>Result: r1 = what the Looper's poll returned (0: nothing, 1: x1, 2: x2), r2 = what {@code removeMessages}
 * returned, r3 = the arbiter's check once both are done (0: nothing left, the Looper's next poll returns null, no
 * message of the handler is pending and the structure is consistent; 1: something is left or delivered again;
 * -1: threw).
 */
// obligation: Refinement, ExactlyOnce
public final class AtomicRemovalVsDelivery {
    static final int WHAT = 1;
    static final long SLOW_COMPARE_NS = TimeUnit.MICROSECONDS.toNanos(Long.getLong("slowus", 5));

    /** A message's payload; comparing the removal's {@link #KEY} with it takes {@code compareNs} (user code). */
    static final class Payload {
        final long compareNs;

        Payload(long compareNs) {
            this.compareNs = compareNs;
        }
    }

    /** The removal's key: equal to every {@link Payload}, after as long as that payload takes to compare. */
    static final Object KEY = new Object() {
        @Override
        public boolean equals(Object other) {
            if (other instanceof Payload) {
                Delays.spin(((Payload) other).compareNs);
                return true;
            }
            return other == this;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    };

    private AtomicRemovalVsDelivery() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final ManualClock clock = new ManualClock(0);
        final DeliQueue q;
        final Handler h = Steps.handler();
        final Message x1 = new Message();
        final Message x2 = new Message();
        /** The Looper and the remover meet here before they poll and walk, so that the two overlap. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, clock);
            for (Message x : new Message[] {x1, x2}) {
                x.what = WHAT;
                x.setTarget(h);
            }
            x1.obj = new Payload(SLOW_COMPARE_NS);
            x2.obj = new Payload(0);
            q.enqueueMessage(x1, 6);
            q.enqueueMessage(x2, 5);
            q.poll(); // the Looper sweeps both into its heap; neither is due yet
            clock.set(10); // now both are
        }

        final void looper(III_Result r) {
            meeting.arrive();
            try {
                Message got = q.poll();
                r.r1 = got == null ? 0 : got == x1 ? 1 : got == x2 ? 2 : THREW;
            } catch (RuntimeException e) {
                r.r1 = THREW;
            }
        }

        final void remover(III_Result r) {
            meeting.arrive();
            try {
                r.r2 = q.removeEqualMessages(h, WHAT, KEY);
            } catch (RuntimeException e) {
                r.r2 = THREW;
            }
        }

        final void arbiter(III_Result r) {
            try {
                Message again = q.poll(); // drains the remover's freelist
                r.r3 = again == null && !q.hasMessages(h, WHAT, null) ? 0 : 1;
                Steps.checkInvariants(q);
            } catch (RuntimeException e) {
                r.r3 = THREW;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Removal of two due messages off the Looper vs delivery on DeliQueue: the removal is atomic.")
    @Outcome(id = "2, 1, 0", expect = ACCEPTABLE, desc = "delivery of x2, then the removal (takes x1)")
    @Outcome(id = "0, 2, 0", expect = ACCEPTABLE, desc = "the removal (takes both), then nothing to deliver")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "x1 delivered though the removal took x2: not atomic")
    @Outcome(expect = FORBIDDEN, desc = "a message lost, delivered twice or left behind, or the queue broke (-1)")
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
    @MutantTwin("BULK_REMOVAL_PER_MESSAGE")
    @Description("Twin on Mutant.BULK_REMOVAL_PER_MESSAGE (one CAS per message, no descriptor): x1 delivered while "
            + "the removal took x2 must be observed (x86-64 shows it).")
    @Outcome(id = {"2, 1, 0", "0, 2, 0"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = "1, 1, .*", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): not atomic")
    @Outcome(id = {"1, 2, .*", "2, 2, .*"}, expect = ACCEPTABLE_INTERESTING,
            desc = "VIOLATION (this mutant's REMOVED CAS ignores the Looper's reservation): delivered AND removed")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class BulkRemovalPerMessage extends Scenario {
        public BulkRemovalPerMessage() {
            super(Mutant.BULK_REMOVAL_PER_MESSAGE);
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
