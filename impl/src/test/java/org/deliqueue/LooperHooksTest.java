package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.deliqueue.HandlerThreadTest.join;
import static org.deliqueue.HandlerThreadTest.quitAndJoin;
import static org.deliqueue.HandlerThreadTest.started;

import java.util.concurrent.CompletableFuture;

/**
 * What {@link Looper} tells about its dispatches: Android's message-logging lines, the dispatch observer (start, end,
 * exception) and the slow-dispatch / slow-delivery warnings, on every queue.
 */
class LooperHooksTest {

    /** A runnable with a recognisable {@code toString}, as the logging lines print it. */
    record Task(String name, Events events) implements Runnable {
        @Override
        public void run() {
            events.add("ran " + name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A dispatch that takes {@code millis} on a manual clock. */
    record Advance(ManualClock clock, long millis) implements Runnable {
        @Override
        public void run() {
            clock.advance(millis);
        }

        @Override
        public String toString() {
            return "advance " + millis;
        }
    }

    @ForEachQueue
    void messageLoggingPrintsAndroidsDispatchingAndFinishedLines(MessageQueue.Factory factory) {
        HandlerThread t = started(factory, Clock.SYSTEM);
        try {
            Events lines = new Events();
            Looper looper = t.getLooper();
            looper.setMessageLogging(lines::add);
            Handler h = new Handler(looper, msg -> true);
            Task task = new Task("task", lines);
            h.post(task);
            h.sendEmptyMessage(7);
            lines.expect(">>>>> Dispatching to " + h + " task: 0", "ran task", "<<<<< Finished to " + h + " task",
                    ">>>>> Dispatching to " + h + " null: 7", "<<<<< Finished to " + h + " null");
            looper.setMessageLogging(null);
            h.post(new Task("unlogged", lines));
            lines.expect("ran unlogged");
        } finally {
            quitAndJoin(t);
        }
    }

    /**
     * A handler that throws gets its Dispatching line and no Finished line: Android prints that line after the
     * dispatch returns, and the exception leaves the loop (the thread ends with it).
     */
    @ForEachQueue
    void messageLoggingPrintsNoFinishedLineForAHandlerThatThrows(MessageQueue.Factory factory) {
        CompletableFuture<Throwable> uncaught = new CompletableFuture<>();
        HandlerThread t = startedCatching(factory, uncaught);
        Events lines = new Events();
        RuntimeException thrown = new IllegalStateException("thrown by a test handler");
        Looper looper = t.getLooper();
        looper.setMessageLogging(lines::add);
        Handler h = new Handler(looper, msg -> {
            throw thrown;
        });
        h.sendEmptyMessage(7);
        assertSame(thrown, TestSupport.await(uncaught, "the HandlerThread's uncaught exception"));
        join(t);
        lines.expect(">>>>> Dispatching to " + h + " null: 7");
        lines.expectNoMore();
    }

    /**
     * The observer sees start then end of each dispatch with the token start returned; a throwing handler: start then
     * the exception, which the loop then lets out (the thread ends with it). The handler throws an Error: the
     * observer is told of any Throwable.
     */
    @ForEachQueue
    void theObserverSeesEachDispatchStartAndEndOrItsException(MessageQueue.Factory factory) {
        CompletableFuture<Throwable> uncaught = new CompletableFuture<>();
        HandlerThread t = startedCatching(factory, uncaught);
        Events events = new Events();
        Error thrown = new AssertionError("thrown by a test handler"); // any Throwable, not only a RuntimeException
        Looper looper = t.getLooper();
        looper.setObserver(new Looper.Observer() {
            private int started;

            @Override
            public Object messageDispatchStarting() {
                events.add("start");
                return ++started;
            }

            @Override
            public void messageDispatched(Object token, Message msg) {
                events.add("dispatched " + token + " what=" + msg.what);
            }

            @Override
            public void dispatchingThrewException(Object token, Message msg, Throwable exception) {
                events.add("threw " + token + " what=" + msg.what + " " + (exception == thrown));
            }
        });
        Handler h = new Handler(looper, msg -> {
            if (msg.what == 2) {
                throw thrown;
            }
            return true;
        });
        h.sendEmptyMessage(1);
        h.sendEmptyMessage(2);
        events.expect("start", "dispatched 1 what=1", "start", "threw 2 what=2 true");
        assertSame(thrown, TestSupport.await(uncaught, "the HandlerThread's uncaught exception"));
        join(t);
    }

    /**
     * An observer whose {@code messageDispatched} throws is told of that exception too, as Android's
     * {@code loopOnce} does (its {@code messageDispatched} call is inside the try), and the loop lets it out.
     */
    @ForEachQueue
    void anObserverWhoseDispatchedCallbackThrowsIsToldOfItsException(MessageQueue.Factory factory) {
        CompletableFuture<Throwable> uncaught = new CompletableFuture<>();
        HandlerThread t = startedCatching(factory, uncaught);
        Events events = new Events();
        RuntimeException thrown = new IllegalStateException("thrown by messageDispatched");
        t.getLooper().setObserver(new Looper.Observer() {
            @Override
            public Object messageDispatchStarting() {
                return "token";
            }

            @Override
            public void messageDispatched(Object token, Message msg) {
                events.add("dispatched what=" + msg.what);
                throw thrown;
            }

            @Override
            public void dispatchingThrewException(Object token, Message msg, Throwable exception) {
                events.add("threw " + token + " what=" + msg.what + " " + (exception == thrown));
            }
        });
        new Handler(t.getLooper(), msg -> true).sendEmptyMessage(3);
        events.expect("dispatched what=3", "threw token what=3 true");
        assertSame(thrown, TestSupport.await(uncaught, "the HandlerThread's uncaught exception"));
        join(t);
    }

    /**
     * On a manual clock: a dispatch that moves the clock past the dispatch threshold is logged, one below it is not;
     * a message dispatched later than its time by more than the delivery threshold is logged once per backlog
     * ("Drained" once a message is on time again); a front-of-queue message has no time to be late for.
     */
    @ForEachQueue
    void slowDispatchAndSlowDeliveryAreLoggedAboveTheirThresholds(MessageQueue.Factory factory) throws Exception {
        ManualClock clock = new ManualClock(1_000);
        HandlerThread t = started(factory, clock);
        try (CapturedLog log = new CapturedLog(Looper.class)) {
            Looper looper = t.getLooper();
            looper.setSlowLogThresholdMs(100, 200);
            Handler h = new Handler(looper);
            Events events = new Events();
            h.post(new Advance(clock, 50));
            h.post(new Advance(clock, 150));
            h.post(events.recorder("dispatch checks done"));
            events.expect("dispatch checks done");
            assertEquals("WARNING Slow dispatch took 150ms " + t.getName() + " h=" + Handler.class.getName()
                    + " c=advance 150 m=0", log.next());
            assertFalse(log.anyWithin(100), "the 50 ms dispatch is not logged");
            long now = clock.uptimeMillis();
            h.postAtTime(new Task("late 1", events), now - 300);
            h.postAtTime(new Task("late 2", events), now - 250);
            events.expect("ran late 1", "ran late 2");
            assertEquals("WARNING Slow delivery took 300ms " + t.getName() + " h=" + Handler.class.getName()
                    + " c=late 1 m=0", log.next());
            assertFalse(log.anyWithin(100), "late 2, in the same backlog, is not logged");
            h.postAtTime(new Task("on time", events), now);
            events.expect("ran on time");
            assertTrue(log.next().startsWith("WARNING Drained"), "a message on time ends the backlog");
            h.postAtFrontOfQueue(new Task("front of queue", events));
            events.expect("ran front of queue");
            assertFalse(log.anyWithin(100), "a front-of-queue message (when 0) is not measured");
            h.postAtTime(new Task("1 ms late", events), now - 1);
            events.expect("ran 1 ms late");
            assertFalse(log.anyWithin(100), "a message 1 ms late, within the threshold, is not logged");
            h.postAtTime(new Task("late again", events), now - 201);
            events.expect("ran late again");
            assertTrue(log.next().startsWith("WARNING Slow delivery took 201ms"), "a new backlog is logged");
            looper.setSlowLogThresholdMs(0, 0);
            h.post(new Advance(clock, 1_000));
            h.postAtTime(new Task("unchecked", events), 1);
            events.expect("ran unchecked");
            assertFalse(log.anyWithin(100), "thresholds of 0 turn the checks off");
        } finally {
            quitAndJoin(t);
        }
    }

    /** A started HandlerThread whose uncaught exception (a handler's, let out of the loop) completes the future. */
    private static HandlerThread startedCatching(MessageQueue.Factory factory, CompletableFuture<Throwable> uncaught) {
        HandlerThread t = started(factory, Clock.SYSTEM);
        t.setUncaughtExceptionHandler((thread, e) -> uncaught.complete(e));
        return t;
    }
}
