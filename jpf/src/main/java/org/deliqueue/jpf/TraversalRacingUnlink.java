package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (c) The racy traversal (step 4) against the Looper's drain and unlink (step 3) and a push (step 1). Set up
 * before any thread starts, bottom to top: {@code live} (never due), {@code x} (what 1, due once the clock reaches
 * 10), {@code N} messages another remover has already tombstoned (on the freelist, still linked), {@code z} (never
 * due); the Looper has swept them. Then, concurrently:
 * <ul>
 *   <li>a traverser walks the stack once through {@code hasMessages}' traversal, visiting every message it offers;
 *   <li>the Looper (main) enqueues {@code y} (what 1, due) and polls once: the poll drains the freelist (unlinking
 *       the {@code N} tombstones under the traverser's feet) and delivers {@code x}.
 * </ul>
 * Checks: the walk visits only pushed messages and none twice, so it ends (TraversalSafe); it visits {@code live}
 * and {@code z}, live for its whole duration (TraversalComplete); and it finds a live what-1 message, since
 * {@code x} is pending until after {@code y} is pushed (Refinement: {@code hasMessages} is linearizable).
 *
 * <p>Arguments: queue, {@code N} (default 2). Negative controls: {@code UNLINK_CLEARS_NEXT} (a cursor on an
 * unlinked tombstone stops: TraversalComplete), {@code SINGLE_PASS_TRAVERSAL} (no second pass over {@code y}:
 * Refinement).
 */
// obligation: TraversalSafe
// obligation: TraversalComplete
// obligation: Refinement
// obligation: DeliveryOrder
// obligation: GoneNodesUnlinkedAtRest
// negative control: UNLINK_CLEARS_NEXT, SINGLE_PASS_TRAVERSAL, DRAIN_KEEPS_DESCRIPTORS
public final class TraversalRacingUnlink {
    static final int LIVE = 1;
    static final int ONE = 2;
    static final int TOMBSTONED = 3;
    static final int TOP = 4;

    private TraversalRacingUnlink() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = Harness.size(args, 1, 2);
        ManualClock clock = new ManualClock(0);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message live = JpfSteps.message(h, LIVE, 0);
        Message x = JpfSteps.message(h, ONE, 0);
        Message z = JpfSteps.message(h, TOP, 0);
        Message y = JpfSteps.message(h, ONE, 1);
        Message[] pushed = new Message[n + 4];
        pushed[0] = live;
        pushed[1] = x;
        pushed[2] = z;
        pushed[3] = y;
        q.enqueueMessage(live, 1_000);
        q.enqueueMessage(x, 5);
        for (int i = 0; i < n; i++) {
            pushed[4 + i] = JpfSteps.message(h, TOMBSTONED, i);
            q.enqueueMessage(pushed[4 + i], 1_000);
        }
        q.enqueueMessage(z, 1_000);
        check(q.poll() == null, "DeliveryOrder", "setup: nothing is due at time 0"); // the Looper sweeps
        check(q.removeMessages(h, TOMBSTONED, null) == n, "ExactlyOnce", "setup: tombstoning failed");
        clock.set(10);

        boolean[] result = new boolean[3]; // visited live, visited z, found a live what-1 message
        Thread traverser = Harness.start("traverser", () -> {
            boolean[] seen = new boolean[pushed.length];
            JpfSteps.traverse(q, m -> {
                int i = ProducersLooper.indexIn(pushed, m);
                // Only pushed messages, each at most once: the walk ends.
                // obligation: TraversalSafe
                if (i < 0) {
                    throw Harness.fail("TraversalSafe", "the walk reached a message never pushed");
                }
                if (seen[i]) { // (a message's toString races with its retirement: never call it here)
                    throw Harness.fail("TraversalSafe", "the walk visited pushed message #" + i + " twice");
                }
                seen[i] = true;
                if (m.what == ONE && !JpfSteps.isRemoved(m)) {
                    result[2] = true;
                }
                return false; // walk everything
            });
            result[0] = seen[0];
            result[1] = seen[2];
        });

        check(q.enqueueMessage(y, 5), "NoLostMessage", "enqueue refused though the queue never quit");
        Message got = q.poll();
        // X and y are due with the same when; x was pushed first.
        // obligation: DeliveryOrder
        if (got != x) {
            throw Harness.fail("DeliveryOrder", "the Looper's poll returned pushed message #"
                    + ProducersLooper.indexIn(pushed, got) + " instead of x");
        }
        Harness.join("TraversalSafe", traverser);

        // obligation: TraversalComplete
        check(result[0], "TraversalComplete", "the walk missed the bottom message, live throughout");
        check(result[1], "TraversalComplete", "the walk missed the top message, live throughout");
        // A what-1 message was pending at every instant of the call.
        // obligation: Refinement
        check(result[2], "Refinement", "hasMessages(what 1) would answer false though x or y was always pending");
        // The poll drained and unlinked every tombstone, and unlinked x.
        // obligation: GoneNodesUnlinkedAtRest
        check(JpfSteps.linkedTombstones(q) == 0, "GoneNodesUnlinkedAtRest", "tombstones left linked after the drain");
        JpfSteps.checkInvariants(q);
    }
}
