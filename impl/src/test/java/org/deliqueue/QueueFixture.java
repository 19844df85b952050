package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A queue under test driven by hand: a {@link ManualClock} starting at {@link #START}, and the test thread as the
 * consumer through {@link MessageQueue#poll()}. Handlers need a Looper, so the fixture prepares one on a short-lived
 * helper thread and keeps only its queue: nothing ever loops on it.
 *
 * <p>Every message the fixture makes carries a fresh id ({@code arg1}, or the {@link Task} of a post), so tests
 * compare delivery orders as lists of ids. Messages are made with {@code new Message()}, never from the pool, so
 * a message the test still references is never reused by the legacy queue's pool.
 */
final class QueueFixture {
    /**
     * The clock's start: 1000 by default; the build runs the suite again from 0 (barriers and posts at uptime 0
     * become front-of-queue entries) and from near {@code Long.MAX_VALUE} ({@code deliqueue.fixture.start}).
     */
    static final long START = Long.getLong("deliqueue.fixture.start", 1_000);

    /**
     * The order in which messages enqueued in the order given, all with {@code when} {@link #START}, are delivered:
     * enqueue order, except at uptime 0, where they are front-of-queue messages and come out last in first out.
     */
    @SafeVarargs
    static <T> List<T> inDeliveryOrderAtStart(T... inEnqueueOrder) {
        List<T> order = new ArrayList<>(List.of(inEnqueueOrder));
        if (START == 0) {
            Collections.reverse(order);
        }
        return order;
    }

    /**
     * Skips the rest of a test that needs an ordinary time {@code millis} before {@link #START}: from uptime
     * {@code millis} down there is none (when 0 means front of the queue, and against a negative {@code when} the two
     * queues order front-of-queue messages differently, as documented in {@link MessageQueue}).
     */
    static void assumePast(long millis) {
        assumeTrue(START - millis > 0, () -> "needs an ordinary time " + millis + " ms before the start " + START);
    }

    final ManualClock clock = new ManualClock(START);
    final MessageQueue queue;
    /** A plain handler. */
    final Handler handler;
    /** Another plain handler on the same queue, whose messages removals of {@link #handler} must not touch. */
    final Handler other;
    /** A handler whose messages are all asynchronous. */
    final Handler async;
    private int lastId;

    QueueFixture(MessageQueue.Factory factory) {
        Looper looper = TestSupport.preparedOnNewThread(factory, clock);
        queue = looper.getQueue();
        handler = new Handler(looper);
        other = new Handler(looper);
        async = Handler.createAsync(looper);
    }

    /** A runnable whose only job is to be recognised by its id. */
    record Task(int id) implements Runnable {
        @Override
        public void run() {
        }
    }

    /** A new message for {@code h} with a fresh id. */
    Message message(Handler h) {
        return message(h, 0, null);
    }

    /**
     * A new message for {@code h} with a fresh id, {@code what} and {@code obj}; asynchronous if {@code h} is
     * {@link #async}, as that handler would make it.
     */
    Message message(Handler h, int what, Object obj) {
        Message m = new Message();
        m.setTarget(h);
        m.setAsynchronous(h == async);
        m.what = what;
        m.obj = obj;
        m.arg1 = ++lastId;
        return m;
    }

    /** A new task with a fresh id. */
    Task task() {
        return new Task(++lastId);
    }

    /** Enqueues a new message of {@code h} at {@code when} through the queue; returns its id. */
    int enqueue(Handler h, long when) {
        return enqueue(message(h), when);
    }

    /** Enqueues {@code m} through the queue, which must accept it; returns its id. */
    int enqueue(Message m, long when) {
        assertTrue(queue.enqueueMessage(m, when), () -> "the queue refused " + m);
        return m.arg1;
    }

    /** Sends a new message of {@code h} with {@code what} and {@code obj} at {@code when}; returns its id. */
    int send(Handler h, int what, Object obj, long when) {
        Message m = message(h, what, obj);
        assertTrue(h.sendMessageAtTime(m, when), () -> "the queue refused " + m);
        return m.arg1;
    }

    /** Posts {@code r} through {@code h} with {@code token} at {@code when}, as a message carrying a fresh id. */
    int post(Handler h, Runnable r, Object token, long when) {
        Message m = Message.obtain(h, r);
        m.obj = token;
        m.arg1 = ++lastId;
        assertTrue(h.sendMessageAtTime(m, when), () -> "the queue refused " + m);
        return m.arg1;
    }

    /** The id a fixture message carries. */
    static int idOf(Message m) {
        return m.getCallback() instanceof Task t ? t.id() : m.arg1;
    }

    /** One consumer step: the id of the message delivered now, or null. */
    Integer poll() {
        Message m = queue.poll();
        return m == null ? null : idOf(m);
    }

    /** Polls until nothing is due; returns the ids delivered, in order. */
    List<Integer> pollAll() {
        List<Integer> ids = new ArrayList<>();
        for (Message m; (m = queue.poll()) != null; ) {
            ids.add(idOf(m));
            if (ids.size() > 1_000_000) {
                fail("poll() keeps returning messages: " + m);
            }
        }
        return ids;
    }

    /** Moves the clock to {@code time} and polls until nothing is due. */
    List<Integer> pollAllAt(long time) {
        clock.set(time);
        return pollAll();
    }

    /**
     * Calls the blocking {@link MessageQueue#next()} on a helper thread (the consumer for that call) and returns
     * what it returned; fails if it blocks longer than the timeout.
     */
    Message nextWithinTimeout() {
        return TestSupport.onNewThread("next", queue::next);
    }
}
