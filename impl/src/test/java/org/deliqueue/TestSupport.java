package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.ref.WeakReference;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/** Bounded waits and small utilities shared by the conformance tests. */
final class TestSupport {
    /** The bound of every blocking wait: generous, since a correct queue answers in microseconds. */
    static final long TIMEOUT_SECONDS = 5;
    static final long HOUR_MILLIS = TimeUnit.HOURS.toMillis(1);

    private TestSupport() {
    }

    /** Takes the next element of {@code queue}, failing if none comes within the timeout. */
    static <T> T take(BlockingQueue<T> queue, String what) {
        try {
            T value = queue.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertNotNull(value, () -> what + ": nothing arrived within " + TIMEOUT_SECONDS + " s");
            return value;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }

    /** The result of {@code future}, failing if it does not complete within the timeout; rethrows its failure. */
    static <T> T await(Future<T> future, String what) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return fail(what + " did not finish within " + TIMEOUT_SECONDS + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new AssertionError(what + " failed", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }

    /**
     * A Looper of {@code factory}'s queue with {@code clock}, prepared on a thread that then ends: the test drives its
     * queue ({@code poll}, {@code next}) from its own thread.
     */
    static Looper preparedOnNewThread(MessageQueue.Factory factory, Clock clock) {
        return onNewThread("prepare", () -> {
            Looper.prepare(factory, clock);
            return Looper.myLooper();
        });
    }

    /**
     * Runs {@code task} on a new daemon thread and returns its result, or rethrows what it threw; fails if it
     * takes longer than the timeout (the thread is then left behind, parked, as a daemon).
     */
    static <T> T onNewThread(String what, Callable<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, what);
        t.setDaemon(true);
        t.start();
        return await(result, what);
    }

    /**
     * Whether the garbage collector clears {@code ref} within about a second: false means its referent is still
     * strongly reachable (from the queue, in the tests that use it).
     */
    static boolean collected(WeakReference<?> ref) {
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return ref.get() == null;
    }

    /** Waits, bounded, until {@code thread} is parked: blocked in {@code next()} with or without a deadline. */
    static void awaitParked(Thread thread) {
        awaitParked(thread, false);
    }

    /** As {@link #awaitParked(Thread)}; with {@code timed}, only a park with a deadline (TIMED_WAITING) will do. */
    static void awaitParked(Thread thread, boolean timed) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        for (;;) {
            Thread.State state = thread.getState();
            if (state == Thread.State.TIMED_WAITING || (!timed && state == Thread.State.WAITING)) {
                return;
            }
            if (state == Thread.State.TERMINATED) {
                fail(thread.getName() + " ended instead of parking");
            }
            if (System.nanoTime() - deadline > 0) {
                fail(thread.getName() + " did not park" + (timed ? " with a deadline" : "") + " within "
                        + TIMEOUT_SECONDS + " s (state " + state + ")");
            }
            LockSupport.parkNanos(50_000);
        }
    }
}
