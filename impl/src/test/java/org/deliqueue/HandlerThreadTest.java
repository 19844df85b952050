package org.deliqueue;

import static org.deliqueue.TestSupport.HOUR_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** {@link HandlerThread} as Android's documentation describes it, on every queue. */
class HandlerThreadTest {
    /** What each thread started by {@link #startDaemon} died of. */
    private static final Map<Thread, Throwable> UNCAUGHT = new ConcurrentHashMap<>();

    @ForEachQueue
    void beforeStartThereIsNoLooperAndNothingToQuit(MessageQueue.Factory factory) {
        HandlerThread t = new HandlerThread("unstarted", Thread.NORM_PRIORITY, factory, Clock.SYSTEM);
        assertNull(t.getLooper(), "getLooper");
        assertNull(t.getThreadHandler(), "getThreadHandler");
        assertFalse(t.quit(), "quit");
        assertFalse(t.quitSafely(), "quitSafely");
        assertEquals(-1, t.getThreadId(), "getThreadId");
    }

    /**
     * Android's constructor takes an {@code android.os.Process} priority (a nice value: 0 default, -2 foreground,
     * 10 background, -19 urgent audio...) and accepts any int: every value is such a nice value, mapped to the
     * nearest Java priority (lower nice, higher priority), never rejected. Values 1 to 10 are nice values too, as on
     * Android: THREAD_PRIORITY_BACKGROUND (10) runs below the default, not at Java's MAX_PRIORITY.
     */
    @ForEachQueue
    void androidProcessPrioritiesAreAcceptedAndMappedToJavaPriorities(MessageQueue.Factory factory) {
        int[] nice = {Integer.MIN_VALUE, -20, -19, -16, -8, -4, -2, -1, 0, 1, 4, 10, 11, 19, 20, Integer.MAX_VALUE};
        int previous = Thread.MAX_PRIORITY;
        for (int n : nice) {
            HandlerThread t = new HandlerThread("nice " + n, n, factory, Clock.SYSTEM);
            int p = t.getPriority();
            assertTrue(p >= Thread.MIN_PRIORITY && p <= previous, () -> "nice " + n + " became priority " + p);
            previous = p;
            if (n == 0) {
                assertEquals(Thread.NORM_PRIORITY, p, "THREAD_PRIORITY_DEFAULT");
            }
        }
        assertTrue(new HandlerThread("background", 10).getPriority() < Thread.NORM_PRIORITY, "THREAD_PRIORITY_BACKGROUND");
        assertEquals(Thread.NORM_PRIORITY, new HandlerThread("default").getPriority(), "HandlerThread(name)");

        HandlerThread t = new HandlerThread("foreground", -2, factory, Clock.SYSTEM);
        startDaemon(t);
        Events events = new Events();
        assertTrue(t.getThreadHandler().post(events.recorder("ran")));
        events.expect("ran");
        quitAndJoin(t);
    }

    /**
     * {@code getLooper()} waits while the thread prepares (held here inside the queue factory), then returns the
     * thread's own Looper; {@code onLooperPrepared} runs on the thread, with that Looper, before any message.
     */
    @ForEachQueue
    void getLooperWaitsUntilTheLooperIsPreparedAndOnLooperPreparedRunsFirst(MessageQueue.Factory factory) {
        CountDownLatch releasePrepare = new CountDownLatch(1);
        MessageQueue.Factory held = (quitAllowed, clock) -> {
            awaitUninterruptibly(releasePrepare);
            return factory.create(quitAllowed, clock);
        };
        Events events = new Events();
        HandlerThread t = new HandlerThread("held", Thread.NORM_PRIORITY, held, Clock.SYSTEM) {
            @Override
            protected void onLooperPrepared() {
                events.add("prepared on " + Thread.currentThread().getName() + " " + (Looper.myLooper() != null));
            }
        };
        startDaemon(t);
        CompletableFuture<Looper> got = new CompletableFuture<>();
        Thread caller = new Thread(() -> got.complete(t.getLooper()), "caller");
        caller.setDaemon(true);
        caller.start();
        try {
            TestSupport.awaitParked(caller);
            assertFalse(got.isDone(), "getLooper returned before the Looper was prepared");
            releasePrepare.countDown();
            Looper looper = TestSupport.await(got, "getLooper");
            assertNotNull(looper);
            assertSame(t, looper.getThread(), "the Looper's thread");
            assertEquals(factory.create(true, Clock.SYSTEM).getClass(), looper.getQueue().getClass(), "queue kind");
            assertEquals(t.getId(), t.getThreadId(), "getThreadId while running");
            events.expect("prepared on held true");
            new Handler(looper).post(events.recorder("message"));
            events.expect("message");
        } finally {
            releasePrepare.countDown();
            quitAndJoin(t);
        }
    }

