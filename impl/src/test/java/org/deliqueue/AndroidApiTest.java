package org.deliqueue;

import static org.deliqueue.QueueFixture.START;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

/**
 * The parts of Android's {@code android.os} API that ported code and CTS-style tests use beyond the queue contract,
 * on every queue: Handlers on the current thread's Looper, {@code Message.copyFrom}, the message count,
 * {@code dump(Printer, prefix)} with a Handler filter, and the main Looper's queue kind and clock.
 */
class AndroidApiTest {

    @ForEachQueue
    void aHandlerWithoutLooperFailsWithAndroidsMessage(MessageQueue.Factory factory) {
        List<String> messages = TestSupport.onNewThread("no-looper", () -> List.of(
                assertThrows(RuntimeException.class, Handler::new).getMessage(),
                assertThrows(RuntimeException.class, () -> new Handler(msg -> true)).getMessage()));
        for (String message : messages) {
            assertTrue(message.matches("Can't create handler inside thread Thread\\[no-looper,.*]"
                    + " that has not called Looper\\.prepare\\(\\)"), message);
        }
    }

    /**
     * {@code new Handler()} and {@code new Handler(callback)} bind to the Looper of the thread that makes them. (A
     * manual clock at the fixture's start, which decides the order: at uptime 0 sends are front-of-queue, LIFO.)
     */
    @ForEachQueue
    void handlersMadeWithoutALooperArgumentUseTheCurrentThreadsLooper(MessageQueue.Factory factory) {
        List<String> handled = TestSupport.onNewThread("looper", () -> {
            Looper.prepare(factory, new ManualClock(START));
            List<String> events = new ArrayList<>();
            Handler plain = new Handler() {
                @Override
                public void handleMessage(Message msg) {
                    events.add("handleMessage " + msg.what);
                }
            };
            Handler withCallback = new Handler(msg -> events.add("callback " + msg.what));
            assertSame(Looper.myLooper(), plain.getLooper());
            assertSame(Looper.myLooper(), withCallback.getLooper());
            plain.sendEmptyMessage(1);
            withCallback.sendEmptyMessage(2);
            Looper.myLooper().quitSafely();
            Looper.loop();
            return events;
        });
        assertEquals(QueueFixture.inDeliveryOrderAtStart("handleMessage 1", "callback 2"), handled);
    }

    /**
     * A subclass may override {@code sendMessageAtTime}: every send and post goes through it, except the
     * front-of-queue ones, which Android enqueues directly (with {@code when} 0, whatever the override would do).
     */
    @ForEachQueue
    void frontOfQueueSendsBypassAnOverriddenSendMessageAtTime(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        List<String> seen = new ArrayList<>();
        Handler h = new Handler(q.handler.getLooper()) {
            @Override
            public boolean sendMessageAtTime(Message msg, long uptimeMillis) {
                seen.add("at " + uptimeMillis);
                return super.sendMessageAtTime(msg, uptimeMillis);
            }
        };
        assertTrue(h.sendEmptyMessageDelayed(1, 5));
        assertTrue(h.post(q.task()));
        assertTrue(h.sendMessageAtFrontOfQueue(Message.obtain()));
        assertTrue(h.postAtFrontOfQueue(q.task()));
        assertEquals(List.of("at " + (START + 5), "at " + START), seen);
        assertEquals(4, q.queue.getMessageCount());
    }

    /**
     * postDelayed and postAtTime with a token tag the post with it (the token's removal finds it); createAsync
     * with a callback makes an asynchronous handler that keeps its callback; an asynchronous handler's sends are all
     * asynchronous, front-of-queue ones included.
     */
    @ForEachQueue
    void postsWithATokenAreTaggedAndCreateAsyncKeepsItsCallback(MessageQueue.Factory factory) {
        QueueFixture f = new QueueFixture(factory);
        Object token = new Object();
        Runnable delayed = () -> { };
        Runnable timed = () -> { };
        assertTrue(f.handler.postDelayed(delayed, token, 5));
        assertTrue(f.handler.postAtTime(timed, token, START + 5));
        f.handler.removeCallbacksAndMessages(token);
        assertFalse(f.handler.hasCallbacks(delayed), "postDelayed(r, token, delay) did not tag its post");
        assertFalse(f.handler.hasCallbacks(timed), "postAtTime(r, token, uptime) did not tag its post");

        List<Integer> handled = new ArrayList<>();
        Handler async = Handler.createAsync(f.handler.getLooper(), msg -> handled.add(msg.what));
        Message sent = async.obtainMessage(1);
        assertTrue(async.sendMessageAtTime(sent, START + 10));
        assertTrue(sent.isAsynchronous(), "createAsync(looper, callback) made a synchronous handler");
        async.dispatchMessage(async.obtainMessage(2));
        assertEquals(List.of(2), handled, "createAsync(looper, callback) lost its callback");

        Message front = f.async.obtainMessage(3);
        assertTrue(f.async.sendMessageAtFrontOfQueue(front));
        assertTrue(front.isAsynchronous(), "an asynchronous handler's front-of-queue send is synchronous");
    }

