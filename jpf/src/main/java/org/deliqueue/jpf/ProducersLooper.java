package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (a) Two producers push while the Looper sweeps and delivers: steps 1 (push), 2 (sweep), 6 (sleep and wake) and 7
 * (deliver) of the real queue. Producer {@code p} enqueues {@code N_p} messages ({@code what = p},
 * {@code arg1 = i}), all due now with the same {@code when}, so the heap orders each producer's messages by
 * ticket, that is by push order. The main thread is the Looper: it calls the blocking {@code next()} until it has
 * all {@code 2N} messages.
 *
 * <p>Arguments: queue ({@code DELI} or a Mutant name), {@code N} for producer-0 (default 2), {@code N} for
 * producer-1 (default: the same). DeliveryOrder needs a producer with 2 messages; {@code make jpf} runs {@code 1,1}
 * (about 0.4 million states), because {@code 2,1} takes over 1.5 million states and 5 minutes; the plain-JVM test
 * runs {@code 3,3}, and harness (e) checks DeliveryOrder under JPF.
 * Negative controls: {@code NON_ATOMIC_PUSH} (a push overwrites another: NoLostMessage),
 * {@code SWEEP_SKIPS_BACKLINKS} (the Looper's unlink finds no back-link: BackLinksConsistent, or the splice
 * dereferences the missing link).
 */
// obligation: ExactlyOnce
// obligation: DeliveryOrder
// obligation: NoLostMessage
// obligation: BackLinksConsistent
// negative control: NON_ATOMIC_PUSH, SWEEP_SKIPS_BACKLINKS
public final class ProducersLooper {
    private ProducersLooper() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n0 = Harness.size(args, 1, 2);
        int n1 = Harness.size(args, 2, n0);
        ManualClock clock = new ManualClock(10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message[] p0 = new Message[n0];
        Message[] p1 = new Message[n1];
        for (int i = 0; i < n0; i++) {
            p0[i] = JpfSteps.message(h, 0, i);
        }
        for (int i = 0; i < n1; i++) {
            p1[i] = JpfSteps.message(h, 1, i);
        }
        Thread t0 = Harness.start("producer-0", () -> produce(q, p0));
        Thread t1 = Harness.start("producer-1", () -> produce(q, p1));

        int[] expected = new int[2];
        for (int k = 0; k < n0 + n1; ) {
            Message m = looperPoll(q);
            if (m == null) {
                if (t0.isAlive() || t1.isAlive()) {
                    Thread.yield(); // idle: a scheduling point for JPF, which never preempts a loop without one
                    continue;
                }
                m = looperPoll(q); // both producers have ended: every push they made precedes this poll
                // obligation: NoLostMessage
                if (m == null) {
                    throw Harness.fail("NoLostMessage", (n0 + n1 - k) + " pushed messages neither delivered nor "
                            + "pending");
                }
            }
            k++;
            int p = indexIn(p0, m) >= 0 ? 0 : 1;
            int i = indexIn(p == 0 ? p0 : p1, m);
            check(i >= 0, "ExactlyOnce", "delivered a message nobody sent");
            // obligation: ExactlyOnce
            if (i < expected[p]) {
                throw Harness.fail("ExactlyOnce", "producer-" + p + "'s message " + i + " delivered twice");
            }
            // obligation: DeliveryOrder
            if (i > expected[p]) {
                throw Harness.fail("DeliveryOrder", "producer-" + p + "'s message " + i + " delivered before its "
                        + "message " + expected[p] + " (same when, pushed earlier, so a smaller insertSeq)");
            }
            expected[p]++;
        }
        Harness.join("NoLostMessage", t0, t1);
        // Nothing is left to deliver, so nothing comes out again.
        // obligation: ExactlyOnce
        check(q.poll() == null, "ExactlyOnce", "a message came out after all were delivered");
        // CheckInvariants names the one broken.
        // obligation: BackLinksConsistent, HeapStackConsistent, TraversalSafe
        JpfSteps.checkInvariants(q);
    }

    /**
     * One poll of the Looper. A NullPointerException inside it means a Looper step followed a link the structure
     * guarantees; the Looper (which owns {@code swept} and the back-links) then names the obligation that is broken.
     */
    private static Message looperPoll(DeliQueue q) {
        try {
            return q.poll();
        } catch (NullPointerException e) {
            // Every message stays reachable from top until unlinked.
            // obligation: NoLostMessage
            if (!JpfSteps.sweptReachable(q)) {
                throw Harness.fail("NoLostMessage", "the message the last sweep stopped at is no longer reachable "
                        + "from top (a push overwrote it), so the sweep ran off the stack: " + e.getMessage());
            }
            // obligation: BackLinksConsistent
            if (!JpfSteps.backLinksConsistent(q)) {
                throw Harness.fail("BackLinksConsistent", "a swept message lacks its back-link, so the Looper's "
                        + "unlink failed: " + e.getMessage());
            }
            throw e;
        }
    }

    private static void produce(DeliQueue q, Message[] mine) {
        for (Message m : mine) {
            check(q.enqueueMessage(m, 1), "NoLostMessage", "enqueue refused though the queue never quit");
        }
    }

    /** The index of {@code m} in {@code ms} by identity, or -1. */
    static int indexIn(Message[] ms, Message m) {
        for (int i = 0; i < ms.length; i++) {
            if (ms[i] == m) {
                return i;
            }
        }
        return -1;
    }
}
