package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.Message;

/**
 * (h) Time as a choice: {@code quitSafely} racing a post and a clock that moves inside both (step 8, the quit's
 * time, against step 1). A clock thread moves the uptime on by 1 ms once, at a point JPF chooses: every read of the
 * {@link TickingClock} is a scheduling point, so the tick falls between any two steps of the other threads. Three
 * actors:
 * <ul>
 *   <li>the Looper (main) posts {@code m} to its own queue without delay ({@code when} = its reading of the clock,
 *       as {@code Handler.post} does; at uptime 0 that is a front-of-queue post), then calls {@code next()} until
 *       it returns null;
 *   <li>a quitter calls {@code quitSafely()};
 *   <li>the clock thread ticks.
 * </ul>
 * Checks (Refinement, against the legacy queue as the abstract queue): an accepted post without delay runs before
 * {@code next()} returns null, whichever reading of the clock the quit takes (docs/design.md, edge case 5: the
 * quit's time is read after every push below its sentinel); it runs at most once, and not before its {@code when}
 * (the clock, read after delivery, has reached it); a refused one never runs; {@code next()} returns null
 * (QuitTerminates; a Looper parked for ever is JPF's deadlock). The post is made by the Looper itself, as in (d):
 * a fourth thread makes the space too large to finish (over 1.2 million states in 5 minutes).
 *
 * <p>Arguments: queue, start uptime (0 or 10; default 10). Negative control: {@code QUIT_TIME_BEFORE_TOP} (the
 * quit reads the clock before {@code top}: a post that reads the later clock and pushes first is dropped).
 */
// obligation: Refinement
// obligation: QuitTerminates
// obligation: ExactlyOnce
// negative control: QUIT_TIME_BEFORE_TOP
public final class QuitSafelyVsTick {
    private QuitSafelyVsTick() {
    }

    public static void main(String[] args) throws InterruptedException {
        long start = args.length > 1 ? Long.parseLong(args[1]) : 10;
        JpfSteps.warmUpQueueLog(Harness.plainJvm);
        TickingClock clock = new TickingClock(start);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Message m = JpfSteps.message(new Handler(Looper.myLooper()), 1, 0);

        Thread quitter = Harness.start("quitter", () -> q.quit(true));
        Thread ticker = Harness.start("clock", clock::tick);
        long when = clock.uptimeMillis();
        boolean accepted = q.enqueueMessage(m, when);

        int delivered = 0;
        for (Message got; (got = q.next()) != null; delivered++) {
            long now = clock.uptimeMillis();
            check(got == m && delivered == 0, "ExactlyOnce", got == m ? "m delivered twice" : "delivered a message"
                    + " nobody sent");
            // obligation: Refinement
            check(now >= when, "Refinement", "m (when " + when + ") delivered at uptime " + now);
        }
        // obligation: QuitTerminates
        Harness.join("QuitTerminates", quitter, ticker);
        check(accepted || delivered == 0, "ExactlyOnce", "a refused message was delivered");
        // obligation: Refinement
        check(!accepted || delivered == 1, "Refinement", "quitSafely dropped an accepted post without delay (when "
                + when + ", uptime " + clock.uptimeMillis() + " at the end)");
    }
}