    @ForEachQueue
    void getThreadHandlerIsOneHandlerOnTheThreadsLooper(MessageQueue.Factory factory) {
        HandlerThread t = started(factory);
        try {
            Handler h = t.getThreadHandler();
            assertSame(h, t.getThreadHandler(), "the same handler on every call");
            assertSame(t.getLooper(), h.getLooper());
            Events events = new Events();
            h.post(() -> events.add("ran on " + Thread.currentThread().getName()));
            events.expect("ran on " + t.getName());
        } finally {
            quitAndJoin(t);
        }
    }

    /** quit: what is pending is dropped; the thread ends; afterwards there is no Looper and nothing to quit. */
    @ForEachQueue
    @QuietLogs
    void quitDropsWhatIsPendingAndEndsTheThread(MessageQueue.Factory factory) {
        HandlerThread t = started(factory);
        Events events = new Events();
        CountDownLatch gate = new CountDownLatch(1);
        Handler h = t.getThreadHandler();
        h.post(() -> {
            events.add("blocking");
            awaitUninterruptibly(gate);
        });
        h.post(events.recorder("pending"));
        events.expect("blocking");
        assertTrue(t.quit(), "quit");
        gate.countDown();
        join(t);
        events.add("ended");
        events.expect("ended"); // "pending" never ran
        assertNull(t.getLooper(), "getLooper after the thread ended");
        assertFalse(t.quitSafely(), "quitSafely after the thread ended");
        assertEquals(-1, t.getThreadId(), "getThreadId after the thread ended");
    }

    /** quitSafely: what is due runs, what is delayed is dropped, then the thread ends. */
    @ForEachQueue
    @QuietLogs
    void quitSafelyRunsWhatIsDueThenEndsTheThread(MessageQueue.Factory factory) {
        HandlerThread t = started(factory);
        Events events = new Events();
        CountDownLatch gate = new CountDownLatch(1);
        Handler h = t.getThreadHandler();
        h.post(() -> {
            events.add("blocking");
            awaitUninterruptibly(gate);
        });
        h.post(events.recorder("due"));
        h.postDelayed(events.recorder("an hour later"), HOUR_MILLIS);
        events.expect("blocking");
        assertTrue(t.quitSafely(), "quitSafely");
        gate.countDown();
        events.expect("due");
        join(t);
        events.add("ended");
        events.expect("ended");
    }

