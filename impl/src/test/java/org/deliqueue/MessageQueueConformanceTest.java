package org.deliqueue;

import static org.deliqueue.QueueFixture.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link MessageQueue} contract, single-threaded and deterministic: a {@link ManualClock} and the test thread as
 * consumer through {@link MessageQueue#poll()} ({@link QueueFixture}). Every test runs against every implementation
 * ({@link ForEachQueue}) and asserts only what the contract promises to all of them.
 */
// obligation: DeliveryOrder
// obligation: ExactlyOnce
// obligation: NoLostMessage
// obligation: NoPushAfterQuit
// obligation: Refinement
// obligation: RemovalReturnsItsSet
// negative control: COLLECT_STOPS_AT_NEWEST, NEGATIVE_WHEN_AT_FRONT, QUIT_DROP_KEEPS_PAYLOAD, QUIT_KEEPS_BARRIERS
class MessageQueueConformanceTest {

    /** Payloads that are {@code equals} but not identical: {@code new Key("k")} twice. */
    private record Key(String name) {
    }

    // ---- order ----

    @ForEachQueue
    void deliversDueMessagesByWhenThenInEnqueueOrder(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Random random = new Random(42);
        Map<Integer, Long> whenOf = new HashMap<>();
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            long when = Math.max(0, START - 5) + random.nextInt(30); // no negative when: see QueueFixture.assumePast
            int id = q.enqueue(q.handler, when);
            whenOf.put(id, when);
            expected.add(id);
        }
        // by when, then enqueue order (ids count up), except front-of-queue messages (when 0): last in first out
        expected.sort(Comparator.<Integer, Long>comparing(whenOf::get)
                .thenComparing(id -> whenOf.get(id) == 0 ? -id : id));

        List<Integer> delivered = new ArrayList<>();
        for (long now = START; now <= START + 30; now++) {
            for (Integer id : q.pollAllAt(now)) {
                final long t = now;
                assertTrue(whenOf.get(id) <= t, () -> "message due at " + whenOf.get(id) + " delivered at " + t);
                delivered.add(id);
            }
        }
        assertEquals(expected, delivered, "delivery order");
    }

    @ForEachQueue
    void frontOfQueueMessagesComeOutLastInFirstOutAheadOfAllOthers(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int due = q.enqueue(q.handler, START + 1);
        Message front1 = q.message(q.handler);
        assertTrue(q.handler.sendMessageAtFrontOfQueue(front1));
        int dueToo = q.enqueue(q.handler, START + 1);
        QueueFixture.Task front2 = q.task();
        assertTrue(q.handler.postAtFrontOfQueue(front2));
        int front3 = q.enqueue(q.handler, 0);
        int later = q.enqueue(q.handler, START + 5);

        assertEquals(List.of(front3, front2.id(), front1.arg1, due, dueToo), q.pollAllAt(START + 1), "due 1 ms later");
        assertEquals(List.of(later), q.pollAllAt(START + 5), "due 5 ms later");
    }

    @ForEachQueue
    void extremeWhensAreOrderedBySignedComparison(MessageQueue.Factory factory) {
        assumeTrue(START < Long.MAX_VALUE / 4, "the extreme whens below are placed around a clock far from the end");
        QueueFixture q = new QueueFixture(factory);
        long[] whens = {5, Long.MAX_VALUE, -1, Long.MIN_VALUE, 3, Long.MAX_VALUE / 2, Long.MAX_VALUE - 1};
        Map<Long, Integer> idAt = new HashMap<>();
        for (long when : whens) {
            idAt.put(when, q.enqueue(q.handler, when));
        }

        assertEquals(List.of(idAt.get(Long.MIN_VALUE), idAt.get(-1L), idAt.get(3L), idAt.get(5L)),
                q.pollAllAt(Math.max(START, 5)), "due at 5 (or the start, if later), in signed order");
        assertEquals(List.of(idAt.get(Long.MAX_VALUE / 2), idAt.get(Long.MAX_VALUE - 1)),
                q.pollAllAt(Long.MAX_VALUE - 1), "due at the end of time");
        assertTrue(q.queue.hasMessages(q.handler), "the Long.MAX_VALUE message is pending, never due");
    }

    /**
     * Messages at one negative {@code when} (an explicit negative uptime) are ordinary timed messages: first in,
     * first out, as at any {@code when} but 0. Only {@code when == 0} is the front of the queue.
     */
    @ForEachQueue
    void messagesAtOneNegativeWhenComeOutInEnqueueOrder(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int first = q.enqueue(q.handler, -5);
        int second = q.enqueue(q.handler, -5);
        int third = q.enqueue(q.handler, -5);
        assertEquals(List.of(first, second, third), q.pollAll());
    }

    @ForEachQueue
    void sendMessageDelayedSaturatesOverflowingDelaysToNeverAndCountsNegativeOnesAsZero(
            MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Message never = q.message(q.handler);
        Message alsoNever = q.message(q.handler);
        Message negative = q.message(q.handler);
        assertTrue(q.handler.sendMessageDelayed(never, Long.MAX_VALUE));
        // From uptime 0 no delay overflows: Long.MAX_VALUE itself is the largest.
        assertTrue(q.handler.sendMessageDelayed(alsoNever, START == 0 ? Long.MAX_VALUE : Long.MAX_VALUE - START + 1));
        assertTrue(q.handler.sendMessageDelayed(negative, -5));

        assertEquals(Long.MAX_VALUE, never.getWhen(), "Long.MAX_VALUE delay");
        assertEquals(Long.MAX_VALUE, alsoNever.getWhen(), "overflowing delay");
        assertEquals(START, negative.getWhen(), "negative delay");
        assertEquals(List.of(negative.arg1), q.pollAllAt(Long.MAX_VALUE - 1), "only the negative delay is due");
        assertTrue(q.queue.hasMessages(q.handler), "the saturated messages are still pending");
    }

    // ---- sync barriers and asynchronous messages ----

    @ForEachQueue
    void barrierHoldsBackSyncMessagesBehindItButNotAsyncOnes(MessageQueue.Factory factory) {
        // At uptime 0 the barrier is a front-of-queue entry, ahead of what was posted before it at the same time:
        // frontOfQueueSyncMessageSortsAheadOfABarrier and ClockAndFaultsTest cover that order.
        QueueFixture.assumePast(1);
        QueueFixture q = new QueueFixture(factory);
        int before = q.enqueue(q.handler, START);
        int token = q.queue.postSyncBarrier();
        int sameTimeAfter = q.enqueue(q.handler, START);
        int later = q.enqueue(q.handler, START + 500);
        int earlier = q.enqueue(q.handler, START - 1);
        Message asyncMsg = q.message(q.handler);
        asyncMsg.setAsynchronous(true);
        int async = q.enqueue(asyncMsg, START + 200);

        assertEquals(List.of(earlier, before, async), q.pollAllAt(START + 1_000),
                "messages ahead of the barrier, then only the asynchronous one");
        assertTrue(q.queue.hasMessages(q.handler), "the held-back messages are pending");

        q.queue.removeSyncBarrier(token);
        assertEquals(List.of(sameTimeAfter, later), q.pollAll(), "released by removing the barrier");
    }

    @ForEachQueue
    void asyncHandlerMessagesAndPostsPassABarrierWhenDue(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int token = q.queue.postSyncBarrier();
        int sync = q.send(q.handler, 1, null, START + 1); // behind the barrier, also at uptime 0
        Message msg = q.async.obtainMessage(2);
        assertTrue(q.async.sendMessage(msg));
        assertTrue(msg.isAsynchronous(), "a createAsync handler makes its messages asynchronous");
        QueueFixture.Task post = q.task();
        assertTrue(q.async.post(post));
        QueueFixture.Task delayed = q.task();
        assertTrue(q.async.postDelayed(delayed, 50));

        List<Integer> delivered = new ArrayList<>();
        for (Message m; (m = q.queue.poll()) != null; ) {
            delivered.add(m.getCallback() instanceof QueueFixture.Task t ? t.id() : -m.what);
        }
        assertEquals(QueueFixture.inDeliveryOrderAtStart(-2, post.id()), delivered, "the due asynchronous messages");
        assertEquals(List.of(delayed.id()), q.pollAllAt(START + 50), "the delayed one, once due");

        q.queue.removeSyncBarrier(token);
        assertEquals(List.of(sync), q.pollAll(), "the sync message, once the barrier is gone");
    }

    @ForEachQueue
    void eachOfSeveralBarriersHoldsBackTheMessagesBehindIt(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int first = q.queue.postSyncBarrier();
        int betweenBarriers = q.enqueue(q.handler, START + 50);
        q.clock.set(START + 100);
        int second = q.queue.postSyncBarrier();
        int behindSecond = q.enqueue(q.handler, START + 100);
        int last = q.enqueue(q.handler, START + 200);
        assertNotEquals(first, second, "barrier tokens are distinct");

        assertEquals(List.of(), q.pollAllAt(START + 1_000), "the first barrier holds everything");
        q.queue.removeSyncBarrier(second);
        assertEquals(List.of(), q.pollAll(), "the first barrier still holds everything");
        q.queue.removeSyncBarrier(first);
        assertEquals(List.of(betweenBarriers, behindSecond, last), q.pollAll(), "both barriers removed");

        int third = q.queue.postSyncBarrier();
        int behindThird = q.enqueue(q.handler, START + 1_000);
        q.clock.set(START + 1_100);
        int fourth = q.queue.postSyncBarrier();
        int behindFourth = q.enqueue(q.handler, START + 1_100);
        assertEquals(List.of(), q.pollAllAt(START + 2_000), "the third barrier holds everything");
        q.queue.removeSyncBarrier(third);
        assertEquals(List.of(behindThird), q.pollAll(), "up to the fourth barrier");
        q.queue.removeSyncBarrier(fourth);
        assertEquals(List.of(behindFourth), q.pollAll(), "behind the fourth barrier");
    }

    @ForEachQueue
    void frontOfQueueSyncMessageSortsAheadOfABarrier(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int token = q.queue.postSyncBarrier();
        int held = q.enqueue(q.handler, START + 1);
        Message front = q.message(q.handler);
        assertTrue(q.handler.sendMessageAtFrontOfQueue(front));

        assertEquals(List.of(front.arg1), q.pollAllAt(START + 1), "the front-of-queue message passes the barrier");
        q.queue.removeSyncBarrier(token);
        assertEquals(List.of(held), q.pollAll());
    }

    @ForEachQueue
    void removingAnUnknownOrAlreadyRemovedBarrierThrowsAndChangesNothing(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int token = q.queue.postSyncBarrier();
        int held = q.enqueue(q.handler, START + 1);
        assertThrows(IllegalStateException.class, () -> q.queue.removeSyncBarrier(token + 1), "never posted");
        assertThrows(IllegalStateException.class, () -> q.queue.removeSyncBarrier(token - 1), "never posted");
        assertEquals(List.of(), q.pollAllAt(START + 1), "the barrier still holds");

        q.queue.removeSyncBarrier(token);
        assertThrows(IllegalStateException.class, () -> q.queue.removeSyncBarrier(token), "removed twice");
        assertEquals(List.of(held), q.pollAll());
        int after = q.enqueue(q.handler, START);
        assertEquals(List.of(after), q.pollAll(), "the queue keeps working");
    }

    @ForEachQueue
    @QuietLogs
    void removeSyncBarrierAfterQuitThrowsAndLeavesTheQuitInForce(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int due = q.enqueue(q.handler, START);
        q.queue.quit(true);
        for (int token = -1; token <= 2; token++) {
            final int t = token;
            assertThrows(IllegalStateException.class, () -> q.queue.removeSyncBarrier(t), "token " + t);
        }
        assertFalse(q.queue.enqueueMessage(q.message(q.handler), START), "enqueue after quit");
        assertEquals(List.of(due), q.pollAll(), "what was due at the quit");
        assertNull(q.nextWithinTimeout(), "next() after the quit");
    }

    /**
     * quit() drops every message, barriers too: a barrier posted before it is gone, and removing it by its token
     * is refused as for a token never posted (the legacy queue's removeAllMessagesLocked drops barriers with the
     * rest). Checked before the Looper runs (the sweep drops what the quit owns) and after.
     */
    @ForEachQueue
    void quitDropsTheBarriersToo(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int before = q.queue.postSyncBarrier();
        int swept = q.queue.postSyncBarrier();
        assertNull(q.poll(), "nothing but barriers");
        q.queue.quit(false);
        assertThrows(IllegalStateException.class, () -> q.queue.removeSyncBarrier(before), "a barrier quit() dropped");
        assertNull(q.nextWithinTimeout(), "next() after the quit");
        assertThrows(IllegalStateException.class, () -> q.queue.removeSyncBarrier(swept), "a barrier quit() dropped");
    }

    @ForEachQueue
    void isIdleIsTrueExactlyWhenNothingIsDueNow(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        assertTrue(q.queue.isIdle(), "empty");
        int id = q.enqueue(q.handler, START + 10);
        assertTrue(q.queue.isIdle(), "a message due later");
        q.clock.set(START + 10);
        assertFalse(q.queue.isIdle(), "a message due now");
        assertEquals(id, q.poll());
        assertTrue(q.queue.isIdle(), "delivered");
        int token = q.queue.postSyncBarrier();
        assertFalse(q.queue.isIdle(), "a barrier due now");
        q.queue.removeSyncBarrier(token);
        assertTrue(q.queue.isIdle(), "barrier removed");
    }

    // ---- idle handlers (the Looper-driven behaviour is in HandlerLooperTest) ----

    @ForEachQueue
    void addingANullIdleHandlerThrowsNullPointerException(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        assertThrows(NullPointerException.class, () -> q.queue.addIdleHandler(null));
        q.queue.removeIdleHandler(() -> true); // never registered: nothing happens
        int id = q.enqueue(q.handler, START);
        assertEquals(List.of(id), q.pollAll(), "the queue keeps working");
    }

    // ---- quit ----

    @ForEachQueue
    void quitDropsEveryMessageAndNextReturnsNull(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        q.enqueue(q.handler, START - 1);
        q.enqueue(q.handler, START + 10);
        q.enqueue(q.handler, 0);
        q.queue.postSyncBarrier();
        q.enqueue(q.async, START);
        q.queue.quit(false);

        assertEquals(List.of(), q.pollAll(), "nothing is delivered after quit");
        assertEquals(List.of(), q.pollAllAt(START + 1_000), "not even later");
        assertNull(q.nextWithinTimeout(), "next() after quit");
    }

    @ForEachQueue
    void quitSafelyDeliversWhatIsDueNowAndDropsTheFuture(MessageQueue.Factory factory) {
        QueueFixture.assumePast(10);
        QueueFixture q = new QueueFixture(factory);
        int past = q.enqueue(q.handler, START - 10);
        int now = q.enqueue(q.handler, START);
        int front = q.enqueue(q.handler, 0);
        int asyncNow = q.send(q.async, 0, null, START);
        q.enqueue(q.handler, START + 1);
        q.send(q.async, 0, null, START + 5_000);
        q.queue.quit(true);

        assertEquals(List.of(front, past, now, asyncNow), q.pollAll(), "what was due at the quit");
        assertEquals(List.of(), q.pollAllAt(START + 10_000), "the future messages were dropped");
        assertNull(q.nextWithinTimeout(), "next() once nothing deliverable remains");
    }

    /**
     * A second quit, of either kind, changes nothing: quit() after quitSafely() does not drop what quitSafely kept
     * (Android's quit returns at once when the queue is already quitting).
     */
    @ForEachQueue
    void aSecondQuitChangesNothing(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int due = q.enqueue(q.handler, START);
        q.enqueue(q.handler, START + 1);
        q.queue.quit(true);
        q.queue.quit(false);
        q.queue.quit(true);

        assertEquals(List.of(due), q.pollAllAt(START + 1), "what the first quit (quitSafely) kept");
        assertNull(q.nextWithinTimeout(), "next() once nothing deliverable remains");
    }

    @ForEachQueue
    void quitSafelyDropsWhatWasDueAfterTheCallEvenOnceTimeHasCaughtUp(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int due = q.enqueue(q.handler, START);
        q.enqueue(q.handler, START + 1);
        q.queue.quit(true);

        assertEquals(List.of(due), q.pollAllAt(START + 1),
                "the message due 1 ms after the quit call is dropped, though due when the consumer looks");
    }

    /**
     * quitSafely keeps every message accepted before the call and due at the call's uptime, even one pushed after
     * the consumer read its "now" for the step that discovers the quit. The clock acts at that read, as a
     * producer and a quitter on other threads could: time moves on by 1 ms, a message due then is enqueued, and
     * quitSafely is called.
     */
    @ForEachQueue
    void quitSafelyKeepsAMessageDueAtTheQuitThoughTheConsumerReadTheClockBeforeIt(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        HookedClock clock = new HookedClock(START);
        MessageQueue queue = factory.create(true, clock);
        Message m = q.message(q.handler);
        int id = m.arg1;
        clock.onNextRead(() -> {
            clock.set(START + 1);
            assertTrue(queue.enqueueMessage(m, START + 1), "enqueue before the quit");
            queue.quit(true);
        });
        List<Integer> delivered = new ArrayList<>();
        for (int step = 0; step < 3; step++) {
            Message d = queue.poll();
            if (d != null) {
                delivered.add(QueueFixture.idOf(d));
            }
        }
        assertEquals(List.of(id), delivered,
                "accepted before quitSafely and due at the call's uptime: must be delivered, once");
    }

    /** A manual clock that runs an action (once) the next time a queue reads it, then returns the time read. */
    private static final class HookedClock implements Clock {
        private final ManualClock time;
        private Runnable hook;

        HookedClock(long start) {
            time = new ManualClock(start);
        }

        void onNextRead(Runnable action) {
            hook = action;
        }

        void set(long t) {
            time.set(t);
        }

        @Override
        public long uptimeMillis() {
            long now = time.uptimeMillis();
            Runnable h = hook;
            hook = null;
            if (h != null) {
                h.run();
            }
            return now;
        }
    }

    @ForEachQueue
    void quitSafelyWithABarrierDeliversTheAsyncMessagesAndNextReturnsNull(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        q.queue.postSyncBarrier();
        q.clock.set(START + 1);
        q.enqueue(q.handler, START + 1); // due at the quit, behind the barrier (also when that was posted at uptime 0)
        int async = q.enqueue(q.async, START + 1);
        q.queue.quit(true);

        assertEquals(List.of(async), q.pollAll(), "the barrier still holds the sync message back");
        assertNull(q.nextWithinTimeout(), "next() does not wait for the held-back message");
    }

    /**
     * What quit() drops is given back: its payload, target and callback are cleared, as for a removed message, so a
     * dropped message keeps nothing reachable.
     */
    @ForEachQueue
    void aMessageDroppedByQuitHoldsNoPayload(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Message m = q.message(q.handler, 3, new Object());
        m.callback = () -> { };
        assertTrue(q.handler.sendMessageAtTime(m, START + 100));
        q.queue.quit(false);
        assertNull(q.nextWithinTimeout(), "next() after quit");
        assertNull(m.obj, "the dropped message's payload");
        assertNull(m.getTarget(), "the dropped message's target");
        assertNull(m.getCallback(), "the dropped message's callback");
    }

    @ForEachQueue
    @QuietLogs
    void everyEnqueueAfterQuitReturnsFalseAndIsNeverDelivered(MessageQueue.Factory factory) {
        for (boolean safely : new boolean[] {false, true}) {
            QueueFixture q = new QueueFixture(factory);
            q.queue.quit(safely);
            String quit = safely ? "after quitSafely: " : "after quit: ";
            assertFalse(q.queue.enqueueMessage(q.message(q.handler), START), quit + "enqueueMessage");
            assertFalse(q.handler.sendEmptyMessage(1), quit + "sendEmptyMessage");
            assertFalse(q.handler.post(q.task()), quit + "post");
            assertFalse(q.handler.postAtFrontOfQueue(q.task()), quit + "postAtFrontOfQueue");
            assertFalse(q.async.sendMessageDelayed(q.message(q.async), 10), quit + "async sendMessageDelayed");
            assertEquals(List.of(), q.pollAllAt(START + 100), quit + "nothing is delivered");
            assertNull(q.nextWithinTimeout(), quit + "next()");
        }
    }

    /**
     * As on Android, a send the quitting queue refuses recycles the message: it comes back cleared (what, args,
     * obj, target, callback and when), and still in use, so neither recycling nor sending it again is allowed.
     */
    @ForEachQueue
    @QuietLogs
    void aRefusedSendClearsTheMessageAndLeavesItInUse(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        q.queue.quit(true);
        Message sent = q.message(q.handler, 7, "payload");
        sent.arg2 = 9;
        Message posted = Message.obtain(q.handler, q.task());
        assertFalse(q.handler.sendMessageAtTime(sent, START + 5), "sendMessageAtTime after quit");
        assertFalse(q.handler.sendMessageAtTime(posted, START + 5), "a post after quit");
        for (Message m : new Message[] {sent, posted}) {
            String which = m == sent ? "the message: " : "the post: ";
            assertEquals(List.of(0, 0, 0, 0L), List.of(m.what, m.arg1, m.arg2, m.getWhen()),
                    which + "what, arg1, arg2, when");
            assertNull(m.obj, which + "obj");
            assertNull(m.getTarget(), which + "target");
            assertNull(m.getCallback(), which + "callback");
            assertTrue(m.isInUse(), which + "in use");
            assertThrows(IllegalStateException.class, m::recycle, which + "recycle");
            assertThrows(IllegalStateException.class, () -> q.handler.sendMessage(m), which + "send again");
        }
    }

    @ForEachQueue
    void postSyncBarrierAfterQuitThrows(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        q.queue.quit(true);
        assertThrows(IllegalStateException.class, q.queue::postSyncBarrier);
    }

    @ForEachQueue
    void quittingAQueueThatMayNotQuitThrowsAndChangesNothing(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        MessageQueue mainQueue = factory.create(false, q.clock);
        Message first = q.message(q.handler);
        assertTrue(mainQueue.enqueueMessage(first, START));

        assertThrows(IllegalStateException.class, () -> mainQueue.quit(false), "quit");
        assertThrows(IllegalStateException.class, () -> mainQueue.quit(true), "quitSafely");

        Message second = q.message(q.handler);
        assertTrue(mainQueue.enqueueMessage(second, START), "still accepts messages");
        for (Message m : QueueFixture.inDeliveryOrderAtStart(first, second)) {
            assertSame(m, mainQueue.poll());
        }
        assertNull(mainQueue.poll());
    }

    // ---- removal and queries ----

    @ForEachQueue
    void removeMessagesMatchesHandlerWhatAndIdenticalObject(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Key key = new Key("k");
        q.send(q.handler, 1, key, START);
        q.send(q.handler, 1, new Key("k"), START);
        q.send(q.handler, 1, null, START);
        int otherWhat = q.send(q.handler, 2, key, START);
        int otherHandler = q.send(q.other, 1, key, START);

        assertEquals(1, q.queue.removeMessages(q.handler, 1, key), "only the identical object");
        assertFalse(q.queue.hasMessages(q.handler, 1, key));
        assertTrue(q.queue.hasEqualMessages(q.handler, 1, key), "the equal copy is still there");
        assertEquals(2, q.queue.removeMessages(q.handler, 1, null), "null matches any object");
        assertEquals(0, q.queue.removeMessages(q.handler, 1, null), "nothing left to remove");
        assertEquals(QueueFixture.inDeliveryOrderAtStart(otherWhat, otherHandler), q.pollAll(), "left untouched");
    }

    @ForEachQueue
    void removeEqualMessagesComparesObjectsWithEquals(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Key key = new Key("k");
        q.send(q.handler, 1, key, START);
        q.send(q.handler, 1, new Key("k"), START);
        int nullObj = q.send(q.handler, 1, null, START);
        int unequal = q.send(q.handler, 1, new Key("other"), START);
        int otherHandler = q.send(q.other, 1, key, START);

        assertEquals(2, q.queue.removeEqualMessages(q.handler, 1, new Key("k")));
        assertFalse(q.queue.hasEqualMessages(q.handler, 1, key));
        assertEquals(QueueFixture.inDeliveryOrderAtStart(nullObj, unequal, otherHandler), q.pollAll(),
                "left untouched");
    }

    @ForEachQueue
    void removeMessagesIgnoresCallbacksSoItRemovesPostsWithWhatZero(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        QueueFixture.Task post = q.task();
        assertTrue(q.handler.post(post));
        q.send(q.handler, 0, null, START);
        int what1 = q.send(q.handler, 1, null, START);

        assertTrue(q.queue.hasMessages(q.handler, 0, null), "a post has what == 0");
        assertEquals(2, q.queue.removeMessages(q.handler, 0, null), "the post and the what == 0 message");
        assertEquals(List.of(what1), q.pollAll());
    }

    @ForEachQueue
    void removeCallbacksMatchesRunnableAndIdenticalToken(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Runnable r = () -> { };
        Runnable r2 = () -> { };
        Key token = new Key("t");
        q.post(q.handler, r, token, START);
        q.post(q.handler, r, new Key("t"), START);
        q.post(q.handler, r, null, START);
        int otherRunnable = q.post(q.handler, r2, token, START);
        int otherHandler = q.post(q.other, r, token, START);
        int message = q.send(q.handler, 0, token, START);

        assertEquals(1, q.queue.removeCallbacks(q.handler, r, token), "only the identical token");
        assertTrue(q.queue.hasCallbacks(q.handler, r, null), "the other posts of r remain");
        assertEquals(2, q.queue.removeCallbacks(q.handler, r, null), "null matches any token");
        assertFalse(q.queue.hasCallbacks(q.handler, r, null));
        assertEquals(0, q.queue.removeCallbacks(q.handler, null, null), "a null runnable matches nothing");
        assertEquals(QueueFixture.inDeliveryOrderAtStart(otherRunnable, otherHandler, message), q.pollAll(),
                "left untouched");
    }

    @ForEachQueue
    void removeCallbacksAndMessagesMatchesIdenticalTokenOrEverythingOfTheHandler(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Key token = new Key("t");
        q.send(q.handler, 1, token, START);
        q.post(q.handler, () -> { }, token, START + 5);
        q.send(q.handler, 2, new Key("t"), START);
        q.send(q.handler, 3, null, START + 10);
        int otherHandler = q.send(q.other, 1, token, START);

        assertEquals(2, q.queue.removeCallbacksAndMessages(q.handler, token), "message and post with the token");
        assertTrue(q.queue.hasMessages(q.handler), "the others remain");
        assertEquals(2, q.queue.removeCallbacksAndMessages(q.handler, null), "null: all of the handler");
        assertFalse(q.queue.hasMessages(q.handler));
        assertTrue(q.queue.hasMessages(q.other), "another handler's message");
        assertEquals(List.of(otherHandler), q.pollAllAt(START + 10));
    }

    @ForEachQueue
    void removeCallbacksAndEqualMessagesComparesTokensWithEquals(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Key token = new Key("t");
        q.send(q.handler, 1, token, START);
        q.post(q.handler, () -> { }, new Key("t"), START);
        int nullToken = q.send(q.handler, 2, null, START);
        int otherHandler = q.send(q.other, 1, token, START);

        assertEquals(2, q.queue.removeCallbacksAndEqualMessages(q.handler, new Key("t")));
        assertEquals(QueueFixture.inDeliveryOrderAtStart(nullToken, otherHandler), q.pollAll(), "left untouched");
        assertEquals(0, q.queue.removeCallbacksAndEqualMessages(q.handler, null), "nothing left");
    }

    @ForEachQueue
    void hasQueriesSeeOnlyPendingMessagesOfTheirHandler(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Key token = new Key("t");
        Runnable r = () -> { };
        q.send(q.handler, 1, token, START + 10);
        q.post(q.handler, r, token, START + 10);

        MessageQueue mq = q.queue;
        assertTrue(mq.hasMessages(q.handler, 1, token), "identical object");
        assertTrue(mq.hasMessages(q.handler, 1, null), "any object");
        assertFalse(mq.hasMessages(q.handler, 1, new Key("t")), "equal but not identical object");
        assertTrue(mq.hasEqualMessages(q.handler, 1, new Key("t")), "equal object");
        assertFalse(mq.hasMessages(q.handler, 2, null), "another what");
        assertFalse(mq.hasMessages(q.other, 1, null), "another handler");
        assertTrue(mq.hasCallbacks(q.handler, r, null), "the runnable");
        assertTrue(mq.hasCallbacks(q.handler, r, token), "the runnable with its token");
        assertFalse(mq.hasCallbacks(q.handler, r, new Key("t")), "an equal but not identical token");
        assertFalse(mq.hasCallbacks(q.handler, () -> { }, null), "another runnable");
        assertFalse(mq.hasCallbacks(q.other, r, null), "another handler's runnable");
        assertTrue(mq.hasMessages(q.handler), "any message of the handler");
        assertFalse(mq.hasMessages(q.other), "nothing of the other handler");
        assertFalse(mq.hasMessages(null), "a null handler");
        assertEquals(0, mq.removeMessages(null, 1, null), "a null handler removes nothing");
        assertTrue(q.handler.hasMessages(1) && q.handler.hasMessages(1, token)
                && q.handler.hasEqualMessages(1, new Key("t")) && q.handler.hasCallbacks(r)
                && q.handler.hasMessagesOrCallbacks(), "the Handler's queries");

        assertEquals(2, q.pollAllAt(START + 10).size(), "both delivered");
        assertFalse(mq.hasMessages(q.handler), "a delivered message is not pending");
        assertFalse(mq.hasCallbacks(q.handler, r, null), "a delivered post is not pending");
    }

    @ForEachQueue
    void handlerRemoveMethodsRemoveFromTheQueue(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Key token = new Key("t");
        Runnable r = () -> { };
        Handler h = q.handler;
        q.send(h, 1, null, START);
        q.send(h, 2, token, START);
        q.send(h, 3, new Key("t"), START);
        q.post(h, r, null, START);
        q.post(h, r, token, START);
        q.send(h, 4, token, START);
        q.send(h, 5, new Key("t"), START);
        int kept = q.send(q.other, 1, token, START);

        h.removeMessages(1);
        assertFalse(h.hasMessages(1), "removeMessages(what)");
        h.removeMessages(2, token);
        assertFalse(h.hasMessages(2), "removeMessages(what, object)");
        h.removeEqualMessages(3, new Key("t"));
        assertFalse(h.hasMessages(3), "removeEqualMessages");
        h.removeCallbacks(r, token);
        assertTrue(h.hasCallbacks(r), "removeCallbacks(r, token) keeps the post without the token");
        h.removeCallbacks(r);
        assertFalse(h.hasCallbacks(r), "removeCallbacks(r)");
        h.removeCallbacksAndMessages(token);
        assertFalse(h.hasMessages(4), "removeCallbacksAndMessages(token)");
        h.removeCallbacksAndEqualMessages(new Key("t"));
        assertFalse(h.hasMessagesOrCallbacks(), "removeCallbacksAndEqualMessages");
        assertEquals(List.of(kept), q.pollAll(), "another handler's message");
    }

    /**
     * Handler's methods match {@code object} and {@code token} by identity, except those named "Equal": an equal
     * but distinct key matches nothing through the first, and what it equals through the second.
     */
    @ForEachQueue
    void handlerMethodsMatchKeysByIdentityUnlessNamedEqual(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Handler h = q.handler;
        Key token = new Key("t");
        Key equal = new Key("t");
        Runnable r = () -> { };
        q.send(h, 1, token, START);
        q.post(h, r, token, START);

        assertFalse(h.hasMessages(1, equal), "hasMessages(what, object) with an equal object");
        assertTrue(h.hasEqualMessages(1, equal), "hasEqualMessages");
        h.removeMessages(1, equal);
        assertTrue(h.hasMessages(1), "removeMessages(what, object) with an equal object");
        h.removeCallbacks(r, equal);
        assertTrue(h.hasCallbacks(r), "removeCallbacks(r, token) with an equal token");
        h.removeCallbacksAndMessages(equal);
        assertTrue(h.hasMessages(1) && h.hasCallbacks(r), "removeCallbacksAndMessages with an equal token");
        h.removeEqualMessages(1, equal);
        assertFalse(h.hasMessages(1), "removeEqualMessages");
        assertTrue(h.hasCallbacks(r), "removeEqualMessages leaves the post");
        h.removeCallbacksAndEqualMessages(equal);
        assertFalse(h.hasMessagesOrCallbacks(), "removeCallbacksAndEqualMessages");
    }

    @ForEachQueue
    void removalNeverRemovesABarrier(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int token = q.queue.postSyncBarrier();
        q.send(q.handler, 0, null, START + 1);
        int held = q.send(q.other, 0, null, START + 1);

        assertEquals(1, q.queue.removeCallbacksAndMessages(q.handler, null), "the message, not the barrier");
        assertEquals(0, q.queue.removeMessages(q.handler, 0, null), "nothing else");
        assertEquals(List.of(), q.pollAllAt(START + 1), "the barrier still holds");
        q.queue.removeSyncBarrier(token);
        assertEquals(List.of(held), q.pollAll());
    }

    // ---- bad input ----

    @ForEachQueue
    void aMessageWithoutTargetIsRejectedAndChangesNothing(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        int accepted = q.enqueue(q.handler, START);
        Message noTarget = new Message();
        assertThrows(IllegalArgumentException.class, () -> q.queue.enqueueMessage(noTarget, START));
        assertThrows(IllegalArgumentException.class, noTarget::sendToTarget);
        assertFalse(noTarget.isInUse(), "a rejected message is not claimed");
        assertEquals(List.of(accepted), q.pollAll(), "the queue keeps working");
    }

    @ForEachQueue
    void enqueueingAMessageInUseThrowsAndItIsStillDeliveredOnceUnchanged(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Message m = q.message(q.handler);
        int id = q.enqueue(m, START + 10);

        assertThrows(IllegalStateException.class, () -> q.queue.enqueueMessage(m, START), "enqueueMessage");
        assertThrows(IllegalStateException.class, () -> q.handler.sendMessageAtTime(m, START), "send again");
        assertThrows(IllegalStateException.class, () -> q.other.sendMessage(m), "send through another handler");
        assertThrows(IllegalStateException.class, () -> q.async.sendMessageAtFrontOfQueue(m), "async, front");
        assertThrows(IllegalStateException.class, () -> m.setAsynchronous(true), "setAsynchronous");
        assertThrows(IllegalStateException.class, () -> m.setTarget(null), "setTarget(null): legacy's barrier mark");
        assertThrows(IllegalStateException.class, () -> m.setTarget(q.other), "setTarget");
        assertThrows(IllegalStateException.class, m::recycle, "recycle");
        assertEquals(START + 10, m.getWhen(), "when unchanged");
        assertSame(q.handler, m.getTarget(), "target unchanged");
        assertFalse(m.isAsynchronous(), "still synchronous");

        int other = q.enqueue(q.handler, START + 5);
        assertEquals(List.of(), q.pollAll(), "nothing due yet");
        assertEquals(List.of(other, id), q.pollAllAt(START + 10), "the message is delivered once, at its time");
        assertEquals(List.of(), q.pollAllAt(START + 100), "and only once");
    }

    /**
     * Two threads enqueue the same message at once, round after round: exactly one is accepted, and it is delivered
     * once ({@link #exactlyOneHasEachMessage}).
     */
    @ForEachQueue
    void sameMessageEnqueuedFromTwoThreadsAtOnceIsAcceptedExactlyOnce(MessageQueue.Factory factory)
            throws InterruptedException {
        QueueFixture q = new QueueFixture(factory);
        exactlyOneHasEachMessage(q, 200_000, Taker.enqueue("enqueueMessage", m -> q.queue.enqueueMessage(m, START)),
                Taker.enqueue("sendMessageAtTime", m -> q.handler.sendMessageAtTime(m, START)));
    }

    /**
     * {@code recycle()} racing an enqueue of the same message, then another {@code recycle()}: exactly one of the two
     * has the message, and it is delivered once if the enqueue had it. recycle() used to test IN_USE, then clear the
     * message and pool it: an enqueue that claimed it in between was accepted too, and the pool then held a message
     * the queue held (its next link cut, its flags reset by the next obtain()); two recycles both pooled it, linked
     * to itself, and two obtain() calls handed it out. recycle() now claims the message by the same CAS as an
     * enqueue before it clears anything (shown to fail with the check-then-clear recycle: both had the message within
     * 500 rounds on either queue, against an enqueue and against a recycle).
     */
    @ForEachQueue
    void recycleRacingAnEnqueueOrARecycleOfTheSameMessageLetsExactlyOneHaveIt(MessageQueue.Factory factory)
            throws InterruptedException {
        QueueFixture q = new QueueFixture(factory);
        Taker recycle = new Taker("recycle", m -> {
            m.recycle();
            return true;
        }, false);
        exactlyOneHasEachMessage(q, 10_000, recycle,
                Taker.enqueue("enqueueMessage", m -> q.queue.enqueueMessage(m, START)));
        exactlyOneHasEachMessage(q, 10_000, recycle, recycle);
    }

    /** A call that takes a message: true if it has it, IllegalStateException if in use; enqueues: into the queue. */
    private record Taker(String name, Predicate<Message> take, boolean enqueues) {
        static Taker enqueue(String name, Predicate<Message> take) {
            return new Taker(name, take, true);
        }
    }

    /**
     * Two threads take the same fresh message at once, round after round: exactly one has it, and the queue delivers it
     * once if that one enqueued it, else never. The two threads live across the rounds and wait for each by spinning
     * (yielding: on 2 cores a pure spin starves the other), so their calls overlap far more often than threads a
     * barrier releases (that form, 300 rounds, missed a claim by check-then-set; this one finds it within a few
     * thousand rounds).
     */
    private static void exactlyOneHasEachMessage(QueueFixture q, int rounds, Taker taker0, Taker taker1)
            throws InterruptedException {
        Message[] current = new Message[1];
        AtomicInteger go = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicInteger accepted = new AtomicInteger();
        AtomicReference<Taker> winner = new AtomicReference<>();
        boolean racesARecycle = !taker0.enqueues() || !taker1.enqueues();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (Taker taker : List.of(taker0, taker1)) {
            Thread t = new Thread(() -> {
                try {
                    for (int r = 1; r <= rounds; r++) {
                        while (go.get() < r) {
                            if (stop.get()) {
                                return;
                            }
                            Thread.yield();
                        }
                        Message m = current[0]; // published by go's increment
                        if (took(() -> taker.take().test(m), racesARecycle)) {
                            accepted.incrementAndGet();
                            winner.set(taker);
                        }
                        done.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "racing-" + taker.name());
            t.setDaemon(true);
            t.start();
        }
        try {
            for (int r = 1; r <= rounds; r++) {
                Message m = q.message(q.handler);
                int id = m.arg1;
                current[0] = m;
                accepted.set(0);
                go.set(r);
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_SECONDS);
                while (done.get() < 2 * r) {
                    assertNull(failure.get());
                    assertTrue(System.nanoTime() - giveUp < 0, "round " + r + " did not finish");
                    Thread.yield();
                }
                assertEquals(1, accepted.get(), "round " + r + ": " + taker0.name() + " and " + taker1.name()
                        + " that had the message");
                assertEquals(winner.get().enqueues() ? List.of(id) : List.of(), q.pollAll(),
                        "round " + r + ": delivered once if " + winner.get().name() + " enqueued it, else never");
            }
        } finally {
            stop.set(true);
        }
    }

    /**
     * True if the enqueue (or recycle) had the message, false if it was refused: IllegalStateException, in use; or,
     * where it races a recycle that had it, IllegalArgumentException, the message's target already cleared.
     */
    private static boolean took(BooleanSupplier take, boolean racesARecycle) {
        try {
            assertTrue(take.getAsBoolean(), "a queue that is not quitting refused a message");
            return true;
        } catch (IllegalStateException inUse) {
            return false;
        } catch (IllegalArgumentException noTarget) {
            if (racesARecycle) {
                return false;
            }
            throw noTarget;
        }
    }

    // ---- dump ----

    @ForEachQueue
    void dumpWritesOneLinePerPendingMessageThenASummary(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        q.enqueue(q.handler, START);
        q.enqueue(q.handler, START + 5);
        q.enqueue(q.async, START + 10);
        StringBuilder out = new StringBuilder();
        q.queue.dump(out, "  > ");

        String[] lines = out.toString().split("\n");
        assertEquals(4, lines.length, () -> "three messages and a summary:\n" + out);
        for (String line : lines) {
            assertTrue(line.startsWith("  > "), () -> "every line starts with the prefix:\n" + out);
        }
    }

    /**
     * A payload whose {@code toString} removes its own message while a dump writes it, through either dump: each
     * pending message is listed once, and nothing else. The legacy queue's own dump wrote under its lock while it
     * walked its list: the removal, re-entering the lock, recycled the message and cut the walk there (shown to
     * fail so: one message listed of two; the Printer's dump, which walked a snapshot, did not). Both dumps now
     * write copies taken as they walked; the removal still takes the message.
     */
    @ForEachQueue
    void aPayloadWhoseToStringRemovesItsMessageLeavesTheDumpWhole(MessageQueue.Factory factory) {
        for (boolean throughPrinter : List.of(false, true)) {
            QueueFixture q = new QueueFixture(factory);
            Object selfRemoving = new Object() {
                @Override
                public String toString() {
                    q.queue.removeMessages(q.handler, 1, null);
                    return "self-removing";
                }
            };
            q.enqueue(q.message(q.handler, 1, selfRemoving), START + 1);
            q.enqueue(q.message(q.handler, 2, null), START + 2);
            StringBuilder out = new StringBuilder();
            if (throughPrinter) {
                q.queue.dump(line -> out.append(line).append('\n'), "", q.handler);
            } else {
                q.queue.dump(out, "");
            }
            String dump = out.toString();
            assertEquals(2, dump.lines().filter(l -> l.startsWith("Message ")).count(), () -> "listed:\n" + dump);
            assertTrue(dump.contains("obj=self-removing") && dump.contains("(Total messages: 2,"), () -> dump);
            assertFalse(q.queue.hasMessages(q.handler, 1, null), "the removal inside toString took its message");
            assertTrue(q.queue.hasMessages(q.handler, 2, null));
        }
    }

    /**
     * A payload whose {@code toString} waits for a post from another thread: a dump does not hold the queue while it
     * writes, so the post goes through. The legacy dump wrote under its lock: the post waited for the dump, which
     * waited for the post until the payload gave up (shown to fail so).
     */
    @ForEachQueue
    void aPayloadWhoseToStringWaitsForAPostDoesNotHoldUpTheQueue(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Message other = q.message(q.handler);
        AtomicBoolean posted = new AtomicBoolean();
        Object waitsForAPost = new Object() {
            @Override
            public String toString() {
                try {
                    posted.set(CompletableFuture.supplyAsync(() -> q.queue.enqueueMessage(other, START))
                            .get(2, TimeUnit.SECONDS));
                } catch (Exception e) { // timed out: the post is held up
                    posted.set(false);
                }
                return "waits-for-a-post";
            }
        };
        q.enqueue(q.message(q.handler, 1, waitsForAPost), START + 1);
        q.queue.dump(new StringBuilder(), "");
        assertTrue(posted.get(), "a post from another thread went through while the dump wrote");
    }

    /** What quit() dropped is not listed, though the Looper has not run since (DeliQueue listed it until 2026-11-27). */
    @ForEachQueue
    void dumpListsNothingTheQuitDropped(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        q.enqueue(q.handler, START);
        q.enqueue(q.handler, START + 5);
        q.queue.quit(false);
        StringBuilder out = new StringBuilder();
        q.queue.dump(out, "");
        assertEquals(0, q.queue.getMessageCount(), "getMessageCount after quit()");
        assertTrue(out.toString().startsWith("(Total messages: 0,"), () -> "dump after quit():\n" + out);
    }

    // ---- everything at once, against a reference model ----

    @ForEachQueue
    void randomOperationsAgreeWithAReferenceModel(MessageQueue.Factory factory) {
        for (long seed = 1; seed <= 6; seed++) {
            new RandomRun(new QueueFixture(factory), seed).run(1_500);
        }
    }

    /**
     * One random sequence of enqueues (ordinary, front-of-queue, asynchronous, never due), polls, clock steps,
     * barriers, removals and queries, each checked against {@link QueueModel} as it happens.
     */
    private static final class RandomRun {
        private final QueueFixture q;
        private final long seed;
        private final Random random;
        private final QueueModel model = new QueueModel();
        private final Object[] objects = {null, new Key("a"), new Key("b"), new Key("c")};
        private final List<Integer> barriers = new ArrayList<>();
        private final Deque<String> recent = new ArrayDeque<>();
        private int step;

        RandomRun(QueueFixture q, long seed) {
            this.q = q;
            this.seed = seed;
            this.random = new Random(seed);
        }

        void run(int steps) {
            for (step = 0; step < steps; step++) {
                int op = random.nextInt(100);
                if (op < 35) {
                    enqueue();
                } else if (op < 60) {
                    log("poll");
                    check(model.poll(now()), q.poll(), "poll");
                } else if (op < 72) {
                    long by = random.nextInt(8);
                    log("advance " + by);
                    q.clock.advance(by);
                } else if (op < 78) {
                    postOrRemoveBarrier();
                } else if (op < 86) {
                    removeSome();
                } else if (op < 94) {
                    Handler h = randomHandler();
                    int what = random.nextInt(4);
                    Object obj = randomObject();
                    log("hasMessages " + what + " " + obj);
                    check(model.hasMessages(h, what, obj), q.queue.hasMessages(h, what, obj), "hasMessages");
                } else {
                    log("isIdle");
                    check(model.isIdle(now()), q.queue.isIdle(), "isIdle");
                }
            }
            for (int token : barriers) {
                q.queue.removeSyncBarrier(token);
                model.removeBarrier(token);
            }
            q.clock.set(Long.MAX_VALUE - 8);
            log("drain");
            List<Integer> expected = new ArrayList<>();
            for (Integer id; (id = model.poll(now())) != null; ) {
                expected.add(id);
            }
            check(expected, q.pollAll(), "the final drain");
        }

        private void enqueue() {
            Handler h = randomHandler();
            int what = random.nextInt(4);
            Object obj = randomObject();
            Message m = q.message(h, what, obj);
            int kind = random.nextInt(20);
            long when = kind < 2 ? 0 : kind < 3 ? Long.MAX_VALUE - random.nextInt(3)
                    : Math.max(0, now() - 3) + random.nextInt(30); // the model knows no negative when
            boolean viaHandler = random.nextBoolean();
            if (!viaHandler && random.nextInt(5) == 0) {
                m.setAsynchronous(true);
            }
            boolean async = m.isAsynchronous();
            log((viaHandler ? "send #" : "enqueue #") + m.arg1 + " when=" + when + " what=" + what + " obj=" + obj
                    + (async ? " async" : ""));
            if (viaHandler) {
                assertTrue(h.sendMessageAtTime(m, when), "sendMessageAtTime");
            } else {
                q.enqueue(m, when);
            }
            model.enqueue(m.arg1, h, what, obj, when, async);
        }

        private void postOrRemoveBarrier() {
            if (barriers.size() < 3 && (barriers.isEmpty() || random.nextBoolean())) {
                int token = q.queue.postSyncBarrier();
                log("postSyncBarrier -> " + token);
                model.postBarrier(token, now());
                barriers.add(token);
            } else {
                int token = barriers.remove(random.nextInt(barriers.size()));
                log("removeSyncBarrier " + token);
                q.queue.removeSyncBarrier(token);
                model.removeBarrier(token);
            }
        }

        private void removeSome() {
            Handler h = randomHandler();
            int what = random.nextInt(4);
            Object obj = randomObject();
            switch (random.nextInt(3)) {
                case 0 -> {
                    log("removeMessages " + what + " " + obj);
                    check(model.removeMessages(h, what, obj), q.queue.removeMessages(h, what, obj), "removeMessages");
                }
                case 1 -> {
                    Object equal = obj instanceof Key k ? new Key(k.name()) : null;
                    log("removeEqualMessages " + what + " " + equal);
                    check(model.removeEqualMessages(h, what, equal), q.queue.removeEqualMessages(h, what, equal),
                            "removeEqualMessages");
                }
                default -> {
                    log("removeCallbacksAndMessages " + obj);
                    check(model.removeCallbacksAndMessages(h, obj), q.queue.removeCallbacksAndMessages(h, obj),
                            "removeCallbacksAndMessages");
                }
            }
        }

        private Handler randomHandler() {
            int i = random.nextInt(3);
            return i == 0 ? q.handler : i == 1 ? q.other : q.async;
        }

        private Object randomObject() {
            return objects[random.nextInt(objects.length)];
        }

        private long now() {
            return q.clock.uptimeMillis();
        }

        private void log(String op) {
            recent.addLast(step + ": " + op + " (now " + now() + ")");
            if (recent.size() > 25) {
                recent.removeFirst();
            }
        }

        private void check(Object expected, Object actual, String what) {
            assertEquals(expected, actual, () -> "seed " + seed + ", step " + step + ", " + what
                    + "; the last operations:\n  " + String.join("\n  ", recent));
        }
    }
}
