package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.Message;

/**
 * (m) quitSafely beside a removal while the clock moves: the due time of what the quit kept (step 7 against step
 * 8). The Looper (main) posts {@code m1}, due now, and {@code m2}, due 1 ms later, then calls {@code next()} until it
 * returns null. One actor ticks the {@link TickingClock}, removes {@code m1} ({@code removeMessages}) and calls
 * {@code quitSafely()}, in that order, so the quit's time covers {@code m2}: quitSafely must deliver it. The race
 * that matters: the Looper reads the clock before the tick and sweeps; the removal takes {@code m1} before the
 * Looper's claim, which fails, and the Looper goes round again with its old reading; that sweep meets the
 * sentinel. What the quit kept is due by the quit's time, later than the reading (DeliQueue.dueBy), or the Looper
 * tears down over {@code m2}. One actor besides the Looper keeps the space small; TLC's twin is the long model
 * MCQuitSafelyClock.
 *
 * <p>Checks: {@code m2} runs exactly once before {@code next()} returns null (Refinement: quitSafely keeps what is
 * due by its time); {@code m1} is delivered or removed, not both, not neither (ExactlyOnce); {@code next()} returns
 * null (QuitTerminates). Arguments: queue. Negative control: {@code DUE_BY_FORGETS_QUIT}.
 */
// obligation: Refinement
// obligation: ExactlyOnce
// obligation: QuitTerminates
// negative control: DUE_BY_FORGETS_QUIT
public final class QuitSafelyBesideRemoval {
    private QuitSafelyBesideRemoval() {
    }

    public static void main(String[] args) throws InterruptedException {
        JpfSteps.warmUpQueueLog(Harness.plainJvm);
        TickingClock clock = new TickingClock(10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message m1 = JpfSteps.message(h, 1, 0);
        Message m2 = JpfSteps.message(h, 2, 0);
        check(q.enqueueMessage(m1, 10) && q.enqueueMessage(m2, 11), "NoLostMessage", "setup: a post was refused");

        int[] removed = new int[1];
        Thread actor = Harness.start("tick-remove-quitSafely", () -> {
            clock.tick();
            removed[0] = q.removeMessages(h, 1, null);
            q.quit(true);
        });
        int delivered1 = 0;
        int delivered2 = 0;
        for (Message got; (got = q.next()) != null; ) {
            if (got == m1) {
                delivered1++;
            } else if (got == m2) {
                delivered2++;
            } else {
                throw Harness.fail("ExactlyOnce", "delivered a message nobody sent");
            }
        }
        // obligation: QuitTerminates
        Harness.join("QuitTerminates", actor);
        // obligation: ExactlyOnce
        check(delivered1 + removed[0] == 1, "ExactlyOnce", "m1 delivered " + delivered1 + " time(s) and removed "
                + removed[0] + " time(s)");
        // obligation: Refinement
        check(delivered2 == 1, "Refinement", "m2 (when 11), kept by a quitSafely at uptime 11, was delivered "
                + delivered2 + " time(s)");
    }
}
