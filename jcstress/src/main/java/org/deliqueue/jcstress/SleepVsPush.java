package org.deliqueue.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.Message;
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
 * The wait word's Dekker pair against {@code top}, as a litmus test (memory ordering, not atomicity): the Looper's
 * {@code sleep} (ASLEEP store, then re-read of {@code top} and {@code freelist}) against a producer's
 * {@code enqueueMessage} (CAS of {@code top}, then read of the wait word in {@code signalIfEarlier}). Either the
 * Looper's re-check sees the push, or the producer sees ASLEEP and wakes it; a Looper that parks while the producer
 * saw AWAKE has lost the wakeup.
 *
 * <p>Both decisions are observed without a hook in the queue. The Looper sleeps until "now" on a {@link ParkClock}:
 * {@code parkUntil} reads the clock only when the re-check decided to park; that read waits until the producer has
 * decided (as a parked Looper cannot store AWAKE before it is woken) and then returns at once, the deadline having
 * come, so a lost wakeup costs nothing. The queue's wake resource is freed in the set-up, so the producer's wake
 * throws {@code IllegalStateException} ("use after free") out of {@code enqueueMessage}.
 *
 * <p>Twin: {@code Mutant.SLEEP_RELEASE_ACQUIRE} (ASLEEP stored with release, {@code top} and {@code freelist} read
 * with acquire). x86-64 shows it: the release store waits in the store buffer while the acquire load reads the old
 * {@code top}, and the producer's CAS (a full fence) then reads the old wait word. AArch64 may not show it: HotSpot
 * compiles release and acquire there to {@code stlr} and {@code ldar}, which are kept in order like volatile
 * accesses (only the interpreter's and C1's barrier sequences might let them pass), so the twin is
 * {@code tsoOnly}: required on x86-64, reported as skipped elsewhere when not observed.
 *
 * <p>{@link BehindANewBarrier}: the wake decision behind a barrier. The Looper slept behind one barrier (at
 * {@code NOW - 10}); it was removed, and the Looper now sleeps behind the next (at {@code NOW}); the producer posts a
 * synchronous message at {@code NOW - 5}, which the new barrier does not hold back and the old one would. A producer
 * that reads the new wait word must read the new barrier (it is stored first): reading the old one, it would judge
 * its message held back and not wake the Looper. Twin: {@code Mutant.SLEEP_BARRIER_AFTER_ASLEEP} (the barrier
 * stored after the wait word), {@code tsoOnly} for the reason above: the re-check's read of {@code top} must pass
 * the barrier's release store, or it sees the push.
 */
// obligation: NoLostWakeup
public final class SleepVsPush {
    private SleepVsPush() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final ParkClock clock = new ParkClock();
        final DeliQueue q;
        final Handler h = Steps.handler();
        final Message m = new Message();
        /** The barrier the Looper sleeps behind, or null. */
        final Message barrier;
        /** When the producer's message is due: before the Looper's deadline, so that it needs a wake. */
        final long due;
        /** The Looper and the producer meet here before they sleep and push, so that the two overlap. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            this(kind, false);
        }

        Scenario(MessageQueue.Factory kind, boolean behindANewBarrier) {
            q = Steps.deli(kind, clock);
            if (behindANewBarrier) {
                int earlier = postBarrierAt(ParkClock.NOW - 10);
                Message earlierBarrier = Steps.top(q);
                postBarrierAt(ParkClock.NOW);
                barrier = Steps.top(q);
                q.poll(); // the Looper sweeps both barriers: nothing to deliver
                Steps.sleep(q, ParkClock.NOW, earlierBarrier); // its deadline has come: it returns at once
                q.removeSyncBarrier(earlier);
                q.poll(); // the Looper drains the removal: the later barrier heads the sync heap
                due = ParkClock.NOW - 5;
            } else {
                Steps.sweep(q); // swept == top (empty): the Looper has seen everything so far
                barrier = null;
                due = ParkClock.NOW - 1;
            }
            Steps.freeWakeResource(q);
            m.what = 1;
            m.setTarget(h);
        }

        private int postBarrierAt(long when) {
            clock.elsewhere = when;
            return q.postSyncBarrier();
        }

        /** 1: the Looper's re-check saw nothing new and it parked; 0: it saw the push. */
        final int looper() {
            clock.looper = Thread.currentThread();
            meeting.arrive();
            Steps.sleep(q, ParkClock.NOW, barrier);
            return clock.parked;
        }

