package org.deliqueue.bench;

import java.util.concurrent.atomic.AtomicReference;
import org.deliqueue.Clock;
import org.deliqueue.Looper;
import org.deliqueue.MessageQueue;

/** Helpers for making Loopers outside the thread that will use them. */
public final class Loopers {
    private Loopers() {
    }

    /**
     * A Looper prepared on a short-lived helper thread: its queue can be polled by any one consumer thread and
     * its Handlers target it, without touching the calling thread's Looper slot (JMH reuses its threads).
     */
    public static Looper detached(MessageQueue.Factory kind, Clock clock) {
        AtomicReference<Looper> out = new AtomicReference<>();
        Thread t = new Thread(() -> {
            Looper.prepare(kind, clock);
            out.set(Looper.myLooper());
        }, "looper-factory");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return out.get();
    }
}
