package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.Clock;
import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.Message;

/**
 * (i) An interrupt as a harness step: another thread interrupts the Looper while it sleeps with nothing to
 * deliver (step 6), then posts one due message. The defined behaviour (docs/design.md, "Interrupts"): the queue
 * ignores an interrupt, as Android's epoll does, so the Looper sleeps on instead of spinning; nothing is lost; and
 * the interrupt status is not swallowed: {@code next()} sets it again as it returns.
 *
 * <p>A spinning Looper goes round its loop again and again, reading the clock each round; the clock here counts
 * the Looper's reads ({@link LooperReadCounter}) and fails the check at the read past {@link #maxRounds}, inside
 * the spin (without the count, JPF would match the spin's states and see nothing; with a count checked only after
 * {@code next()} returns, the schedule where the interrupter never runs again would grow without end). A Looper that
 * sleeps on reads the clock a bounded number of times: before its first sleep, after a wake by the interrupt,
 * after the post's wake.
 *
 * <p>Arguments: queue. Negative control: {@code PARK_KEEPS_INTERRUPT} (parks with the interrupt status set, so
 * {@code LockSupport.park} returns at once).
 */
// negative control: PARK_KEEPS_INTERRUPT
public final class InterruptedLooper {
    /**
     * Clock reads by the Looper during one next() that no correct schedule exceeds under JPF (4). The plain JVM
     * allows more, for the spurious returns {@code LockSupport.park} may make there; a spinning Looper makes
     * thousands of rounds during the interrupter's pause.
     */
    static int maxRounds() {
        return Harness.plainJvm ? 100 : 4;
    }

    private InterruptedLooper() {
    }

    public static void main(String[] args) throws InterruptedException {
        LooperReadCounter clock = new LooperReadCounter(Thread.currentThread());
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Message m = JpfSteps.message(new Handler(Looper.myLooper()), 1, 0);
        Thread looper = Thread.currentThread();

        Thread waker = Harness.start("interrupter", () -> {
            looper.interrupt();
            if (Harness.plainJvm) {
                Harness.pause(5); // let a Looper that spins on the interrupt show it
            }
            check(q.enqueueMessage(m, 10), "NoLostMessage", "enqueue refused though the queue never quit");
        });
        Message got = q.next(); // the clock fails the check inside a spin
        check(got == m, "NoLostMessage", "next() returned " + got + ", not the posted message");
        // The interrupt preceded the post, which preceded the delivery; this also clears it before the join.
        check(Thread.interrupted(), "InterruptsIgnored", "the Looper's interrupt status was swallowed");
        Harness.join("NoLostWakeup", waker);
    }

    /**
     * A clock at uptime 10 that counts the reads made by the Looper's thread (only that thread writes the count) and
     * fails InterruptsIgnored at the read past {@link #maxRounds}.
     */
    static final class LooperReadCounter implements Clock {
        private final Thread looper;
        private int reads;

        LooperReadCounter(Thread looper) {
            this.looper = looper;
        }

        @Override
        public long uptimeMillis() {
            if (Thread.currentThread() == looper && ++reads > maxRounds()) {
                throw Harness.fail("InterruptsIgnored", "the Looper went round " + reads + " times while nothing"
                        + " was due: it spins on the interrupt");
            }
            return 10;
        }
    }
}