    /**
     * copyFrom copies the payload and the asynchronous flag, not the queue's flags or the due time: a copy of a message the queue
     * has dispatched (DeliQueue: IN_USE and REMOVED for ever) is a fresh message that can be sent and delivered.
     */
    @ForEachQueue
    void copyFromCopiesPayloadAndAsyncButNoQueueState(MessageQueue.Factory factory) {
        QueueFixture f = new QueueFixture(factory);
        Object payload = new Object();
        Message original = f.message(f.async, 7, payload);
        original.arg2 = 9;
        int id = f.enqueue(original, START);
        Message copy = new Message();
        copy.copyFrom(original);
        assertTrue(original.isInUse());
        assertFalse(copy.isInUse(), "copyFrom copied IN_USE");
        assertEquals(0, copy.getWhen(), "copyFrom copies no when (as Android)");
        assertTrue(copy.isAsynchronous(), "copyFrom dropped the asynchronous flag");
        assertEquals(List.of(7, id, 9), List.of(copy.what, copy.arg1, copy.arg2));
        assertSame(payload, copy.obj);
        assertNull(copy.getTarget(), "copyFrom copies no target (as Android)");

        assertEquals(List.of(id), f.pollAll());
        Message copyOfDispatched = new Message();
        copyOfDispatched.copyFrom(original); // original is now dispatched: retired or pooled
        copyOfDispatched.copyFrom(copy);
        assertFalse(copyOfDispatched.isInUse());
        assertTrue(f.async.sendMessageAtTime(copyOfDispatched, START));
        assertEquals(List.of(id), f.pollAll(), "the copy is delivered");
    }

    /** The count: pending messages only (barriers, removed, delivered and quit-dropped ones excluded). */
    @ForEachQueue
    @QuietLogs
    void theMessageCountCountsPendingMessagesOnly(MessageQueue.Factory factory) {
        QueueFixture f = new QueueFixture(factory);
        assertEquals(0, f.queue.getMessageCount());
        f.send(f.handler, 1, null, START + 10);
        f.send(f.handler, 2, null, START + 20);
        f.send(f.other, 1, null, START + 30);
        f.send(f.async, 1, null, START + 40);
        int token = f.queue.postSyncBarrier();
        assertEquals(4, f.queue.getMessageCount(), "four messages and a barrier");
        f.handler.removeMessages(2);
        assertEquals(3, f.queue.getMessageCount(), "after a removal");
        f.queue.removeSyncBarrier(token);
        assertEquals(1, f.pollAllAt(START + 10).size());
        assertEquals(2, f.queue.getMessageCount(), "after a delivery");
        f.queue.quit(true);
        assertEquals(0, f.queue.getMessageCount(), "after quitSafely dropped the future ones");
    }

