package org.deliqueue.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;
import org.deliqueue.MessageQueue;
import org.deliqueue.Mutant;
import org.deliqueue.QueueKind;
import org.deliqueue.Steps;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * Step 6 (the wait word: the Looper's {@code sleep}) against step 1 (a producer's push and
 * {@code signalIfEarlier}). A jcstress termination test: the Looper actor runs the real Looper loop (poll, idle
 * for a random 0-3 ms, {@code sleep}, poll again) and the signal, sent about 1 ms after the actor starts, enqueues
 * a due message. The random idle time lands the push before the Looper's sweep, between its sweep and its ASLEEP
 * write (the re-check must catch it), or after ASLEEP (the producer must claim the wake).
 *
 * <p>Two starts ({@link Start}). {@code EMPTY}: uptime 100, nothing queued, the producer posts a due message.
 * {@code BARRIER_AT_ZERO} (the wake decided by the clock): uptime 0, a sync barrier posted at uptime 0 heads the queue and the
 * Looper sleeps behind it (BLOCKED, {@code sleepBarrier} = the barrier); the producer posts a synchronous message at
 * uptime 0, a front-of-queue message ({@code when} 0, LIFO) that sorts before the barrier, so the barrier does not
 * hold it back: it must be delivered, and the producer must wake the Looper. Whether the barrier holds a message
 * back is decided by the protocol's order {@code (when, insertSeq)}; by the clock ({@code when >= now}) it looks
 * held back and the wake is lost.
 *
 * <p>A lost wakeup must not hang the run, so the Looper sleeps with a finite deadline (4 s, through a
 * ManualClock) and reports a lost wakeup as an exception (outcome ERROR) when it stayed parked for at least 2 s
 * after the push had completed: DeliQueue wakes it within microseconds. Any other failure of the Looper leaves it
 * blocked on purpose, so that it shows as STALE (forbidden everywhere) and is never counted as the mutant's
 * violation.
 */
// obligation: NoLostWakeup
public final class WakeupVsSleep {
    static final long SLEEP_MS = 4_000;
    static final long LOST_AFTER_NS = TimeUnit.SECONDS.toNanos(2);
    static final long MAX_IDLE_NS = TimeUnit.MILLISECONDS.toNanos(3);

    private WakeupVsSleep() {
    }

    /** The queue the Looper goes to sleep on, and the message the producer posts. */
    enum Start {
        /** Uptime 100, an empty queue; the producer posts a message due at 5. */
        EMPTY(100, 5, false),
        /** Uptime 0, a sync barrier posted at 0 blocks the Looper; the producer posts at 0 (front of queue). */
        BARRIER_AT_ZERO(0, 0, true);

        final long uptime;
        final long when;
        final boolean barrier;

        Start(long uptime, long when, boolean barrier) {
            this.uptime = uptime;
            this.when = when;
            this.barrier = barrier;
        }
    }

    /** Thrown by the Looper when it slept past a pushed, due message. */
    static final class LostWakeup extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        LostWakeup(long parkedAfterPushNs) {
            super("NoLostWakeup violated: parked " + parkedAfterPushNs / 1_000_000 + " ms after a due push");
        }
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final ManualClock clock;
        final DeliQueue q;
        final Handler h = Steps.handler();
        final Message m = new Message();
        final long when;
        /** The barrier heading the queue, which the Looper sleeps behind; null if none. */
        final Message barrier;
        /** System.nanoTime() just after the producer's enqueue returned; 0 before. */
        volatile long pushedAt;

        Scenario(MessageQueue.Factory kind, Start start) {
            clock = new ManualClock(start.uptime);
            q = Steps.deli(kind, clock);
            m.what = 1;
            m.setTarget(h);
            when = start.when;
            if (start.barrier) {
                q.postSyncBarrier();
                barrier = Steps.top(q);
            } else {
                barrier = null;
            }
        }

