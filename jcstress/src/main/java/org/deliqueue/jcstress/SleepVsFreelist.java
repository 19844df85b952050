package org.deliqueue.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.deliqueue.DeliQueue;
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
 * The wait word's Dekker pair against {@code freelist}, as a litmus test: the Looper sleeps behind a barrier
 * (ASLEEP|BLOCKED, then re-reads {@code top} and {@code freelist}) while a remover whose descriptor the Looper has
 * already swept finishes the barrier's removal: the REMOVED CAS, the freelist push, then the wake of a Looper asleep
 * behind a barrier ({@code removeSyncBarrier}'s tail). {@code top} does not move, so only the freelist half of the
 * re-check can see the hand-over; otherwise the remover must see ASLEEP and wake the Looper.
 *
 * <p>Observed as in {@link SleepVsPush}: the Looper's park decision by its read of a {@link ParkClock}, the
 * remover's wake by the "use after free" of the wake resource freed in the set-up.
 *
 * <p>Twin: {@code Mutant.SLEEP_RELEASE_ACQUIRE}, seen on x86-64 (store buffer) as in SleepVsPush.
 *
 * <p>{@link FillsFreelist}: the same race, the wake coming from the freelist push itself: the remover's hand-over
 * is counted as {@code FREELIST_WAKE_SIZE} nodes, so {@code pushFreelist} wakes a sleeping Looper (the bound on
 * what removals leave behind a sleeping Looper). Twin: {@code Mutant.REMOVALS_PILE_UP}, whose push never wakes.
 */
// obligation: NoLostWakeup
public final class SleepVsFreelist {
    private SleepVsFreelist() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final ParkClock clock = new ParkClock();
        final DeliQueue q;
        final Message barrier;

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, clock);
            q.postSyncBarrier();
            barrier = Steps.top(q);
            Steps.sweep(q); // the barrier heads the sync heap; swept == top
            Steps.freeWakeResource(q);
        }

        /** 1: the Looper's re-check saw nothing new and it parked; 0: it saw the hand-over. */
        final int looper() {
            clock.looper = Thread.currentThread();
            Steps.sleep(q, ParkClock.NOW, barrier);
            return clock.parked;
        }

        /** 1: the remover saw ASLEEP|BLOCKED and woke the Looper; 0: it saw AWAKE. */
        final int remover() {
            if (!Steps.markRemoved(barrier)) {
                throw new IllegalStateException("the barrier left the queue before its removal");
            }
            Steps.pushFreelist(q, barrier, barrier, 1);
            return woke(() -> Steps.wakeIfAsleepBehindBarrier(q));
        }

        /** As {@link #remover}, with a hand-over counted as a full freelist: the push itself decides the wake. */
        final int fillingRemover() {
            if (!Steps.markRemoved(barrier)) {
                throw new IllegalStateException("the barrier left the queue before its removal");
            }
            return woke(() -> Steps.pushFreelist(q, barrier, barrier, Steps.freelistWakeSize()));
        }

        /** 1 if {@code wakeStep} woke the Looper (it signalled the freed wake resource), else 0. */
        private int woke(Runnable wakeStep) {
            try {
                wakeStep.run();
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
    @Description("Looper's sleep behind a barrier vs the barrier's hand-over on DeliQueue's freelist: the Looper never "
            + "parks unseen by the remover.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the Looper saw the freelist push; the remover saw AWAKE")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the Looper saw the freelist push; the remover woke it anyway")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the Looper parked; the remover saw ASLEEP and woke it")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "lost wakeup: the Looper parked and the remover saw AWAKE")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void looperActor(II_Result r) {
            r.r1 = looper();
        }

        @Actor
        public void removerActor(II_Result r) {
            r.r2 = remover();
        }
    }

    @JCStressTest
    @State
    @MutantTwin(value = "SLEEP_RELEASE_ACQUIRE", tsoOnly = true)
    @Description("Twin on Mutant.SLEEP_RELEASE_ACQUIRE (release ASLEEP store, acquire re-check): a lost wakeup must be "
            + "observed (x86-64's store buffer shows it).")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the Looper saw the freelist push; the remover saw AWAKE")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the Looper saw the freelist push; the remover woke it anyway")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the Looper parked; the remover saw ASLEEP and woke it")
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
        public void removerActor(II_Result r) {
            r.r2 = remover();
        }
    }

    @JCStressTest
    @State
    @Description("Looper's sleep behind a barrier vs a hand-over that fills the freelist: the push wakes the Looper, "
            + "which never parks unseen.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the Looper saw the freelist push; the remover saw AWAKE")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the Looper saw the freelist push; the remover woke it anyway")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the Looper parked; the push saw ASLEEP and woke it")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "the Looper parked behind a full freelist nobody woke it for")
    public static class FillsFreelist extends Scenario {
        public FillsFreelist() {
            super(QueueKind.DELI);
        }

        @Actor
        public void looperActor(II_Result r) {
            r.r1 = looper();
        }

        @Actor
        public void removerActor(II_Result r) {
            r.r2 = fillingRemover();
        }
    }

    @JCStressTest
    @State
    @MutantTwin("REMOVALS_PILE_UP")
    @Description("Twin on Mutant.REMOVALS_PILE_UP (the freelist push never wakes): the Looper parks behind a full "
            + "freelist.")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the Looper saw the freelist push; the remover saw AWAKE")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the Looper saw the freelist push; the remover woke it anyway")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the Looper parked; the push saw ASLEEP and woke it")
    @Outcome(id = "1, 0", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): no wake")
    public static class RemovalsPileUp extends Scenario {
        public RemovalsPileUp() {
            super(Mutant.REMOVALS_PILE_UP);
        }

        @Actor
        public void looperActor(II_Result r) {
            r.r1 = looper();
        }

        @Actor
        public void removerActor(II_Result r) {
            r.r2 = fillingRemover();
        }
    }
}
