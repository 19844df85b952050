package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (d) quit racing a push and a waker's refcount: steps 8 (quit sentinel), 1 (push), 5 (tagged refcount around the
 * wake resource) and 6 (sleep). Two threads by default:
 * <ul>
 *   <li>the Looper (main) posts one due message to its own queue (its push races the quit sentinel's push), then
 *       calls {@code next()} until it returns null, tearing down (set TEARDOWN, wait for wakers holding a
 *       reference, free the wake resource);
 *   <li>a quitter calls {@code quit(false)}: it pushes the sentinel and, if it sees the Looper asleep, wakes it
 *       under a counted reference, racing the teardown.
 * </ul>
 * With the argument {@code producer}, a third thread makes the push (and wakes the Looper if it sees it asleep):
 * a second waker racing the teardown. That state space is about ten times larger (over a million states), so
 * {@code make jpf} runs the two-thread form. With {@code interrupt}, the quitter interrupts the Looper before it
 * quits: the interrupt may end the Looper's sleep, or be pending when its teardown starts, and must not end teardown's
 * wait (JPF's schedules put it before the quit, so never inside the wait: ScriptedInterleavingTest does that); and
 * {@code next()} sets the interrupt status again as it returns null (InterruptsIgnored).
 *
 * <p>Checks: no waker signals a freed resource and the Looper never frees it while a waker is signalling
 * ({@code WakeResource} detects both: NoUseAfterTeardown); {@code next()} returns null and the resource is freed
 * (QuitTerminates; a Looper parked for ever is JPF's deadlock); the sentinel is on top at the end, and an accepted
 * message lies below it (NoPushAfterQuit); an accepted message is delivered at most once, a refused one never.
 *
 * <p>Arguments: queue, optionally {@code producer}. Negative controls: {@code TEARDOWN_WITHOUT_WAIT} (frees while a
 * waker holds a reference), {@code TEARDOWN_TAG_READ_THEN_WRITE} (teardown tags the count by a read and a store: a
 * reference taken between them is wiped out, the free comes under its waker; one dropped between them comes back,
 * and teardown waits for ever, JPF's deadlock) and {@code QUIT_WITHOUT_WAKE} (the sentinel is pushed without a
 * wake: a Looper asleep before it never returns, JPF's deadlock); with {@code interrupt},
 * {@code TEARDOWN_WAIT_ENDS_ON_INTERRUPT} (the interrupt ends teardown's wait: the free comes under the quitter's
 * reference).
 */
// obligation: NoUseAfterTeardown
// obligation: QuitTerminates
// obligation: NoPushAfterQuit
// negative control: TEARDOWN_WITHOUT_WAIT, TEARDOWN_TAG_READ_THEN_WRITE, QUIT_WITHOUT_WAKE, TEARDOWN_WAIT_ENDS_ON_INTERRUPT
public final class QuitVsWaker {
    private QuitVsWaker() {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean separateProducer = args.length > 1 && "producer".equals(args[1]);
        boolean interrupt = args.length > 1 && "interrupt".equals(args[1]);
        JpfSteps.warmUpQueueLog(Harness.plainJvm);
        ManualClock clock = new ManualClock(10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message m = JpfSteps.message(h, 1, 0);
        boolean[] accepted = new boolean[1];
        Thread looper = Thread.currentThread();

        Thread quitter = Harness.start("quitter", () -> noUseAfterFree(() -> {
            if (interrupt) {
                looper.interrupt();
            }
            q.quit(false);
            return true;
        }));
        Thread producer = null;
        if (separateProducer) {
            producer = Harness.start("producer", () -> accepted[0] = noUseAfterFree(() -> q.enqueueMessage(m, 1)));
        } else {
            accepted[0] = q.enqueueMessage(m, 1);
        }

        int delivered = 0;
        for (;;) {
            Message got = noUseAfterFreeLooper(q);
            if (got == null) {
                break;
            }
            if (got != m || delivered != 0) {
                throw Harness.fail("ExactlyOnce", got == m ? "m delivered twice" : "delivered a message nobody sent");
            }
            delivered++;
        }
        // The interrupt preceded the quit, which preceded next()'s null; this also clears it before the join.
        check(!interrupt || Thread.interrupted(), "InterruptsIgnored", "the Looper's interrupt status was swallowed");
        if (producer != null) {
            Harness.join("QuitTerminates", quitter, producer);
        } else {
            Harness.join("QuitTerminates", quitter);
        }
        // obligation: QuitTerminates
        check(JpfSteps.isTornDown(q), "QuitTerminates", "next() returned null but the wake resource is not freed");
        // obligation: NoPushAfterQuit
        Message top = JpfSteps.top(q);
        check(top != null && JpfSteps.isQuitSentinel(top), "NoPushAfterQuit", "the quit sentinel is not on top");
        check(!accepted[0] || JpfSteps.ticket(m) < JpfSteps.ticket(top), "NoPushAfterQuit",
                "an accepted message lies above the quit sentinel");
        check(accepted[0] || delivered == 0, "ExactlyOnce", "a refused message was delivered");
    }

    private interface Step {
        boolean run();
    }

    /** Runs a waker's step; WakeResource's use-after-free detection becomes the obligation's failure. */
    private static boolean noUseAfterFree(Step step) {
        try {
            return step.run();
        } catch (IllegalStateException e) {
            // obligation: NoUseAfterTeardown
            throw new AssertionError("NoUseAfterTeardown violated: " + e.getMessage(), e);
        }
    }

    private static Message noUseAfterFreeLooper(DeliQueue q) {
        try {
            return q.next();
        } catch (IllegalStateException e) {
            // Free() found a signal in progress.
            // obligation: NoUseAfterTeardown
            throw new AssertionError("NoUseAfterTeardown violated: " + e.getMessage(), e);
        }
    }
}