        final void looper() {
            try {
                boolean first = true;
                for (;;) {
                    Message got = q.poll();
                    if (got == m) {
                        return;
                    }
                    if (got != null) {
                        throw new IllegalStateException("delivered a message nobody sent");
                    }
                    if (first) {
                        first = false;
                        Delays.spin(ThreadLocalRandom.current().nextLong(MAX_IDLE_NS));
                    }
                    long start = System.nanoTime();
                    Steps.sleep(q, clock.uptimeMillis() + SLEEP_MS, barrier);
                    long end = System.nanoTime();
                    long pushed = pushedAt;
                    if (pushed != 0 && end - Math.max(pushed, start) >= LOST_AFTER_NS) {
                        throw new LostWakeup(end - Math.max(pushed, start));
                    }
                }
            } catch (LostWakeup e) {
                throw e;
            } catch (RuntimeException unexpected) {
                for (;;) { // STALE, not ERROR: see the class comment
                    LockSupport.park(this);
                }
            }
        }

        final void producer() {
            if (q.enqueueMessage(m, when)) { // refused: the Looper never gets m and shows STALE
                pushedAt = System.nanoTime();
            }
        }
    }

    @JCStressTest(Mode.Termination)
    @State
    @Description("Producer vs sleeping Looper on DeliQueue: the Looper never sleeps past a due message.")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the Looper saw the push (re-check) or was woken")
    @Outcome(id = "ERROR", expect = FORBIDDEN, desc = "lost wakeup: the Looper stayed parked after the push")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the Looper hung or failed")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI, Start.EMPTY);
        }

        @Actor
        public void looperActor() {
            looper();
        }

        @Signal
        public void producerSignal() {
            producer();
        }
    }

    @JCStressTest(Mode.Termination)
    @State
    @MutantTwin("LOST_WAKEUP")
    @Description("Twin on Mutant.LOST_WAKEUP (no re-check after ASLEEP): a lost wakeup must be observed (x86-64 shows it).")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the push missed the window this time")
    @Outcome(id = "ERROR", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): lost wakeup")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the Looper hung or failed")
    public static class LostWakeupTwin extends Scenario {
        public LostWakeupTwin() {
            super(Mutant.LOST_WAKEUP, Start.EMPTY);
        }

        @Actor
        public void looperActor() {
            looper();
        }

        @Signal
        public void producerSignal() {
            producer();
        }
    }

    @JCStressTest(Mode.Termination)
    @State
    @Description("Front-of-queue post at uptime 0 vs a Looper asleep behind a barrier posted at 0 on DeliQueue: the "
            + "post sorts before the barrier, so the Looper is woken.")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the Looper saw the push (re-check) or was woken")
    @Outcome(id = "ERROR", expect = FORBIDDEN, desc = "lost wakeup: the barrier was taken to hold the post back")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the Looper hung or failed")
    public static class DeliBarrierAtZero extends Scenario {
        public DeliBarrierAtZero() {
            super(QueueKind.DELI, Start.BARRIER_AT_ZERO);
        }

        @Actor
        public void looperActor() {
            looper();
        }

        @Signal
        public void producerSignal() {
            producer();
        }
    }

    @JCStressTest(Mode.Termination)
    @State
    @MutantTwin("WAKE_BY_CLOCK")
    @Description("Twin on Mutant.WAKE_BY_CLOCK (held back iff when >= now): at uptime 0 a lost wakeup must be "
            + "observed (x86-64 shows it).")
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the push landed before the Looper's re-check")
    @Outcome(id = "ERROR", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): lost wakeup")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the Looper hung or failed")
    public static class WakeByClock extends Scenario {
        public WakeByClock() {
            super(Mutant.WAKE_BY_CLOCK, Start.BARRIER_AT_ZERO);
        }

        @Actor
        public void looperActor() {
            looper();
        }

        @Signal
        public void producerSignal() {
            producer();
        }
    }
}
