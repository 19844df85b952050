package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A thread running {@link Looper#loop()} over a queue made by a factory: the real consumer, with real blocking.
 * {@link #close()} quits it and waits for the loop to end, so try-with-resources stops every Looper a test starts.
 */
final class LooperThread implements AutoCloseable {
    private final Thread thread;
    private final Looper looper;
    private volatile Throwable failure;
    private boolean failureReported;

    private LooperThread(MessageQueue.Factory factory, Clock clock, String name) {
        CompletableFuture<Looper> prepared = new CompletableFuture<>();
        thread = new Thread(() -> {
            try {
                Looper.prepare(factory, clock);
                prepared.complete(Looper.myLooper());
            } catch (Throwable e) {
                prepared.completeExceptionally(e);
                return;
            }
            try {
                Looper.loop();
            } catch (Throwable e) {
                failure = e;
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        looper = TestSupport.await(prepared, "Looper.prepare on " + name);
    }

    /** Starts a Looper thread on the system clock. */
    static LooperThread start(MessageQueue.Factory factory) {
        return start(factory, Clock.SYSTEM);
    }

    /** Starts a Looper thread on {@code clock}. */
    static LooperThread start(MessageQueue.Factory factory, Clock clock) {
        return new LooperThread(factory, clock, "looper");
    }

    Looper looper() {
        return looper;
    }

    MessageQueue queue() {
        return looper.getQueue();
    }

    Thread thread() {
        return thread;
    }

    /** A new plain handler on this Looper. */
    Handler handler() {
        return new Handler(looper);
    }

    /** Waits (bounded) until the Looper is parked in {@code next()}. */
    void awaitParked() {
        TestSupport.awaitParked(thread);
    }

    /** Waits (bounded) until the Looper parks with a deadline: it sleeps until a message's time. */
    void awaitParkedUntilADeadline() {
        TestSupport.awaitParked(thread, true);
    }

    /** Waits (bounded) for {@code Looper.loop()} to return after a quit; rethrows what the loop threw. */
    void join() {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while joining " + thread.getName(), e);
        }
        assertFalse(thread.isAlive(),
                () -> "Looper.loop() did not return within " + TestSupport.TIMEOUT_SECONDS + " s of the quit");
        Throwable f = failure;
        if (f != null && !failureReported) {
            failureReported = true;
            throw new AssertionError("the Looper thread failed", f);
        }
    }

    /** Quits the Looper (dropping what is pending) unless it has ended, then joins it. */
    @Override
    public void close() {
        if (thread.isAlive()) {
            looper.quit();
        }
        join();
    }
}