    /**
     * dump(Printer, prefix) prints the queue's own dump line by line; with a Handler, only that handler's messages,
     * numbered among all, and the totals. Looper and Handler put their own line first and indent the rest.
     */
    @ForEachQueue
    void dumpPrintsTheQueueAndTheHandlerFilterKeepsOnlyThatHandlersMessages(MessageQueue.Factory factory) {
        QueueFixture f = new QueueFixture(factory);
        int mine1 = f.send(f.handler, 1, null, START + 10);
        int theirs = f.send(f.other, 1, null, START + 20);
        int mine2 = f.send(f.handler, 2, null, START + 30);

        List<String> all = new ArrayList<>();
        f.queue.dump(all::add, "> ");
        StringBuilder expected = new StringBuilder();
        f.queue.dump(expected, "> ");
        assertEquals(expected.toString().lines().toList(), all, "dump(Printer) prints dump(StringBuilder)");

        List<String> mine = new ArrayList<>();
        f.queue.dump(mine::add, "> ", f.handler);
        assertEquals(3, mine.size(), () -> "two messages and the totals: " + mine);
        assertTrue(mine.stream().limit(2).allMatch(l -> l.startsWith("> Message ")), mine::toString);
        assertTrue(mine.get(0).contains("arg1=" + mine1) || mine.get(1).contains("arg1=" + mine1), mine::toString);
        assertTrue(mine.get(0).contains("arg1=" + mine2) || mine.get(1).contains("arg1=" + mine2), mine::toString);
        assertTrue(mine.stream().noneMatch(l -> l.contains("arg1=" + theirs + " ")), mine::toString);
        assertEquals("> (Total messages: 3, matching: 2)", mine.get(2));
        assertTrue(all.containsAll(mine.subList(0, 2)), () -> "each message keeps its number among all: " + mine);

        Looper looper = f.handler.getLooper();
        List<String> viaLooper = new ArrayList<>();
        looper.dump(viaLooper::add, "# ", f.handler);
        assertEquals("# " + looper, viaLooper.get(0));
        assertEquals(mine.stream().map(l -> "#   " + l.substring(2)).toList(), viaLooper.subList(1, viaLooper.size()));

        List<String> viaHandler = new ArrayList<>();
        f.handler.dumpMine(viaHandler::add, "");
        assertEquals(f.handler + " @ " + START, viaHandler.get(0));
        assertEquals("  " + looper, viaHandler.get(1));
        assertEquals(mine.stream().map(l -> "    " + l.substring(2)).toList(), viaHandler.subList(2, viaHandler.size()));

        List<String> everything = new ArrayList<>();
        f.handler.dump(everything::add, "");
        assertEquals(all.stream().map(l -> "    " + l.substring(2)).toList(), everything.subList(2, everything.size()));
    }

    /**
     * prepareMainLooper takes the queue kind and clock; the main queue may not quit (Android's
     * {@code IllegalStateException("Main thread not allowed to quit.")}); there is one main Looper, and a second
     * prepareMainLooper throws and leaves its thread as it was, without a Looper.
     */
    @ForEachQueue
    void prepareMainLooperUsesTheQueueKindAndClockItIsGiven(MessageQueue.Factory factory) {
        ManualClock clock = new ManualClock(START);
        try {
            Looper main = TestSupport.onNewThread("main", () -> {
                Looper.prepareMainLooper(factory, clock);
                return Looper.myLooper();
            });
            assertSame(main, Looper.getMainLooper());
            assertEquals(factory.create(true, clock).getClass(), main.getQueue().getClass(), "queue kind");
            assertSame(clock, main.getQueue().clock(), "clock");
            assertEquals("Main thread not allowed to quit.",
                    assertThrows(IllegalStateException.class, main::quit, "quit").getMessage(), "Android's message");
            assertEquals("Main thread not allowed to quit.",
                    assertThrows(IllegalStateException.class, main::quitSafely, "quitSafely").getMessage());
            Looper afterRefusal = TestSupport.onNewThread("second main", () -> {
                assertThrows(IllegalStateException.class, () -> Looper.prepareMainLooper(factory, clock));
                return Looper.myLooper();
            });
            assertNull(afterRefusal, "a refused prepareMainLooper left its thread a Looper");
        } finally {
            synchronized (Looper.MAIN_LOCK) {
                Looper.main = null; // forgets the main Looper, so that the next test can prepare its own
            }
        }
    }

    /** A null runnable matches no message: not even the plain messages, whose callback is null. */
    @ForEachQueue
    void aNullRunnableHasNoCallbacks(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        q.enqueue(q.handler, START + 10); // a plain message: its callback is null
        assertFalse(q.queue.hasCallbacks(q.handler, null, null), "hasCallbacks(h, null, null)");
        assertFalse(q.handler.hasCallbacks(null), "Handler.hasCallbacks(null)");
    }
}
