package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (b) A producer, a remover and the Looper: steps 1 (push), 3 (tombstone, freelist, drain, unlink) and 7 (deliver,
 * decided by the REMOVED CAS). The producer enqueues {@code N} due messages with {@code what = 1}; the remover calls
 * {@code removeMessages(h, 1)} once; the Looper (main) polls until every one of them carries REMOVED (delivered or
 * tombstoned), then once more to drain. Each message must have been delivered or removed, exactly once. The
 * Looper polls rather than sleeps: JPF matches the states of an idle poll, and sleeping and waking are harness
 * (e)'s subject.
 *
 * <p>Arguments: queue, {@code N} (default 1). Negative control: {@code DELIVER_WITHOUT_REMOVED_CAS} (delivery
 * checks REMOVED then sets it: the remover's CAS can win in between, and the message is both removed and
 * delivered).
 */
// obligation: ExactlyOnce
// obligation: HeapStackConsistent
// negative control: DELIVER_WITHOUT_REMOVED_CAS
public final class RemoverVsDelivery {
    private RemoverVsDelivery() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = Harness.size(args, 1, 1);
        ManualClock clock = new ManualClock(10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message[] removable = new Message[n];
        for (int i = 0; i < n; i++) {
            removable[i] = JpfSteps.message(h, 1, i);
        }
        int[] removed = new int[1];

        Thread producer = Harness.start("producer", () -> {
            for (Message m : removable) {
                check(q.enqueueMessage(m, 1), "NoLostMessage", "enqueue refused though the queue never quit");
            }
        });
        Thread remover = Harness.start("remover", () -> removed[0] = q.removeMessages(h, 1, null));

        int[] delivered = new int[n];
        for (int decided = 0; decided < n; ) {
            Message m = q.poll();
            if (m == null) {
                Thread.yield(); // idle: a scheduling point for JPF, which never preempts a loop without one
            } else {
                int i = ProducersLooper.indexIn(removable, m);
                check(i >= 0, "ExactlyOnce", "delivered a message nobody sent");
                delivered[i]++;
                // obligation: ExactlyOnce
                if (delivered[i] != 1) {
                    throw Harness.fail("ExactlyOnce", "message " + i + " delivered twice");
                }
            }
            decided = 0;
            for (Message r : removable) {
                decided += JpfSteps.isRemoved(r) ? 1 : 0;
            }
        }
        Harness.join("ExactlyOnce", producer, remover);
        int deliveredTotal = 0;
        for (int d : delivered) {
            deliveredTotal += d;
        }
        // None is both delivered and removed, none is neither.
        // obligation: ExactlyOnce
        if (deliveredTotal + removed[0] != n) {
            throw Harness.fail("ExactlyOnce", deliveredTotal + " delivered + " + removed[0] + " removed, of " + n
                    + " messages");
        }
        for (Message m : removable) {
            check(JpfSteps.isRemoved(m), "ExactlyOnce", "a message left the queue without its REMOVED flag");
        }
        check(q.poll() == null, "ExactlyOnce", "a message came out after every one was delivered or removed");
        // After that poll's drain:
        // obligation: HeapStackConsistent, BackLinksConsistent, TraversalSafe
        JpfSteps.checkInvariants(q);
    }
}
