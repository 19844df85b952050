package org.deliqueue.jpf;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (f) The Looper going to sleep behind a barrier (step 6, with BLOCKED and {@code sleepBarrier}) against each way
 * another thread must wake it there (steps 1 and 3). A sync barrier is posted first; the Looper (main) then calls the
 * blocking {@code next()} once, and it finds nothing it may deliver, so it sleeps behind the barrier, unless the
 * other thread came first. The other thread, by {@code mode}:
 * <ul>
 *   <li>{@code async}: posts an asynchronous message due now, which sorts after the barrier: the barrier does not
 *       hold it back, because it is asynchronous;
 *   <li>{@code front}: at uptime 0, posts a sync message at the front of the queue ({@code when == 0}, after a
 *       barrier posted at uptime 0): it sorts before the barrier, so the barrier does not hold it back;
 *   <li>{@code remove}: with a sync message due now already behind the barrier, removes the barrier.
 * </ul>
 * Each time the message must be delivered: a waker that decides the barrier holds it back (or a removal that does
 * not wake) leaves the Looper parked for ever, which JPF reports as a deadlock (the plain-JVM run as a join that
 * times out). The clock never moves, so the sleep has no deadline and JPF never guesses a timeout.
 *
 * <p>Arguments: queue, mode ({@code async}, {@code front}, {@code remove}). Negative controls:
 * {@code ASYNC_HELD_BY_BARRIER} (async), {@code WAKE_BY_CLOCK} (front), {@code BARRIER_REMOVAL_WITHOUT_WAKE}
 * (remove).
 */
// obligation: NoLostWakeup
// obligation: DeliveryOrder
// negative control: ASYNC_HELD_BY_BARRIER
// negative control: WAKE_BY_CLOCK
// negative control: BARRIER_REMOVAL_WITHOUT_WAKE
public final class SleepBehindBarrier {
    private SleepBehindBarrier() {
    }

    public static void main(String[] args) throws InterruptedException {
        String mode = args.length > 1 ? args[1] : "async";
        if (!mode.equals("async") && !mode.equals("front") && !mode.equals("remove")) {
            throw new IllegalArgumentException("mode must be async, front or remove: " + mode);
        }
        ManualClock clock = new ManualClock(mode.equals("front") ? 0 : 10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message m = JpfSteps.message(h, 1, 0);
        int token = q.postSyncBarrier();
        if (mode.equals("remove")) {
            Harness.check(q.enqueueMessage(m, clock.uptimeMillis()), "NoLostMessage", "enqueue refused");
        }
        Thread other = Harness.start(mode.equals("remove") ? "remover" : "producer", () -> {
            switch (mode) {
                case "async" -> {
                    m.setAsynchronous(true);
                    Harness.check(q.enqueueMessage(m, clock.uptimeMillis()), "NoLostMessage", "enqueue refused");
                }
                case "front" -> Harness.check(q.enqueueMessage(m, 0), "NoLostMessage", "enqueue refused");
                default -> q.removeSyncBarrier(token);
            }
        });
        // A Looper parked behind the barrier past a message the barrier does not hold back never returns:
        // deadlock under JPF.
        // obligation: NoLostWakeup
        Message got = q.next();
        // obligation: DeliveryOrder
        Harness.check(got == m, "DeliveryOrder", "delivered " + got + " instead of the message the barrier lets by");
        Harness.join("NoLostWakeup", other);
    }
}