        /** 1: the producer saw ASLEEP and woke the Looper; 0: it saw AWAKE. */
        final int producer() {
            meeting.arrive();
            try {
                q.enqueueMessage(m, due);
                return 0;
            } catch (IllegalStateException woke) {
                return 1;
            } finally {
                clock.decided = true;
            }
        }
    }

    @JCStressTest
    @State
    @Description("Looper's sleep vs a producer's push on DeliQueue: the Looper never parks unseen by the producer.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the Looper saw the push; the producer saw AWAKE")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the Looper saw the push; the producer woke it anyway")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the Looper parked; the producer saw ASLEEP and woke it")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "lost wakeup: the Looper parked and the producer saw AWAKE")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void looperActor(II_Result r) {
            r.r1 = looper();
        }

        @Actor
        public void producerActor(II_Result r) {
            r.r2 = producer();
        }
    }

    @JCStressTest
    @State
    @MutantTwin(value = "SLEEP_RELEASE_ACQUIRE", tsoOnly = true)
    @Description("Twin on Mutant.SLEEP_RELEASE_ACQUIRE (release ASLEEP store, acquire re-check): a lost wakeup must be "
            + "observed (x86-64's store buffer shows it).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the Looper saw the push; the producer saw AWAKE")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the Looper saw the push; the producer woke it anyway")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the Looper parked; the producer saw ASLEEP and woke it")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): lost wakeup")
    public static class SleepReleaseAcquire extends Scenario {
        public SleepReleaseAcquire() {
            super(Mutant.SLEEP_RELEASE_ACQUIRE);
        }

        @Actor
        public void looperActor(II_Result r) {
            r.r1 = looper();
        }

        @Actor
        public void producerActor(II_Result r) {
            r.r2 = producer();
        }
    }
    @JCStressTest
    @State
    @Description("Looper's sleep behind a new barrier vs a producer's push it does not hold back: the Looper never "
            + "parks unseen by the producer.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the Looper saw the push; the producer saw AWAKE")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the Looper saw the push; the producer woke it anyway")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the Looper parked; the producer saw ASLEEP and woke it")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "lost wakeup: the Looper parked, the producer did not wake it")
    public static class BehindANewBarrier extends Scenario {
        public BehindANewBarrier() {
            super(QueueKind.DELI, true);
        }

        @Actor
        public void looperActor(II_Result r) {
            r.r1 = looper();
        }

        @Actor
        public void producerActor(II_Result r) {
            r.r2 = producer();
        }
    }

    @JCStressTest
    @State
    @MutantTwin(value = "SLEEP_BARRIER_AFTER_ASLEEP", tsoOnly = true)
    @Description("Twin on Mutant.SLEEP_BARRIER_AFTER_ASLEEP (the barrier stored after the wait word): a lost wakeup "
            + "must be observed (x86-64's store buffer shows it).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the Looper saw the push; the producer saw AWAKE")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the Looper saw the push; the producer woke it anyway")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the Looper parked; the producer saw ASLEEP and woke it")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): lost wakeup, "
            + "the producer judged its message by the earlier barrier")
    public static class SleepBarrierAfterAsleep extends Scenario {
        public SleepBarrierAfterAsleep() {
            super(Mutant.SLEEP_BARRIER_AFTER_ASLEEP, true);
        }

        @Actor
        public void looperActor(II_Result r) {
            r.r1 = looper();
        }

        @Actor
        public void producerActor(II_Result r) {
            r.r2 = producer();
        }
    }
}
