package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (e) The wait word (step 6) against a producer's push and {@code signalIfEarlier} (step 1). The Looper (main)
 * calls the blocking {@code next()} {@code N} times; a producer enqueues {@code N} messages, due now with the same
 * {@code when}, which must come out in push order (DeliveryOrder: the Looper's sweeps may split them). The Looper
 * goes to sleep without deadline whenever it finds nothing: it publishes ASLEEP, re-checks {@code top}, and parks.
 * A push it misses must see ASLEEP and wake it. A lost wakeup leaves the Looper parked for ever after the producer
 * has ended: JPF reports that as a deadlock (the plain-JVM run as a join that times out). Time is a ManualClock
 * that never moves, so no sleep has a deadline and JPF never has to guess a timeout.
 *
 * <p>Arguments: queue, {@code N} (default 2). Negative control: {@code LOST_WAKEUP} (parks without the re-check).
 */
// obligation: NoLostWakeup
// obligation: ExactlyOnce
// obligation: DeliveryOrder
// negative control: LOST_WAKEUP
public final class SleepRacingPush {
    private SleepRacingPush() {
    }

    public static void main(String[] args) throws InterruptedException {
        int n = Harness.size(args, 1, 2);
        ManualClock clock = new ManualClock(10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message[] ms = new Message[n];
        for (int i = 0; i < n; i++) {
            ms[i] = JpfSteps.message(h, 1, i);
        }
        Thread producer = Harness.start("producer", () -> {
            for (Message m : ms) {
                check(q.enqueueMessage(m, 1), "NoLostMessage", "enqueue refused though the queue never quit");
            }
        });
        for (int k = 0; k < n; k++) {
            // A Looper parked past a due message never returns: deadlock under JPF.
            // obligation: NoLostWakeup
            Message got = q.next();
            int i = ProducersLooper.indexIn(ms, got);
            // obligation: ExactlyOnce
            if (i < k) {
                throw Harness.fail("ExactlyOnce", i < 0 ? "delivered a message nobody sent" : "message " + i
                        + " delivered twice");
            }
            // Same when, pushed in this order: ticket order.
            // obligation: DeliveryOrder
            if (i > k) {
                throw Harness.fail("DeliveryOrder", "message " + i + " delivered before message " + k);
            }
        }
        Harness.join("NoLostWakeup", producer);
    }
}
