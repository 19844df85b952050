package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (l) Removal against quit: which of a removal descriptor and the quit sentinel owns a message, and what
 * removals after the quit may take. The Looper (main) runs {@code next()} until it returns null (it tears down).
 *
 * <ul>
 *   <li>Mode {@code quit} (the default): {@code x1} and {@code x2}, both due; a remover calls
 *       {@code removeMessages(h, 1)}, which matches both, while a quitter calls {@code quit()}, which drops both.
 *       The schedule that matters: the Looper reserves one of them, the descriptor is pushed, then the sentinel, both
 *       covering it; the reservation must go to the descriptor, the earlier owner. The legacy queue's outcomes:
 *       the removal before the quit takes whatever was not yet delivered (together with the deliveries, both
 *       messages), the removal after it takes nothing. A removal that took one message while the other went to the
 *       quit has no sequential order (Refinement, RemovalReturnsItsSet).
 *   <li>Mode {@code safely}: a sync barrier holds back {@code k1} and {@code k2}, due at the quit's time, and
 *       {@code d}, due later; one thread calls {@code quitSafely()}, which keeps {@code k1} and {@code k2} and drops
 *       {@code d}, then {@code removeMessages(h, 1)}, which matches {@code k1} and {@code d}, then
 *       {@code removeMessages(h, 2)}, which matches {@code k2}, then posts {@code p}. The Looper may sweep the
 *       sentinel before, between or after those removals. Checked: the first removal takes {@code k1} alone
 *       ({@code d} left with the quit, even though the Looper may not have swept it yet), the second {@code k2}
 *       (Refinement); the post after two descriptors stacked on the sentinel is refused (NoPushAfterQuit); nothing is
 *       delivered past the barrier (DeliveryOrder), and {@code next()} returns null with kept messages behind it, as
 *       the legacy queue's does.
 * </ul>
 *
 * <p>Arguments: queue, mode. Negative controls: quit: {@code RESOLVE_TAKES_LATEST_OWNER} (the reservation goes to
 * the sentinel, pushed after the descriptor: RemovalReturnsItsSet), {@code BULK_REMOVAL_PER_MESSAGE} (a removal that
 * tombstones message by message takes a message the Looper has reserved, which is delivered as well: ExactlyOnce);
 * both are named even when the Looper crashes first, unlinking a message freed twice. Safely:
 * {@code QUIT_OWNS_NOTHING} (the removal takes {@code d} when it walks before the Looper sweeps the sentinel),
 * {@code DESCRIPTOR_FORGETS_QUIT} (a descriptor above the sentinel does not read as quitting, and the post is
 * accepted).
 */
