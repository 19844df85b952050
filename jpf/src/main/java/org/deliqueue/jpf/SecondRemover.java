package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (k) A second remover: two removals off the Looper cover the same message while the Looper tries to deliver it
 * (ownership). Ownership decides: every thread that tombstones the message, or resolves the Looper's reservation of
 * it, must give it to the earliest covering descriptor, the one whose remover counts it. The Looper (main) makes one
 * delivery attempt ({@code poll}: sweep, reserve, resolve) while both removers run, joins them, and polls once more,
 * so each run ends with every message decided without a polling loop (whose idle rounds JPF cannot fold: see
 * (b)).
 *
 * <ul>
 *   <li>Mode {@code message} (the default): {@code m} is due; one remover calls {@code removeMessages(h, 1)}, the
 *       other {@code removeCallbacksAndMessages(h, null)}. The schedule that matters: the Looper reserves {@code m},
 *       the second remover selects {@code m}, the first pushes its descriptor, the second's push fails, walks the
 *       new segment and lands above it, still covering {@code m}; then the reservation is resolved. Checked:
 *       {@code m} is delivered or counted by exactly one removal (ExactlyOnce; given to the later descriptor, whose
 *       remover skips what an earlier one owns, it is counted by nobody: RemovalReturnsItsSet).
 *   <li>Mode {@code barrier}: both threads call {@code removeSyncBarrier} with the same token while the Looper polls
 *       once, sweeping and unlinking under their walks. Checked: exactly one removal returns and the other throws,
 *       as the legacy queue's lock decides (Refinement); {@code m}, a sync message posted after the join at the
 *       barrier's uptime, is delivered once, so no barrier is left. (A message queued behind the barrier during
 *       the race made the space too large for JPF to finish: 7 million states in 25 minutes; the Looper asleep
 *       behind a barrier that a remover takes is SleepBehindBarrier's mode {@code remove}.)
 * </ul>
 *
 * <p>Arguments: queue, mode. Negative controls: {@code RESOLVE_TAKES_LATEST_OWNER} (message: the reservation goes
 * to the newest covering descriptor, whose remover skips it as the earlier one's), {@code BARRIER_REMOVED_TWICE}
 * (barrier: {@code removeSyncBarrier} returns without checking that its removal took the barrier).
 */
// obligation: ExactlyOnce
// obligation: RemovalReturnsItsSet
// obligation: Refinement
// obligation: HeapStackConsistent
// negative control: RESOLVE_TAKES_LATEST_OWNER, BARRIER_REMOVED_TWICE
public final class SecondRemover {
    private SecondRemover() {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean barrier = args.length > 1 && args[1].equals("barrier");
        if (args.length > 1 && !barrier && !args[1].equals("message")) {
            throw new IllegalArgumentException("mode must be message or barrier: " + args[1]);
        }
        ManualClock clock = new ManualClock(10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message m = JpfSteps.message(h, 1, 0);
        if (barrier) {
            removeTheSameBarrierTwice(q, m);
        } else {
            removeTheSameMessageTwice(q, h, m);
        }
        // obligation: HeapStackConsistent, BackLinksConsistent, TraversalSafe
        JpfSteps.checkInvariants(q);
    }

    private static void removeTheSameMessageTwice(DeliQueue q, Handler h, Message m) throws InterruptedException {
        check(q.enqueueMessage(m, 1), "NoLostMessage", "enqueue refused though the queue never quit");
        int[] removed = new int[2];
        Thread first = Harness.start("remover-0", () -> removed[0] = q.removeMessages(h, 1, null));
        Thread second = Harness.start("remover-1", () -> removed[1] = q.removeCallbacksAndMessages(h, null));
        int delivered = q.poll() == m ? 1 : 0;
        Harness.join("ExactlyOnce", first, second);
        delivered += q.poll() == m ? 1 : 0;
        check(q.poll() == null, "ExactlyOnce", "a message came out after m was decided");
        // obligation: ExactlyOnce, RemovalReturnsItsSet
        int outcome = delivered + removed[0] + removed[1];
        if (outcome == 0) {
            throw Harness.fail("RemovalReturnsItsSet", "m left the queue, delivered by nobody and counted by neither"
                    + " removal");
        }
        if (outcome != 1) {
            throw Harness.fail("ExactlyOnce", "m delivered " + delivered + " time(s) and counted by " + removed[0]
                    + " + " + removed[1] + " removals");
        }
    }

    private static void removeTheSameBarrierTwice(DeliQueue q, Message m) throws InterruptedException {
        int token = q.postSyncBarrier();
        boolean[] returned = new boolean[2];
        Thread first = Harness.start("remover-0", () -> returned[0] = removeSyncBarrier(q, token));
        Thread second = Harness.start("remover-1", () -> returned[1] = removeSyncBarrier(q, token));
        check(q.poll() == null, "ExactlyOnce", "delivered a message nobody sent: only a barrier was posted");
        Harness.join("Refinement", first, second);
        // obligation: Refinement
        check(returned[0] != returned[1], "Refinement", "two removals of barrier " + token + " at once: "
                + (returned[0] ? "both returned" : "both threw") + "; exactly one must find it queued");
        // Posted after the barrier's uptime-10 post at the same uptime: a barrier still queued would hold it back.
        check(q.enqueueMessage(m, 10), "NoLostMessage", "enqueue refused though the queue never quit");
        // obligation: ExactlyOnce, NoLostMessage
        check(q.poll() == m, "ExactlyOnce", "m, posted after the barrier's removal, not delivered");
        check(q.poll() == null, "ExactlyOnce", "a message came out after m");
    }

    /** True if the removal found the barrier queued, false if it threw: not posted, or already removed. */
    private static boolean removeSyncBarrier(DeliQueue q, int token) {
        try {
            q.removeSyncBarrier(token);
            return true;
        } catch (IllegalStateException alreadyRemoved) {
            return false;
        }
    }
}
