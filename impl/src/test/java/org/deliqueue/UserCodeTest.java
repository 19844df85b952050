package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.CompletableFuture;

/**
 * User code as an adversary, on every queue: a removal key whose {@code equals} answers differently on each call or
 * on each thread, takes a lock its caller holds, re-enters the queue, or is changed after the call returned; and a
 * handler that copies into the message it is handling. The guarantee under test (docs/design.md, "User code"): a
 * removal's predicate runs only on the thread that called the removal, only inside the call, at most once per
 * message; whatever it answers, no message is lost or counted twice.
 *
 * <p>Many of these keys make the Looper run while their {@code equals} runs ({@link #looperPasses}): each call on
 * the caller's thread posts an asynchronous probe and waits until the Looper has run it, so the Looper looks at its
 * heap heads - and, in a design that lets it, asks the key - in the middle of the removal.
 */
// obligation: UserCodeOnCaller
// obligation: NoLostMessage
// obligation: RemovalReturnsItsSet
// negative control: LOOPER_ASKS_PREDICATE, ASKS_ABOUT_OWN_POSTS
class UserCodeTest {
    private static final long PROBE_MILLIS = 500;

    /**
     * Runs one pass of the Looper of {@code async} (an asynchronous post that it must run) and waits for it, at most
     * {@link #PROBE_MILLIS}. A caller inside the legacy queue's removal holds its monitor, so the Looper cannot run
     * then: the wait is skipped.
     */
    private static void looperPasses(Handler async) {
        if (Thread.holdsLock(async.getLooper().getQueue())) {
            return;
        }
        CountDownLatch ran = new CountDownLatch(1);
        async.post(ran::countDown);
        try {
            ran.await(PROBE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The lost message. The key matches {@code hit}, and {@code fickle} only when asked off the caller's thread;
     * every call on the caller's thread lets the Looper run. A design in which the Looper asks the key again (for
     * a heap head a pending removal may cover) tombstones {@code fickle} for a removal that never counts it: it
     * is then neither delivered, nor counted, nor found. Here the removal takes {@code hit} alone and {@code fickle}
     * stays.
     */
    @ForEachQueue
    void aKeyThatMatchesOnlyOffTheCallersThreadLosesNoMessage(MessageQueue.Factory factory) {
        try (LooperThread looper = LooperThread.start(factory)) {
            Handler h = looper.handler();
            Handler async = Handler.createAsync(looper.looper());
            Object hit = "hit";
            Object fickle = "fickle";
            h.sendMessageDelayed(Message.obtain(h, 1, fickle), TestSupport.HOUR_MILLIS);
            h.sendMessageDelayed(Message.obtain(h, 1, hit), TestSupport.HOUR_MILLIS);
            looper.awaitParked();
            Thread caller = Thread.currentThread();
            List<String> askedOff = Collections.synchronizedList(new ArrayList<>());
            Object key = new Object() {
                @Override
                public boolean equals(Object payload) {
                    if (Thread.currentThread() != caller) {
                        askedOff.add(payload + " on " + Thread.currentThread().getName());
                        return true;
                    }
                    looperPasses(async);
                    return payload == hit;
                }

                @Override
                public int hashCode() {
                    return 0;
                }
            };
            int removed = h.getLooper().getQueue().removeEqualMessages(h, 1, key);
            looperPasses(async);
            assertTrue(h.hasMessages(1, fickle), "fickle was lost: not delivered, not counted, not found");
            assertEquals(1, removed, "the removal counts hit, and only hit");
            assertEquals(List.of(), askedOff, "the key was asked off the caller's thread (UserCodeOnCaller)");
            assertFalse(h.hasMessages(1, hit), "hit is still queued after the removal counted it");
            assertEquals(1, h.getLooper().getQueue().removeMessages(h, 1, fickle), "fickle cannot be removed");
        }
    }

    /**
     * The deadlock. The caller holds a lock that the key's {@code equals} also takes, removes, then posts and waits
     * for its post while still holding the lock. A Looper that asks the key blocks on that lock, so the post never
     * runs. Here the Looper never asks it.
     */
    @ForEachQueue
    void aKeyThatTakesALockTheCallerHoldsNeverBlocksTheLooper(MessageQueue.Factory factory)
            throws InterruptedException {
        try (LooperThread looper = LooperThread.start(factory)) {
            Handler h = looper.handler();
            Handler async = Handler.createAsync(looper.looper());
            Object lock = new Object();
            Object hit = "hit";
            h.sendMessageDelayed(Message.obtain(h, 1, "other"), TestSupport.HOUR_MILLIS);
            h.sendMessageDelayed(Message.obtain(h, 1, hit), TestSupport.HOUR_MILLIS);
            looper.awaitParked();
            Object key = new Object() {
                @Override
                public boolean equals(Object payload) {
                    synchronized (lock) {
                        if (Thread.currentThread() != looper.thread()) {
                            looperPasses(async);
                        }
                        return payload == hit;
                    }
                }

                @Override
                public int hashCode() {
                    return 0;
                }
            };
            CountDownLatch posted = new CountDownLatch(1);
            boolean ran;
            synchronized (lock) {
                assertEquals(1, h.getLooper().getQueue().removeEqualMessages(h, 1, key));
                h.post(posted::countDown);
                ran = posted.await(TestSupport.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            assertTrue(ran, "the Looper is blocked in the key's equals on a lock its caller holds");
            assertTrue(h.hasMessages(1, "other"), "the message the key did not match left the queue");
        }
    }

    /** A key changed after the call returned changes nothing: the call asked it, and nobody asks it again. */
    @ForEachQueue
    void aKeyChangedAfterTheCallReturnedChangesNothing(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        AtomicBoolean matches = new AtomicBoolean(false);
        Object key = new Object() {
            @Override
            public boolean equals(Object payload) {
                return matches.get();
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        int kept = q.send(q.handler, 5, "payload", QueueFixture.START);
        assertEquals(0, q.queue.removeEqualMessages(q.handler, 5, key));
        matches.set(true);
        assertEquals(List.of(kept), q.pollAll(), "the message the key did not match when asked");
    }

    /**
     * At most once per message, on the caller's thread, inside the call, while the Looper delivers and another
     * thread removes: every call of the key is recorded with its thread and whether the removal had returned.
     */
    @ForEachQueue
    void aKeyIsAskedOnlyByItsCallerInsideTheCallAtMostOncePerMessage(MessageQueue.Factory factory)
            throws InterruptedException {
        try (LooperThread looper = LooperThread.start(factory)) {
            Handler h = looper.handler();
            Handler async = Handler.createAsync(looper.looper());
            int messages = 40;
            for (int i = 0; i < messages; i++) {
                h.sendMessageDelayed(Message.obtain(h, 1, i), i % 2 == 0 ? 0 : TestSupport.HOUR_MILLIS);
            }
            AtomicReference<Thread> caller = new AtomicReference<>();
            AtomicBoolean returned = new AtomicBoolean();
            Map<Object, AtomicInteger> asked = new ConcurrentHashMap<>();
            List<String> violations = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger calls = new AtomicInteger();
            Object key = new Object() {
                @Override
                public boolean equals(Object payload) {
                    if (Thread.currentThread() != caller.get() || returned.get()) {
                        violations.add(payload + " asked on " + Thread.currentThread().getName()
                                + (returned.get() ? " after the call returned" : ""));
                    }
                    if (asked.computeIfAbsent(payload, p -> new AtomicInteger()).incrementAndGet() > 1) {
                        violations.add(payload + " asked twice");
                    }
                    if (calls.incrementAndGet() % 8 == 0) {
                        looperPasses(async);
                    }
                    return ((Integer) payload) % 3 == 0;
                }

                @Override
                public int hashCode() {
                    return 0;
                }
            };
            Thread other = new Thread(() -> h.removeMessages(1, 7), "other remover");
            Thread remover = new Thread(() -> {
                caller.set(Thread.currentThread());
                h.removeEqualMessages(1, key);
                returned.set(true);
            }, "remover");
            other.start();
            remover.start();
            remover.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
            other.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
            looperPasses(async);
            looperPasses(async);
            assertFalse(remover.isAlive(), "the removal did not return");
            assertEquals(List.of(), violations);
        }
    }

    /**
     * A key whose {@code equals} re-enters the queue: it posts, queries and removes on the same queue from inside
     * the removal. Nothing is lost or counted twice: each message is delivered, or counted by exactly one removal.
     */
    @ForEachQueue
    void aKeyThatReentersTheQueueLosesNothing(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        List<Integer> sent = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sent.add(q.send(q.handler, 5, "five", QueueFixture.START));
        }
        int doomed = q.send(q.handler, 9, "nine", QueueFixture.START);
        AtomicInteger inner = new AtomicInteger();
        List<Integer> postedInside = new ArrayList<>();
        AtomicBoolean firstCall = new AtomicBoolean(true);
        Object key = new Object() {
            @Override
            public boolean equals(Object payload) {
                if (firstCall.getAndSet(false)) {
                    postedInside.add(q.send(q.handler, 5, "five", QueueFixture.START));
                    assertTrue(q.queue.hasMessages(q.handler, 9, null), "a query from inside equals");
                    inner.set(q.queue.removeMessages(q.handler, 9, null));
                }
                return "five".equals(payload);
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        int removed = q.queue.removeEqualMessages(q.handler, 5, key);
        assertEquals(1, inner.get(), "the removal from inside equals took the what=9 message");
        List<Integer> delivered = q.pollAll();
        assertFalse(delivered.contains(doomed), "the message removed from inside equals was delivered");
        assertTrue(removed >= sent.size(), "the removal missed a message queued before the call: " + removed);
        assertEquals(sent.size() + postedInside.size(), removed + delivered.size(),
                "lost or counted twice: removed " + removed + ", delivered " + delivered);
    }

    /**
     * A key whose {@code equals} posts, whenever it is asked, a message it would match (say it logs through a Handler
     * of the same queue). The removal and then a query end: each asks about what was queued, not about what its own
     * key posts from inside the call (the legacy queue asks about a snapshot), and those posts stay queued. A walk
     * that asked about its key's own posts would never end: the key gives up after 1,000 calls here. The first time
     * it is asked, the key also makes a call of its own into the queue (a query) before posting: once that nested
     * call has ended, the removal is again the walk asking, so the key's later posts are still its own.
     */
    @ForEachQueue
    void aKeyThatPostsWheneverItIsAskedLetsTheCallEnd(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        for (int i = 0; i < 3; i++) {
            q.send(q.handler, 5, "x", QueueFixture.START);
        }
        AtomicInteger calls = new AtomicInteger();
        AtomicBoolean matches = new AtomicBoolean(true);
        Object key = new Object() {
            @Override
            public boolean equals(Object payload) {
                if (calls.incrementAndGet() > 1_000) {
                    throw new IllegalStateException("asked 1,000 times: the walk asks about its own key's posts");
                }
                if (calls.get() == 1) {
                    assertFalse(q.queue.hasMessages(q.handler, 9, null), "a query from inside equals");
                }
                q.send(q.handler, 5, "x", QueueFixture.START);
                return matches.get() && "x".equals(payload);
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        assertEquals(3, q.queue.removeEqualMessages(q.handler, 5, key), "the three messages queued before the call");
        assertEquals(3, calls.getAndSet(0), "asked once about each of them, and about nothing the key posted");
        matches.set(false);
        assertFalse(q.queue.hasEqualMessages(q.handler, 5, key), "the key matches nothing now");
        assertEquals(3, calls.get(), "the query asked about the three posts of the removal's key, and nothing else");
        assertEquals(6, q.queue.removeMessages(q.handler, 5, null), "what the key posted stays queued");
    }

    /**
     * copyFrom into the message being handled works, as Android's: the payload is copied. (It used to throw, as
     * {@code setAsynchronous} refuses a message in use.)
     */
    @ForEachQueue
    void copyFromIntoTheMessageBeingHandledCopiesThePayload(MessageQueue.Factory factory) {
        Message template = new Message();
        template.what = 42;
        template.obj = "copied";
        AtomicReference<Object> seen = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        try (LooperThread looper = LooperThread.start(factory)) {
            CountDownLatch handled = new CountDownLatch(1);
            Handler h = new Handler(looper.looper()) {
                @Override
                public void handleMessage(Message msg) {
                    try {
                        msg.copyFrom(template);
                        seen.set(msg.what + " " + msg.obj);
                    } catch (Throwable t) {
                        thrown.set(t);
                    } finally {
                        handled.countDown();
                    }
                }
            };
            h.sendEmptyMessage(1);
            assertTrue(handled.await(TestSupport.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the message was not handled");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertNull(thrown.get(), () -> "copyFrom threw: " + thrown.get());
        assertEquals("42 copied", seen.get());
    }

    /**
     * A query's predicate ({@code equals} of {@code hasEqualMessages}): on the caller's thread, inside the call, at
     * most once per message, while the Looper runs; it may re-enter the queue (a post from inside it).
     */
    @ForEachQueue
    void aQuerysKeyIsAskedOnlyByItsCallerAtMostOncePerMessageAndMayReenter(MessageQueue.Factory factory) {
        try (LooperThread looper = LooperThread.start(factory)) {
            Handler h = looper.handler();
            Handler async = Handler.createAsync(looper.looper());
            for (int i = 0; i < 10; i++) {
                h.sendMessageDelayed(Message.obtain(h, 1, i), TestSupport.HOUR_MILLIS);
            }
            Thread caller = Thread.currentThread();
            List<String> violations = Collections.synchronizedList(new ArrayList<>());
            Map<Object, AtomicInteger> asked = new ConcurrentHashMap<>();
            Object key = new Object() {
                @Override
                public boolean equals(Object payload) {
                    if (Thread.currentThread() != caller) {
                        violations.add(payload + " asked on " + Thread.currentThread().getName());
                    }
                    if (asked.computeIfAbsent(payload, p -> new AtomicInteger()).incrementAndGet() > 1) {
                        violations.add(payload + " asked twice");
                    }
                    if (payload.equals(5)) {
                        h.sendMessageDelayed(Message.obtain(h, 1, 100), TestSupport.HOUR_MILLIS);
                        looperPasses(async);
                    }
                    return false;
                }

                @Override
                public int hashCode() {
                    return 0;
                }
            };
            assertFalse(h.hasEqualMessages(1, key), "nothing equals the key");
            assertEquals(List.of(), violations);
            assertTrue(h.hasMessages(1, 100), "the post from inside equals");
        }
    }

    /**
     * Handler code (handleMessage, a posted Runnable, a Handler.Callback) runs on the Looper's thread, and may post,
     * query, remove (its own message is no longer queued) and quit from there.
     */
    @ForEachQueue
    void handlerCodeRunsOnTheLooperAndMayReenterTheQueue(MessageQueue.Factory factory) throws InterruptedException {
        try (LooperThread looper = LooperThread.start(factory)) {
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            Handler[] self = new Handler[1];
            self[0] = new Handler(looper.looper(), msg -> {
                seen.add("callback on looper: " + (Thread.currentThread() == looper.thread()));
                return false;
            }) {
                @Override
                public void handleMessage(Message msg) {
                    seen.add("handleMessage on looper: " + (Thread.currentThread() == looper.thread()));
                    seen.add("own message queued: " + hasMessages(1));
                    sendEmptyMessageDelayed(2, TestSupport.HOUR_MILLIS);
                    seen.add("removed: " + getLooper().getQueue().removeMessages(this, 2, null));
                    post(() -> {
                        seen.add("runnable on looper: " + (Thread.currentThread() == looper.thread()));
                        done.countDown();
                    });
                }
            };
            self[0].sendEmptyMessage(1);
            assertTrue(done.await(TestSupport.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the re-entrant post never ran");
            assertEquals(List.of("callback on looper: true", "handleMessage on looper: true", "own message queued: false",
                    "removed: 1", "runnable on looper: true"), seen);
        }
    }

    /**
     * An idle handler runs on the Looper's thread, inside {@code next()}, outside any lock: it may post (the post is
     * then delivered), query and remove idle handlers. What it posts is pending while it runs: the Looper is busy
     * with it. (The message that sets the Looper going, what 4, may be delivered before or after the idle pass,
     * depending on when it lands: the handler does not ask about it.)
     */
    @ForEachQueue
    void anIdleHandlerRunsOnTheLooperAndMayReenterTheQueue(MessageQueue.Factory factory) throws InterruptedException {
        try (LooperThread looper = LooperThread.start(factory)) {
            Handler h = looper.handler();
            CountDownLatch ran = new CountDownLatch(1);
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            MessageQueue queue = looper.queue();
            queue.addIdleHandler(new MessageQueue.IdleHandler() {
                @Override
                public boolean queueIdle() {
                    seen.add("on looper: " + (Thread.currentThread() == looper.thread()));
                    h.sendEmptyMessage(3);
                    seen.add("has its own post: " + h.hasMessages(3));
                    queue.removeIdleHandler(this);
                    h.post(ran::countDown);
                    return true;
                }
            });
            h.sendEmptyMessage(4);
            assertTrue(ran.await(TestSupport.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the idle handler's post never ran");
            assertEquals(List.of("on looper: true", "has its own post: true"), seen);
            assertFalse(h.hasMessages(3), "its post was delivered before the one queued after it");
        }
    }

    /**
     * The Clock is user code too: read on the thread of each operation that needs the time (a delayed post, a
     * barrier, quitSafely) and on the Looper's; a removal never reads it. Its reading is never cached across calls.
     */
    @ForEachQueue
    void theClockIsReadOnTheCallersThreadsAndTheLoopersOnly(MessageQueue.Factory factory) {
        Map<String, Boolean> readers = new ConcurrentHashMap<>();
        AtomicBoolean recording = new AtomicBoolean();
        Clock clock = () -> {
            if (recording.get()) {
                readers.put(Thread.currentThread().getName(), true);
            }
            return Clock.SYSTEM.uptimeMillis();
        };
        try (LooperThread looper = LooperThread.start(factory, clock)) {
            Handler h = looper.handler();
            h.sendEmptyMessageDelayed(1, TestSupport.HOUR_MILLIS);
            looper.awaitParked();
            recording.set(true);
            Thread remover = new Thread(() -> h.removeMessages(1), "remover");
            remover.start();
            try {
                remover.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            Thread poster = new Thread(() -> h.sendEmptyMessageDelayed(2, 1), "poster");
            poster.start();
            try {
                poster.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            looper.awaitParked();
            recording.set(false);
            assertFalse(readers.containsKey("remover"), "a removal read the clock");
            assertTrue(readers.containsKey("poster"), "a delayed post did not read the clock on its thread");
            assertTrue(readers.keySet().stream().allMatch(t -> t.equals("poster") || t.equals("looper")),
                    "the clock was read on " + readers.keySet());
        }
    }

    /**
     * The Looper's observer and its message logging run on the Looper's thread, around each dispatch; they may
     * query and post (a post from the observer is delivered after the current message).
     */
    @ForEachQueue
    void theObserverAndThePrinterRunOnTheLooperAndMayReenterTheQueue(MessageQueue.Factory factory)
            throws InterruptedException {
        try (LooperThread looper = LooperThread.start(factory)) {
            Handler h = looper.handler();
            List<String> seen = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch posted = new CountDownLatch(1);
            AtomicBoolean once = new AtomicBoolean(true);
            looper.looper().setMessageLogging(line -> seen.add("printer on looper: "
                    + (Thread.currentThread() == looper.thread()) + ", has 9: " + h.hasMessages(9)));
            looper.looper().setObserver(new Looper.Observer() {
                @Override
                public Object messageDispatchStarting() {
                    seen.add("observer on looper: " + (Thread.currentThread() == looper.thread()));
                    return null;
                }

                @Override
                public void messageDispatched(Object token, Message msg) {
                    if (once.getAndSet(false)) {
                        h.post(posted::countDown);
                    }
                }

                @Override
                public void dispatchingThrewException(Object token, Message msg, Throwable exception) {
                }
            });
            h.sendEmptyMessage(9);
            assertTrue(posted.await(TestSupport.TIMEOUT_SECONDS, TimeUnit.SECONDS), "the observer's post never ran");
            looper.looper().setMessageLogging(null);
            looper.looper().setObserver(null);
            assertEquals("printer on looper: true, has 9: false", seen.get(0));
            assertEquals("observer on looper: true", seen.get(1));
        }
    }

    /**
     * A filtered dump runs the caller's Printer outside the queue: a printer that has another thread post to the
     * same queue, and waits for it, neither deadlocks nor misses a line.
     */
    @ForEachQueue
    void aFilteredDumpsPrinterRunsOutsideTheQueue(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        q.enqueue(q.handler, QueueFixture.START + 10);
        List<String> lines = new ArrayList<>();
        q.queue.dump(line -> {
            CompletableFuture<Boolean> posted = new CompletableFuture<>();
            new Thread(() -> posted.complete(q.queue.enqueueMessage(q.message(q.other), QueueFixture.START + 20)),
                    "printer's helper").start();
            assertTrue(TestSupport.await(posted, "a post from the printer's helper thread"));
            lines.add(line);
        }, "", q.handler);
        assertEquals(2, lines.size(), () -> "one message and the totals: " + lines);
    }
}
