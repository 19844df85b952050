package org.deliqueue;

import static org.deliqueue.TestSupport.HOUR_MILLIS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * The queue as a {@link Looper} uses it: a real thread blocked in {@link MessageQueue#next()} on the system clock,
 * woken by sends, barrier removal and quit; idle handlers; the Looper and Handler API around it. Waits are bounded
 * ({@link TestSupport#TIMEOUT_SECONDS}) and assert only that something happened, never how fast.
 */
// negative control: IDLE_BEHIND_DUE_BARRIER, REMOVAL_WAKE_SKIPS_TIMED_PARK
// obligation: NoLostWakeup
// obligation: QuitTerminates
// obligation: DeliveryOrder
class HandlerLooperTest {

    // ---- Looper API ----

    @ForEachQueue
    void loopWithoutPrepareThrowsIllegalStateException(MessageQueue.Factory factory) {
        String outcome = TestSupport.onNewThread("no-looper", () -> {
            assertNull(Looper.myLooper(), "a fresh thread has no Looper");
            assertThrows(IllegalStateException.class, Looper::myQueue, "myQueue");
            assertThrows(IllegalStateException.class, Looper::loop, "loop");
            return "checked";
        });
        assertEquals("checked", outcome);
    }

    @ForEachQueue
    void preparingTwiceOnOneThreadThrowsAndKeepsTheFirstLooper(MessageQueue.Factory factory) {
        String outcome = TestSupport.onNewThread("twice", () -> {
            Looper.prepare(factory, Clock.SYSTEM);
            Looper first = Looper.myLooper();
            assertThrows(IllegalStateException.class, () -> Looper.prepare(factory, Clock.SYSTEM));
            assertSame(first, Looper.myLooper(), "the thread keeps its first Looper");
            return "checked";
        });
        assertEquals("checked", outcome);
    }

    /**
     * A queue factory that returns null is refused at once, and the thread is left without a Looper, free to prepare
     * again (it used to keep a Looper with no queue: loop() failed with a bare NullPointerException, and every later
     * prepare with "Only one Looper may be created per thread").
     */
    @ForEachQueue
    void aFactoryThatMakesNoQueueLeavesTheThreadWithoutALooper(MessageQueue.Factory factory) {
        String outcome = TestSupport.onNewThread("null-queue", () -> {
            assertThrows(NullPointerException.class, () -> Looper.prepare((quitAllowed, clock) -> null, Clock.SYSTEM));
            assertNull(Looper.myLooper(), "no Looper after the refused prepare");
            Looper.prepare(factory, Clock.SYSTEM);
            assertNotNull(Looper.myLooper().getQueue());
            return "checked";
        });
        assertEquals("checked", outcome);
    }

    @ForEachQueue
    void loopDispatchesOnTheLooperThreadAndQuitEndsIt(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Events events = new Events();
            lt.handler().post(() -> events.add("on looper " + (Looper.myLooper() == lt.looper()
                    && lt.looper().isCurrentThread() && lt.looper().getThread() == Thread.currentThread())));
            events.expect("on looper true");
            lt.looper().quit();
            lt.join();
        }
    }

    /**
     * A handler that calls {@code loop()} again (Android allows it and warns): the inner loop dispatches what comes
     * next, the message that called it still in dispatch, until the queue quits; then both loops end, every message
     * delivered once and in order, the future one dropped.
     */
    @ForEachQueue
    @QuietLogs
    void loopCalledFromAHandlerRunsTheQueueUntilItQuitsThenBothLoopsEnd(MessageQueue.Factory factory) {
        String trace = loopOnANewThread(factory, (h, ran) -> h.post(() -> {
            ran.append("outer;");
            postTwoThenQuitSafely(h, ran);
            Looper.loop(); // re-entered, from inside the dispatch of this message
            ran.append("inner returned;");
        }));
        assertEquals("outer;b;c;inner returned;outer returned;", trace);
    }

    /**
     * As above from an idle handler, which runs inside {@code next()}: the inner loop's {@code next()} runs while the
     * outer one waits for its idle handler, so the queue must hold no state of the outer call across it. The inner
     * loop dispatches what the idle handler posted until the queue quits; the outer {@code next()} then returns null.
     */
    @ForEachQueue
    @QuietLogs
    void loopCalledFromAnIdleHandlerRunsTheQueueUntilItQuitsThenBothLoopsEnd(MessageQueue.Factory factory) {
        String trace = loopOnANewThread(factory, (h, ran) -> h.getLooper().getQueue().addIdleHandler(() -> {
            ran.append("idle;");
            postTwoThenQuitSafely(h, ran);
            Looper.loop(); // re-entered, from inside next()
            ran.append("inner returned;");
            return false;
        }));
        assertEquals("idle;b;c;inner returned;outer returned;", trace);
    }

    /**
     * Prepares a Looper on a new thread, lets {@code setUp} post to it (with a message due in an hour, so that the
     * queue goes idle before it), loops, then checks the queue quit and dropped that message. Returns what ran.
     */
    private static String loopOnANewThread(MessageQueue.Factory factory, BiConsumer<Handler, StringBuilder> setUp) {
        return TestSupport.onNewThread("re-entrant", () -> {
            Looper.prepare(factory, Clock.SYSTEM);
            Handler h = new Handler(Looper.myLooper());
            StringBuilder ran = new StringBuilder();
            h.postDelayed(() -> ran.append("future;"), HOUR_MILLIS);
            setUp.accept(h, ran);
            Looper.loop();
            ran.append("outer returned;");
            assertFalse(h.getLooper().getQueue().hasMessages(h), "the future message dropped by the quit");
            assertFalse(h.post(() -> ran.append("after;")), "the queue quit");
            return ran.toString();
        });
    }

    /** Posts b, then c, which quits safely: what the inner loop runs before it returns. */
    private static void postTwoThenQuitSafely(Handler h, StringBuilder ran) {
        h.post(() -> ran.append("b;"));
        h.post(() -> {
            ran.append("c;");
            h.getLooper().quitSafely();
        });
    }

    @ForEachQueue
    void dispatchRunsThePostElseTheCallbackElseHandleMessage(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Events events = new Events();
            Handler.Callback callback = msg -> {
                events.add("callback " + msg.what);
                return msg.what == 1; // true: handled, handleMessage is skipped
            };
            Handler h = new Handler(lt.looper(), callback) {
                @Override
                public void handleMessage(Message msg) {
                    events.add("handleMessage " + msg.what);
                }
            };
            h.sendEmptyMessage(1);
            h.sendEmptyMessage(2);
            h.post(events.recorder("post"));
            events.expect("callback 1", "callback 2", "handleMessage 2", "post");
        }
    }

    @ForEachQueue
    void obtainedMessagesCarryTheirPayloadToTheHandler(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Events events = new Events();
            Handler h = new Handler(lt.looper(), msg -> {
                events.add(msg.what + "/" + msg.arg1 + "/" + msg.arg2 + "/" + msg.obj + "/" + (msg.getTarget() != null));
                return true;
            });
            Message original = h.obtainMessage(7, 8, 9, "payload");
            Message copy = Message.obtain(original);
            original.sendToTarget();
            assertTrue(h.sendMessage(copy));
            events.expect("7/8/9/payload/true", "7/8/9/payload/true");
        }
    }

    @ForEachQueue
    void handlerRejectsANullLooperAndANullRunnable(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            assertThrows(NullPointerException.class, () -> new Handler((Looper) null));
            assertThrows(NullPointerException.class, () -> lt.handler().post(null));
        }
    }

    @ForEachQueue
    @QuietLogs
    void quitSafelyFromTheLooperThreadRunsWhatIsDueThenEndsTheLoop(MessageQueue.Factory factory) {
        Events events = new Events();
        try (LooperThread lt = LooperThread.start(factory)) {
            Handler h = lt.handler();
            h.post(() -> {
                h.post(events.recorder("due 1"));
                h.postDelayed(events.recorder("future"), HOUR_MILLIS);
                h.post(events.recorder("due 2"));
                lt.looper().quitSafely();
                events.add("quit " + h.post(events.recorder("after quit")));
            });
            events.expect("quit false", "due 1", "due 2");
            lt.join();
            events.add("joined");
            events.expect("joined"); // nothing else ran before the loop ended
        }
    }

    @ForEachQueue
    @QuietLogs
    void quitFromTheLooperThreadDropsWhatIsPendingAndEndsTheLoop(MessageQueue.Factory factory) {
        Events events = new Events();
        try (LooperThread lt = LooperThread.start(factory)) {
            Handler h = lt.handler();
            h.post(() -> {
                h.post(events.recorder("dropped"));
                lt.looper().quit();
                events.add("quit");
            });
            events.expect("quit");
            lt.join();
            events.add("joined");
            events.expect("joined");
        }
    }

    // ---- blocking and waking ----

    @ForEachQueue
    void aDelayedMessageArrivesNotBeforeItsTime(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            BlockingQueue<Long> ranAt = new LinkedBlockingQueue<>();
            long sentAt = Clock.SYSTEM.uptimeMillis();
            lt.handler().postDelayed(() -> ranAt.add(Clock.SYSTEM.uptimeMillis()), 30);
            long at = TestSupport.take(ranAt, "the delayed post");
            assertTrue(at >= sentAt + 30, () -> "sent at " + sentAt + " with a 30 ms delay, ran at " + at);
        }
    }

    @ForEachQueue
    void anEarlierMessageWakesALooperSleepingUntilALaterDeadline(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Events events = new Events();
            Handler h = lt.handler();
            h.postDelayed(events.recorder("an hour later"), HOUR_MILLIS);
            lt.awaitParked();
            h.post(events.recorder("now"));
            events.expect("now");
            lt.awaitParked();
            h.postAtFrontOfQueue(events.recorder("front"));
            events.expect("front");
        }
    }

    /**
     * Any uptime is a valid clock reading, also one beyond the range a queue may pack into a wait word
     * (DeliQueue's holds deadlines below {@code Long.MAX_VALUE >>> 2}): a send must wake the sleeping Looper there
     * too, whether it sleeps without deadline or until a later one. The clock stands still, so only a wake delivers.
     */
    @ForEachQueue
    void aSendWakesTheLooperWhateverTheUptime(MessageQueue.Factory factory) {
        for (long start : new long[] {Long.MAX_VALUE / 4 + 5, Long.MAX_VALUE / 2, Long.MAX_VALUE - HOUR_MILLIS * 2}) {
            try (LooperThread lt = LooperThread.start(factory, new ManualClock(start))) {
                Events events = new Events();
                Handler h = lt.handler();
                lt.awaitParked();
                h.post(events.recorder("without deadline at " + start));
                events.expect("without deadline at " + start);
                h.postAtTime(events.recorder("an hour later"), start + HOUR_MILLIS);
                lt.awaitParked();
                h.post(events.recorder("before the deadline at " + start));
                events.expect("before the deadline at " + start);
            }
        }
    }

    @ForEachQueue
    void aLaterMessageDoesNotPostponeAnEarlierDeadline(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Events events = new Events();
            Handler h = lt.handler();
            h.postDelayed(events.recorder("soon"), 50);
            lt.awaitParked();
            h.postDelayed(events.recorder("an hour later"), HOUR_MILLIS);
            events.expect("soon");
        }
    }

    @ForEachQueue
    void anAsyncMessageWakesALooperHeldByABarrierAndRemovingTheBarrierReleasesTheRest(
            MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Events events = new Events();
            int token = lt.queue().postSyncBarrier();
            lt.handler().post(events.recorder("sync"));
            lt.awaitParked();
            Handler.createAsync(lt.looper()).post(events.recorder("async"));
            events.expect("async");
            lt.awaitParked();
            lt.queue().removeSyncBarrier(token);
            events.expect("sync");
        }
    }

    /**
     * Behind a barrier, with an asynchronous message due later, the Looper sleeps until that message's time: removing
     * the barrier must wake it for the synchronous message the barrier held back, not leave it to that deadline (the
     * held-out spec audit's S21; mutant {@code REMOVAL_WAKE_SKIPS_TIMED_PARK}).
     */
    @ForEachQueue
    void removingTheBarrierWakesALooperParkedBehindItUntilALaterAsyncMessage(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Events events = new Events();
            int token = lt.queue().postSyncBarrier();
            lt.handler().post(events.recorder("sync"));
            Handler.createAsync(lt.looper()).postDelayed(events.recorder("async, an hour later"), HOUR_MILLIS);
            lt.awaitParkedUntilADeadline();
            lt.queue().removeSyncBarrier(token);
            events.expect("sync");
        }
    }

    /**
     * Quit must wake the Looper however it sleeps. Parked is not asleep for good: after the send the Looper may be
     * parked on its way back to sleep, which is where a quit can be missed; hence a few rounds.
     */
    @ForEachQueue
    void quitAndQuitSafelyWakeASleepingLooper(MessageQueue.Factory factory) {
        for (int round = 0; round < 5; round++) {
            for (boolean safely : new boolean[] {false, true}) {
                quitWakesTheLooper(factory, safely, false);
                quitWakesTheLooper(factory, safely, true);
            }
        }
    }

    private static void quitWakesTheLooper(MessageQueue.Factory factory, boolean safely, boolean withDeadline) {
        try (LooperThread lt = LooperThread.start(factory)) {
            if (withDeadline) {
                lt.handler().sendEmptyMessageDelayed(1, HOUR_MILLIS);
            }
            lt.awaitParked();
            if (safely) {
                lt.looper().quitSafely();
            } else {
                lt.looper().quit();
            }
            lt.join();
        }
    }

    /**
     * Each post is made just as the Looper, having run the previous one, goes back to sleep: the window where a
     * wake-up can be lost. A thread spinning on the Looper's count posts after a random short spin, so the posts
     * scan that window. Three kinds of sleep: without deadline, until a later deadline, and held by a barrier
     * (woken only by an async message).
     */
    @ForEachQueue
    void noWakeupIsLostWhenPostingJustAsTheLooperFallsAsleep(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            AtomicInteger ran = new AtomicInteger();
            AtomicBoolean heldRan = new AtomicBoolean();
            Random random = new Random(11);
            Handler h = lt.handler();
            pingPong(h, ran, random, "no deadline");
            h.sendEmptyMessageDelayed(1, HOUR_MILLIS);
            pingPong(h, ran, random, "a later deadline");
            lt.queue().postSyncBarrier();
            h.post(() -> heldRan.set(true));
            pingPong(Handler.createAsync(lt.looper()), ran, random, "a barrier");
            assertFalse(heldRan.get(), "a sync post behind the barrier ran");
        }
    }

    private static void pingPong(Handler h, AtomicInteger ran, Random random, String sleep) {
        for (int i = 0; i < 1_000; i++) {
            int target = ran.get() + 1;
            assertTrue(h.post(ran::incrementAndGet), "post");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_SECONDS);
            for (int spins = 0; ran.get() < target; spins++) {
                if (spins < 10_000) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                    if (System.nanoTime() - deadline > 0) {
                        fail("lost wakeup? post " + i + " did not run within " + TestSupport.TIMEOUT_SECONDS
                                + " s while the Looper slept with " + sleep);
                    }
                }
            }
            for (int spins = random.nextInt(32); spins > 0; spins--) {
                Thread.onSpinWait();
            }
        }
    }

    // ---- idle handlers ----

    @ForEachQueue
    void idleHandlersRunOncePerNextCallWhenTheQueueGoesIdle(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Events events = new Events();
            Handler h = lt.handler();
            int[] runs = {0}; // Looper thread only
            h.post(() -> {
                lt.queue().addIdleHandler(() -> {
                    int n = ++runs[0];
                    events.add("idle " + n);
                    if (n < 3) {
                        h.post(events.recorder("message " + n));
                    }
                    return true;
                });
                events.add("registered");
            });
            events.expect("registered", "idle 1", "message 1", "idle 2", "message 2", "idle 3");
            h.post(events.recorder("posted"));
            events.expect("posted", "idle 4");
        }
    }

    /**
     * A barrier due now with nothing asynchronous behind it blocks the queue, and a blocked queue is not idle (a
     * barrier counts as due, as in Android's next()): the idle handlers wait for the barrier's removal. The clock
     * stands still, so the barrier's time is exactly now.
     */
    /**
     * Idle handlers run the first time nothing is due, even while a message is queued for later: before next()
     * parks until that message. The idle handler moves the clock to the message's time, so only a next() that ran
     * it delivers the message.
     */
    @ForEachQueue
    void idleHandlersRunBeforeTheLooperParksUntilAQueuedFutureMessage(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        AtomicInteger runs = new AtomicInteger();
        q.queue.addIdleHandler(() -> {
            runs.incrementAndGet();
            q.clock.set(QueueFixture.START + 50);
            return false;
        });
        Message m = q.message(q.handler);
        assertTrue(q.handler.sendMessageAtTime(m, QueueFixture.START + 50));
        assertSame(m, q.nextWithinTimeout(), "the message due once the idle handler had run");
        assertEquals(1, runs.get(), "runs of the idle handler");
    }

    /**
     * A barrier at the head holds the sync messages back, but not an asynchronous one queued for later: next() parks
     * until that message's time, not for ever.
     */
    @ForEachQueue
    void behindABarrierNextParksUntilAQueuedAsyncMessageIsDue(MessageQueue.Factory factory) throws InterruptedException {
        QueueFixture q = new QueueFixture(factory);
        q.queue.postSyncBarrier();
        q.enqueue(q.handler, QueueFixture.START); // held back by the barrier
        Message async = q.message(q.async);
        assertTrue(q.async.sendMessageAtTime(async, QueueFixture.START + 20));
        AtomicReference<Message> got = new AtomicReference<>();
        Thread looper = new Thread(() -> got.set(q.queue.next()), "next");
        looper.setDaemon(true);
        looper.start();
        TestSupport.awaitParked(looper);
        q.clock.set(QueueFixture.START + 20);
        looper.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
        assertSame(async, got.get(), "the asynchronous message, delivered at its time");
    }

    @ForEachQueue
    void idleHandlersWaitWhileABarrierDueNowBlocksTheQueue(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory, new ManualClock(100))) {
            Events events = new Events();
            AtomicInteger token = new AtomicInteger();
            lt.handler().post(() -> {
                token.set(lt.queue().postSyncBarrier());
                lt.queue().addIdleHandler(() -> {
                    events.add("idle");
                    return false;
                });
                events.add("blocked");
            });
            events.expect("blocked");
            lt.awaitParked(); // an idle pass would have run the handler before this park
            events.add("removing the barrier");
            lt.queue().removeSyncBarrier(token.get());
            events.expect("removing the barrier", "idle");
        }
    }

    @ForEachQueue
    void anIdleHandlerReturningFalseIsRemoved(MessageQueue.Factory factory) {
        AtomicInteger oneShotRuns = new AtomicInteger();
        idleHandlerRunsOnceThenNoMore(factory, () -> {
            oneShotRuns.incrementAndGet();
            return false;
        }, oneShotRuns);
    }

    @ForEachQueue
    @QuietLogs
    void aThrowingIdleHandlerIsRemovedAndTheLooperKeepsRunning(MessageQueue.Factory factory) {
        AtomicInteger throwerRuns = new AtomicInteger();
        idleHandlerRunsOnceThenNoMore(factory, () -> {
            throwerRuns.incrementAndGet();
            throw new IllegalStateException("thrown by a test idle handler");
        }, throwerRuns);
    }

    /**
     * Registers {@code subject} and a witness that stays registered; drives two idle passes (a message between
     * them); once the Looper has ended, {@code subject} must have run exactly once while the Looper kept working.
     */
    private static void idleHandlerRunsOnceThenNoMore(MessageQueue.Factory factory, MessageQueue.IdleHandler subject,
                                                      AtomicInteger subjectRuns) {
        Events events = new Events();
        try (LooperThread lt = LooperThread.start(factory)) {
            Handler h = lt.handler();
            h.post(() -> {
                lt.queue().addIdleHandler(subject);
                lt.queue().addIdleHandler(() -> {
                    events.add("witness");
                    return true;
                });
            });
            events.expect("witness");
            h.post(events.recorder("message"));
            events.expect("message", "witness");
            lt.looper().quit();
            lt.join();
        }
        assertEquals(1, subjectRuns.get(), "runs of the idle handler over two idle passes");
    }

    @ForEachQueue
    void removeIdleHandlerUnregistersIt(MessageQueue.Factory factory) {
        AtomicInteger removedRuns = new AtomicInteger();
        Events events = new Events();
        try (LooperThread lt = LooperThread.start(factory)) {
            MessageQueue.IdleHandler removed = () -> removedRuns.incrementAndGet() > 0;
            lt.handler().post(() -> {
                lt.queue().addIdleHandler(removed);
                lt.queue().addIdleHandler(() -> {
                    events.add("witness");
                    return true;
                });
                lt.queue().removeIdleHandler(removed);
            });
            events.expect("witness");
            lt.looper().quit();
            lt.join();
        }
        assertEquals(0, removedRuns.get(), "runs of the removed idle handler");
    }

    /** An idle handler that throws an Error (not only an Exception) is removed, and the Looper keeps running. */
    @ForEachQueue
    @QuietLogs
    void anIdleHandlerThatThrowsAnErrorIsRemovedAndTheLooperKeepsRunning(MessageQueue.Factory factory) {
        AtomicInteger runs = new AtomicInteger();
        BlockingQueue<String> ran = new LinkedBlockingQueue<>();
        try (LooperThread lt = LooperThread.start(factory)) {
            Handler h = lt.handler();
            h.post(() -> lt.queue().addIdleHandler(() -> {
                runs.incrementAndGet();
                throw new AssertionError("an Error from a test idle handler");
            }));
            lt.awaitParked(); // the idle pass ran
            assertTrue(h.post(() -> ran.add("after")));
            assertEquals("after", TestSupport.take(ran, "a post after the idle handler threw an Error"));
            lt.awaitParked(); // a second idle pass
            assertEquals(1, runs.get(), "the throwing idle handler was not removed");
        }
    }

    /** A handler quits its own Looper with an idle handler registered: the Looper leaves without an idle pass. */
    @ForEachQueue
    void aQuitLooperRunsNoIdleHandlerOnItsWayOut(MessageQueue.Factory factory) {
        AtomicInteger idleRuns = new AtomicInteger();
        try (LooperThread lt = LooperThread.start(factory)) {
            lt.handler().post(() -> {
                lt.queue().addIdleHandler(() -> {
                    idleRuns.incrementAndGet();
                    return true;
                });
                lt.looper().quit();
            });
            lt.join();
        }
        assertEquals(0, idleRuns.get(), "an idle handler ran after the queue quit");
    }
}