    /** An interrupt does not end getLooper's wait, and the caller's interrupt status survives it. */
    @ForEachQueue
    void getLooperKeepsTheCallersInterruptStatus(MessageQueue.Factory factory) {
        CountDownLatch releasePrepare = new CountDownLatch(1);
        HandlerThread t = startedHeldInPrepare(factory, releasePrepare);
        CompletableFuture<String> got = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            Looper looper = t.getLooper();
            got.complete((looper != null) + " interrupted=" + Thread.currentThread().isInterrupted());
        }, "caller");
        caller.setDaemon(true);
        caller.start();
        try {
            TestSupport.awaitParked(caller);
            caller.interrupt();
            TestSupport.awaitParked(caller);
            assertFalse(got.isDone(), "getLooper returned on an interrupt, before the Looper was prepared");
            releasePrepare.countDown();
            assertEquals("true interrupted=true", TestSupport.await(got, "getLooper"));
        } finally {
            releasePrepare.countDown();
            quitAndJoin(t);
        }
    }

    /**
     * quit() on a HandlerThread still preparing its Looper waits for it (through getLooper, as Android's), then quits
     * it: a shutdown path's start-then-quit ends the thread.
     */
    @ForEachQueue
    void quitWhileTheLooperIsPreparingWaitsForItThenEndsTheThread(MessageQueue.Factory factory) {
        CountDownLatch releasePrepare = new CountDownLatch(1);
        HandlerThread t = startedHeldInPrepare(factory, releasePrepare);
        CompletableFuture<Boolean> quit = new CompletableFuture<>();
        Thread quitter = new Thread(() -> quit.complete(t.quit()), "quitter");
        quitter.setDaemon(true);
        quitter.start();
        try {
            TestSupport.awaitParked(quitter);
            assertFalse(quit.isDone(), "quit returned before the Looper was prepared");
            releasePrepare.countDown();
            assertTrue(TestSupport.await(quit, "quit"), "quit of a HandlerThread that was preparing its Looper");
            join(t);
        } finally {
            releasePrepare.countDown();
        }
    }

    /** A handler's throw ends the thread (it leaves loop()): getThreadId() is then -1, as after a quit. */
    @ForEachQueue
    void aThreadEndedByAHandlersThrowHasNoThreadId(MessageQueue.Factory factory) {
        HandlerThread t = started(factory, Clock.SYSTEM);
        RuntimeException thrown = new IllegalStateException("thrown by a test handler");
        new Handler(t.getLooper()).post(() -> {
            throw thrown;
        });
        AssertionError died = assertThrows(AssertionError.class, () -> join(t));
        assertSame(thrown, died.getCause(), "the thread died of the handler's exception");
        assertEquals(-1, t.getThreadId(), "getThreadId after the thread ended");
    }

    /**
     * A subclass whose {@code run()} never prepares a Looper: {@code getThreadHandler()} waits while the thread runs,
     * then answers null once it ends, as {@code getLooper()} does. Holding the thread's own monitor while waiting
     * (a {@code synchronized} getThreadHandler) kept the thread from ever ending: the JVM takes that monitor as a
     * thread terminates, so {@code isAlive()} stayed true and both sides waited for ever.
     */
    @ForEachQueue
    void getThreadHandlerOfAThreadThatNeverPreparesAnswersNullOnceItEnds(MessageQueue.Factory factory) {
        CountDownLatch finish = new CountDownLatch(1);
        HandlerThread t = new HandlerThread("never-prepares", Thread.NORM_PRIORITY, factory, Clock.SYSTEM) {
            @Override
            public void run() {
                awaitUninterruptibly(finish);
            }
        };
        startDaemon(t);
        CompletableFuture<Handler> got = new CompletableFuture<>();
        Thread caller = new Thread(() -> got.complete(t.getThreadHandler()), "caller");
        caller.setDaemon(true);
        caller.start();
        TestSupport.awaitParked(caller);
        assertFalse(got.isDone(), "getThreadHandler returned while the thread was still running");
        finish.countDown();
        // Bounded first: join() itself takes the thread's monitor, which the old getThreadHandler held for ever.
        assertNull(TestSupport.await(got, "getThreadHandler once the thread ended"));
        join(t);
    }

    private static HandlerThread started(MessageQueue.Factory factory) {
        return started(factory, Clock.SYSTEM);
    }

    /** A started daemon HandlerThread whose Looper is prepared; the other test classes of the API use it too. */
    static HandlerThread started(MessageQueue.Factory factory, Clock clock) {
        HandlerThread t = new HandlerThread("handler-thread", Thread.NORM_PRIORITY, factory, clock);
        startDaemon(t);
        assertNotNull(t.getLooper());
        return t;
    }

    /** A started daemon HandlerThread whose queue factory waits for {@code releasePrepare}: its Looper is held back. */
    private static HandlerThread startedHeldInPrepare(MessageQueue.Factory factory, CountDownLatch releasePrepare) {
        HandlerThread t = new HandlerThread("held", Thread.NORM_PRIORITY, (quitAllowed, clock) -> {
            awaitUninterruptibly(releasePrepare);
            return factory.create(quitAllowed, clock);
        }, Clock.SYSTEM);
        startDaemon(t);
        return t;
    }

    static void quitAndJoin(HandlerThread t) {
        t.quit();
        join(t);
    }

    /** Starts {@code t} as a daemon whose uncaught exception {@link #join} reports (instead of the console). */
    static void startDaemon(HandlerThread t) {
        t.setDaemon(true);
        t.setUncaughtExceptionHandler(UNCAUGHT::put);
        t.start();
    }

    /** Waits (bounded) for {@code t} to end; fails with what it threw, if it died of an exception. */
    static void join(Thread t) {
        try {
            t.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        assertFalse(t.isAlive(), () -> t.getName() + " did not end within " + TestSupport.TIMEOUT_SECONDS + " s");
        Throwable died = UNCAUGHT.remove(t);
        if (died != null) {
            throw new AssertionError(t.getName() + " died of an exception", died);
        }
    }

    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        for (;;) {
            try {
                if (latch.await(TestSupport.TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    break;
                }
                throw new AssertionError("latch not released within " + TestSupport.TIMEOUT_SECONDS + " s");
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Four threads ask for the thread's handler while its Looper is still being prepared: each waits for it, and
     * all of them get the same handler.
     */
    @ForEachQueue
    void getThreadHandlerRacingThePrepareGivesEveryCallerTheSameHandler(MessageQueue.Factory factory)
            throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        MessageQueue.Factory heldInPrepare = (quitAllowed, clock) -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return factory.create(quitAllowed, clock);
        };
        HandlerThread t = new HandlerThread("held-in-prepare", 0, heldInPrepare, Clock.SYSTEM);
        t.start();
        List<CompletableFuture<Handler>> got = new ArrayList<>();
        List<Thread> callers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            CompletableFuture<Handler> f = new CompletableFuture<>();
            got.add(f);
            Thread c = new Thread(() -> f.complete(t.getThreadHandler()), "caller-" + i);
            callers.add(c);
            c.start();
        }
        for (Thread c : callers) { // each past the first check, waiting for the Looper
            TestSupport.awaitParked(c, true);
        }
        release.countDown();
        Set<Handler> distinct = new HashSet<>();
        for (CompletableFuture<Handler> f : got) {
            distinct.add(TestSupport.await(f, "getThreadHandler"));
        }
        distinct.add(t.getThreadHandler());
        assertEquals(1, distinct.size(), "getThreadHandler returned different handlers: " + distinct);
        t.quit();
        t.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
    }
}
