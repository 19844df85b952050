package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (g) Atomic bulk removal from a thread other than the Looper: the removal's descriptor push, its walk
 * ({@code collect}, {@code takeFor}) and the Looper's reserved delivery ({@code claimForDelivery}, then
 * {@code resolve}). Two messages are posted before the threads start, {@code x1} and then {@code x2}, both due,
 * {@code x2} earlier, so the Looper delivers {@code x2} first; a remover calls {@code removeMessages(h, 1)}, which
 * matches both, while the Looper (main) polls until both have left. The removal is one atomic step, so the only
 * outcomes are: both removed; {@code x2} delivered and {@code x1} removed; both delivered. {@code x2} removed while
 * {@code x1} is delivered is no sequential order: the removal took effect before {@code x2}'s delivery, when
 * {@code x1} was in the queue too.
 *
 *
 * <p>Mode {@code throw} (user code that throws): the removal is {@code removeEqualMessages} with a key whose
 * {@code equals} matches {@code x2} and a third message {@code x3}, never due, and throws on {@code x1}. The throw
 * counts as "no match" for {@code x1}; the removal still takes {@code x3}, and {@code x2} if it is in the queue,
 * releases them and hands them to the Looper, which unlinks them ({@code x1}, matched by nobody, is delivered), and
 * then rethrows.
 *
 * <p>Arguments: queue, mode ({@code atomic}, the default, or {@code throw}). Negative controls:
 * {@code BULK_REMOVAL_PER_MESSAGE} (atomic: one REMOVED CAS per message, no descriptor: it takes {@code x2}, then the
 * Looper delivers {@code x1} before the remover reaches it), {@code REMOVAL_KEEPS_PAYLOAD} (throw: {@code x2},
 * removed, keeps its payload).
 */
// obligation: AtomicRemoval
// obligation: ExactlyOnce
// obligation: PayloadReleased
// obligation: HeapStackConsistent
// obligation: GoneNodesUnlinkedAtRest
// negative control: BULK_REMOVAL_PER_MESSAGE
// negative control: REMOVAL_KEEPS_PAYLOAD
public final class BulkRemovalVsDelivery {
    private BulkRemovalVsDelivery() {
    }

    /** A key of {@code removeEqualMessages} whose equals matches {@code x2}'s payload and throws on {@code x1}'s. */
    private static final class ThrowingKey {
        @Override
        public boolean equals(Object payload) {
            if ("x1".equals(payload)) {
                throw new IllegalStateException("user equals throws");
            }
            return "x2".equals(payload) || "x3".equals(payload);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        boolean throwing = args.length > 1 && args[1].equals("throw");
        if (args.length > 1 && !throwing && !args[1].equals("atomic")) {
            throw new IllegalArgumentException("mode must be atomic or throw: " + args[1]);
        }
        ManualClock clock = new ManualClock(10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message x1 = JpfSteps.message(h, 1, 1);
        Message x2 = JpfSteps.message(h, 1, 2);
        x1.obj = "x1";
        x2.obj = "x2";
        Message x3 = throwing ? JpfSteps.message(h, 1, 3) : null;
        if (throwing) {
            x3.obj = "x3";
            check(q.enqueueMessage(x3, 100), "NoLostMessage", "enqueue refused");
        }
        check(q.enqueueMessage(x1, 2), "NoLostMessage", "enqueue refused");
        check(q.enqueueMessage(x2, 1), "NoLostMessage", "enqueue refused");
        int[] removed = new int[1];
        Thread remover = Harness.start("remover", () -> {
            if (!throwing) {
                removed[0] = q.removeMessages(h, 1, null);
                return;
            }
            try {
                q.removeEqualMessages(h, 1, new ThrowingKey());
            } catch (IllegalStateException fromEquals) {
                // rethrown once the removal is complete; not thrown when x1 left before the walk reached it
            }
        });

        boolean delivered1 = false;
        boolean delivered2 = false;
        while (!JpfSteps.isRemoved(x1) || !JpfSteps.isRemoved(x2)) {
            Message m = q.poll();
            if (m == null) {
                Thread.yield(); // idle: a scheduling point for JPF, which never preempts a loop without one
            } else if (m == x1 && !delivered1) {
                delivered1 = true;
            } else if (m == x2 && !delivered2) {
                check(!delivered1, "DeliveryOrder", "x1 delivered before x2, which is due earlier");
                delivered2 = true;
            } else {
                throw Harness.fail("ExactlyOnce", "delivered " + m + " twice, or a message nobody sent");
            }
        }
        Harness.join("ExactlyOnce", remover);
        if (throwing) {
            check(delivered1, "NoLostMessage", "x1, which no removal matched, was not delivered");
            // What the removal took: released when it returned (before the Looper's drain would clear it anyway),
            // then unlinked by that drain.
            // obligation: PayloadReleased
            check(delivered2 || x2.obj == null, "PayloadReleased", "x2, removed, still holds its payload");
            check(JpfSteps.isRemoved(x3) && x3.obj == null, "PayloadReleased", "x3, removed, still holds its payload");
            check(q.poll() == null, "ExactlyOnce", "a message came out after both had left");
            // The removal's descriptor may stay as top (the Looper never moves top: deferred unlink); nothing else.
            // obligation: GoneNodesUnlinkedAtRest
            int leftover = JpfSteps.linkedTombstones(q) - (JpfSteps.isRemoved(JpfSteps.top(q)) ? 1 : 0);
            check(leftover == 0, "GoneNodesUnlinkedAtRest", leftover + " removed node(s) still linked below top after "
                    + "the Looper drained");
            JpfSteps.checkInvariants(q);
            return;
        }
        // obligation: AtomicRemoval
        check(!(delivered1 && !delivered2), "AtomicRemoval", "the removal took x2 and the Looper then delivered x1,"
                + " which was in the queue when the removal took effect");
        // obligation: ExactlyOnce
        int outcome = (delivered1 ? 1 : 0) + (delivered2 ? 1 : 0) + removed[0];
        check(outcome == 2, "ExactlyOnce", "delivered and removed add up to " + outcome + " of 2 messages");
        check(q.poll() == null, "ExactlyOnce", "a message came out after both had left");
        // obligation: HeapStackConsistent, BackLinksConsistent, TraversalSafe
        JpfSteps.checkInvariants(q);
    }
}