// obligation: Refinement
// obligation: RemovalReturnsItsSet
// obligation: NoPushAfterQuit
// obligation: QuitTerminates
// obligation: ExactlyOnce
// negative control: RESOLVE_TAKES_LATEST_OWNER, BULK_REMOVAL_PER_MESSAGE, QUIT_OWNS_NOTHING, DESCRIPTOR_FORGETS_QUIT
public final class RemovalVsQuit {
    private RemovalVsQuit() {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean safely = args.length > 1 && args[1].equals("safely");
        if (args.length > 1 && !safely && !args[1].equals("quit")) {
            throw new IllegalArgumentException("mode must be quit or safely: " + args[1]);
        }
        JpfSteps.warmUpQueueLog(Harness.plainJvm);
        ManualClock clock = new ManualClock(10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        if (safely) {
            removeAfterQuitSafely(q, h);
        } else {
            removeRacingQuit(q, h);
        }
        // obligation: QuitTerminates
        check(JpfSteps.isTornDown(q), "QuitTerminates", "next() returned null but the wake resource is not freed");
    }

    private static void removeRacingQuit(DeliQueue q, Handler h) throws InterruptedException {
        Message x1 = JpfSteps.message(h, 1, 1);
        Message x2 = JpfSteps.message(h, 1, 2);
        check(q.enqueueMessage(x1, 2), "NoLostMessage", "enqueue refused before the quit");
        check(q.enqueueMessage(x2, 1), "NoLostMessage", "enqueue refused before the quit");
        int[] removed = new int[1];
        Thread remover = Harness.start("remover", () -> removed[0] = q.removeMessages(h, 1, null));
        Thread quitter = Harness.start("quitter", () -> q.quit(false));
        int delivered = 0;
        boolean[] seen = new boolean[2];
        try {
            for (Message got; (got = q.next()) != null; delivered++) {
                int i = got == x1 ? 0 : got == x2 ? 1 : -1;
                check(i >= 0 && !seen[i], "ExactlyOnce", i < 0 ? "delivered a message nobody sent" : got + " twice");
                seen[i] = true;
            }
        } catch (NullPointerException crash) {
            // The Looper followed a missing back-link: it unlinked a node twice, as it does a message that two of
            // the Looper, the removal and the quit each took. The actors do not wait for the Looper, so they end:
            // name the obligation that what was taken so far breaks, if any.
            Harness.join("QuitTerminates", remover, quitter);
            checkEachTakenOnce(removed[0], delivered, x1, x2);
            throw crash;
        }
        Harness.join("QuitTerminates", remover, quitter);
        checkEachTakenOnce(removed[0], delivered, x1, x2);
        // obligation: Refinement, RemovalReturnsItsSet
        check(removed[0] == 0 || removed[0] + delivered == 2, "RemovalReturnsItsSet", "the removal took "
                + removed[0] + " message(s), so it preceded the quit, but of the other " + (2 - removed[0])
                + " only " + delivered + " was delivered: one it covered went to the quit");
    }

    /**
     * What holds at any point of the run, the Looper's crash included: a message is delivered or counted by the
     * removal, not both; and a removal that took something linearized before the quit, so no message it covers
     * ({@code x1} and {@code x2}) was tombstoned for the quit.
     */
    private static void checkEachTakenOnce(int removed, int delivered, Message x1, Message x2) {
        // obligation: ExactlyOnce
        check(removed + delivered <= 2, "ExactlyOnce", "of two messages " + delivered + " delivered and " + removed
                + " counted by the removal");
        // obligation: RemovalReturnsItsSet
        for (Message x : new Message[] {x1, x2}) {
            check(removed == 0 || !JpfSteps.removedByQuit(x), "RemovalReturnsItsSet", "the removal took " + removed
                    + " message(s), so it preceded the quit, yet " + x + ", which it covers, was tombstoned for the"
                    + " quit");
        }
    }

    private static void removeAfterQuitSafely(DeliQueue q, Handler h) throws InterruptedException {
        check(q.postSyncBarrier() > 0, "NoLostMessage", "barrier refused before the quit");
        // At the quit's uptime (10), behind the barrier posted at 10: kept by quitSafely, never delivered.
        Message k1 = JpfSteps.message(h, 1, 1);
        Message k2 = JpfSteps.message(h, 2, 2);
        Message d = JpfSteps.message(h, 1, 3); // due after the quit's uptime: dropped by quitSafely
        Message p = JpfSteps.message(h, 2, 4);
        check(q.enqueueMessage(k1, 10), "NoLostMessage", "enqueue refused before the quit");
        check(q.enqueueMessage(d, 11), "NoLostMessage", "enqueue refused before the quit");
        check(q.enqueueMessage(k2, 10), "NoLostMessage", "enqueue refused before the quit");
        int[] removed = new int[2];
        boolean[] accepted = new boolean[1];
        Thread quitter = Harness.start("quitter", () -> {
            q.quit(true);
            removed[0] = q.removeMessages(h, 1, null);
            removed[1] = q.removeMessages(h, 2, null);
            accepted[0] = q.enqueueMessage(p, 10);
        });
        Message got = q.next();
        // obligation: DeliveryOrder
        check(got == null, "DeliveryOrder", "delivered " + got + " past the barrier");
        Harness.join("QuitTerminates", quitter);
        // obligation: Refinement, RemovalReturnsItsSet
        check(removed[0] == 1, "Refinement", "the removal after quitSafely matching k1 (kept) and d (dropped) took "
                + removed[0] + " message(s); d left with the quit, so exactly k1");
        check(removed[1] == 1, "Refinement", "the second removal after quitSafely took " + removed[1]
                + " message(s); k2, kept, exactly");
        check(JpfSteps.isRemoved(k1) && JpfSteps.isRemoved(k2), "RemovalReturnsItsSet", "a kept message the"
                + " removals counted is still queued");
        // obligation: NoPushAfterQuit
        check(!accepted[0], "NoPushAfterQuit", "a post after two removals stacked descriptors on the quit sentinel"
                + " was accepted");
    }
}
