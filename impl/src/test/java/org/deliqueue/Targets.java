package org.deliqueue;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Message targets for queue-level tests, which enqueue with {@link MessageQueue#enqueueMessage} and consume with
 * {@link MessageQueue#poll()} themselves: the handlers' own Looper never runs.
 */
final class Targets {
    private static Looper idleLooper;

    private Targets() {
    }

    /** A fresh handler, distinct from every other. */
    static synchronized Handler handler() {
        if (idleLooper == null) {
            idleLooper = startIdleLooper();
        }
        return new Handler(idleLooper);
    }

    private static Looper startIdleLooper() {
        BlockingQueue<Looper> handOff = new ArrayBlockingQueue<>(1);
        Thread t = new Thread(() -> {
            Looper.prepare(QueueKind.LEGACY, Clock.SYSTEM);
            handOff.add(Looper.myLooper());
        }, "idle-looper");
        t.setDaemon(true);
        t.start();
        try {
            return handOff.take();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
