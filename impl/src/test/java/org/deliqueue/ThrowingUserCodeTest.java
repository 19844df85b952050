package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * User code that throws: a handler throwing during dispatch, a removal's {@code equals} throwing after the removal
 * took a message, an idle handler throwing a checked exception it never declared, an idle handler's own
 * {@code equals} throwing. Whatever user code throws, the queue neither loses nor keeps what it holds.
 */
// obligation: PayloadReleased
// obligation: HeapStackConsistent
// negative control: REMOVAL_ABORTS_ON_THROW
class ThrowingUserCodeTest {

    /** Throws {@code t}, checked or not, from a method that declares nothing (what Kotlin or Lombok code does). */
    @SuppressWarnings("unchecked")
    static <T extends Throwable> RuntimeException sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    /**
     * The handler throws: {@link Looper#loop()} lets the exception out, as Android's does, but only after giving the
     * message back to its queue, so its payload is released (DeliQueue: even while the message is still linked as the
     * deferred {@code top}). The queue stays consistent: the same thread can loop again and gets the next message.
     */
    @ForEachQueue
    void aHandlerThatThrowsGetsItsMessageGivenBackAndTheExceptionPropagates(MessageQueue.Factory factory) {
        Object payload = new Object();
        RuntimeException thrown = new IllegalStateException("thrown by a test handler");
        List<String> outcome = TestSupport.onNewThread("looper", () -> {
            Looper.prepare(factory, Clock.SYSTEM);
            MessageQueue queue = Looper.myQueue();
            List<String> ran = new ArrayList<>();
            Handler h = new Handler(Looper.myLooper()) {
                @Override
                public void handleMessage(Message msg) {
                    throw thrown;
                }
            };
            Message m = new Message();
            m.obj = payload;
            assertTrue(h.sendMessage(m));
            Throwable caught = null;
            try {
                Looper.loop();
            } catch (Throwable t) {
                caught = t;
            }
            assertSame(thrown, caught, "Looper.loop() lets the handler's exception out unchanged");
            assertNull(m.obj, "the thrown-over message still holds its payload");
            assertNull(m.getTarget(), "the thrown-over message still holds its target");
            assertTrue(m.isInUse(), "the thrown-over message can be enqueued again: it was not given back");
            if (queue instanceof DeliQueue dq) {
                DeliQueueTesting.checkInvariants(dq);
                for (Message linked = dq.top; linked != null; linked = linked.next) {
                    assertNotSame(payload, linked.obj, "the payload is still reachable from top");
                }
            }
            h.post(() -> ran.add("next message"));
            Looper.myLooper().quitSafely();
            Looper.loop();
            ran.add("loop ended");
            return ran;
        });
        assertEquals(List.of("next message", "loop ended"), outcome);
    }

    /**
     * removeEqualMessages whose {@code equals} throws on one message after the removal took another: the throw
     * reaches the caller, and what the removal took is gone for good. Its payload is unreachable once the call has
     * returned (thrown), and in DeliQueue no tombstone stays linked once the Looper has run: the removal handed
     * what it took to the Looper despite the throw. (Both queues meet the message that matches first: the legacy
     * queue walks by {@code when}, DeliQueue from the newest push.)
     */
    @ForEachQueue
    void aRemovalWhoseEqualsThrowsStillReleasesAndHandsBackWhatItTook(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Object detonator = new Object();
        int detonatorId = q.send(q.handler, 5, detonator, QueueFixture.START + 2);
        WeakReference<Object> taken = sendKey(q, QueueFixture.START + 1);
        RuntimeException thrown = assertThrows(IllegalStateException.class,
                () -> q.queue.removeEqualMessages(q.handler, 5, new ThrowsOn(detonator)));
        assertEquals("equals threw", thrown.getMessage());
        assertTrue(TestSupport.collected(taken), "the message the removal took still holds its payload");
        assertEquals(List.of(detonatorId), q.pollAllAt(QueueFixture.START + 2), "what is left");
        if (q.queue instanceof DeliQueue dq) {
            DeliQueueTesting.checkInvariants(dq);
            for (Message m = dq.top.next; m != null; m = m.next) { // top itself may wait for the next push
                assertFalse(DeliQueue.isRemoved(m), "a tombstone stays linked once the Looper has run");
            }
        }
    }

    /**
     * A removal whose {@code equals} throws on two queued messages rethrows the first throw, the one about the first
     * message it asked (the legacy queue stops there; DeliQueue asks about the rest, and keeps the first throw).
     */
    @ForEachQueue
    void aRemovalWhoseEqualsThrowsTwiceRethrowsTheFirstThrow(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        q.send(q.handler, 5, "older", QueueFixture.START + 2);
        q.send(q.handler, 5, "newer", QueueFixture.START + 1);
        List<RuntimeException> thrown = new ArrayList<>();
        Object key = new Object() {
            @Override
            public boolean equals(Object payload) {
                RuntimeException e = new IllegalStateException("equals threw on " + payload);
                thrown.add(e);
                throw e;
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        RuntimeException caught = assertThrows(IllegalStateException.class,
                () -> q.queue.removeEqualMessages(q.handler, 5, key));
        assertSame(thrown.get(0), caught, "the removal rethrew a later throw: " + caught.getMessage());
    }

    /**
     * A query whose {@code equals} throws on a message still queued rethrows (on both queues): a throw is not a "no",
     * which would report a queued message as absent.
     */
    @ForEachQueue
    void aQueryWhoseEqualsThrowsOnAQueuedMessageRethrows(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Object detonator = new Object();
        int queued = q.send(q.handler, 5, detonator, QueueFixture.START);
        RuntimeException thrown = assertThrows(IllegalStateException.class,
                () -> q.queue.hasEqualMessages(q.handler, 5, new ThrowsOn(detonator)));
        assertEquals("equals threw", thrown.getMessage());
        assertEquals(List.of(queued), q.pollAll(), "the query took nothing");
    }

    /** Sends a message whose payload only the queue references; returns a weak reference to that payload. */
    private static WeakReference<Object> sendKey(QueueFixture q, long when) {
        Object key = new Object();
        q.send(q.handler, 5, key, when);
        return new WeakReference<>(key);
    }

    /** A removal argument {@code equals} to every payload but one, on which its {@code equals} throws. */
    private record ThrowsOn(Object detonator) {
        @Override
        public boolean equals(Object o) {
            if (o == detonator) {
                throw new IllegalStateException("equals threw");
            }
            return true;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /**
     * An idle handler that throws a checked exception it does not declare: caught like any other throw (upstream
     * catches Throwable), logged, the handler removed; {@code next()} carries on and returns the message the idle
     * handler posted before throwing.
     */
    @ForEachQueue
    void anIdleHandlerThrowingACheckedExceptionIsRemovedAndNextCarriesOn(MessageQueue.Factory factory) {
        try (CapturedLog log = new CapturedLog(MessageQueue.class)) {
            idleHandlerThrowsACheckedException(factory);
            assertEquals("SEVERE IdleHandler threw; it is removed", log.next(), "the throw is logged");
        }
    }

    /**
     * An idle handler that returns false is removed by identity, never by its {@code equals}: here every handler is
     * equal to every other (as records over the same state are), or its {@code equals} throws. The queue removed it
     * with {@code removeIdleHandler}, whose {@code ArrayList.remove} asks {@code equals}: a throw left
     * {@code next()}, and an {@code equals} that said yes removed the first handler registered in its place (shown
     * to fail both ways on both queues).
     */
    @ForEachQueue
    void anIdleHandlerReturningFalseIsRemovedByIdentityNeverByItsEquals(MessageQueue.Factory factory) {
        for (boolean equalsThrows : List.of(false, true)) {
            QueueFixture f = new QueueFixture(factory);
            List<String> ran = new ArrayList<>();
            f.queue.addIdleHandler(new Indistinct("keeper", equalsThrows, ran, () -> {
                f.enqueue(f.handler, QueueFixture.START); // next() returns it
                return true;
            }));
            f.queue.addIdleHandler(new Indistinct("done", equalsThrows, ran, () -> false));
            String which = equalsThrows ? "equals throwing: " : "equals always true: ";
            assertNotNull(f.nextWithinTimeout(), which + "the keeper's first post");
            assertNotNull(f.nextWithinTimeout(), which + "the keeper's second post");
            assertEquals(List.of("keeper", "done", "keeper"), ran, which + "idle handlers run");
        }
    }

    /** An idle handler equal to every other one, or whose {@code equals} throws; it records its runs. */
    private static final class Indistinct implements MessageQueue.IdleHandler {
        private final String name;
        private final boolean equalsThrows;
        private final List<String> ran;
        private final BooleanSupplier run;

        Indistinct(String name, boolean equalsThrows, List<String> ran, BooleanSupplier run) {
            this.name = name;
            this.equalsThrows = equalsThrows;
            this.ran = ran;
            this.run = run;
        }

        @Override
        public boolean queueIdle() {
            ran.add(name);
            return run.getAsBoolean();
        }

        @Override
        public boolean equals(Object o) {
            if (equalsThrows) {
                throw new IllegalStateException("an idle handler's equals threw");
            }
            return o instanceof Indistinct;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    private static void idleHandlerThrowsACheckedException(MessageQueue.Factory factory) {
        QueueFixture f = new QueueFixture(factory);
        AtomicInteger runs = new AtomicInteger();
        int[] posted = new int[1];
        f.queue.addIdleHandler(() -> {
            runs.incrementAndGet();
            posted[0] = f.enqueue(f.handler, QueueFixture.START);
            throw sneakyThrow(new IOException("thrown by a test idle handler"));
        });
        Message m = f.nextWithinTimeout();
        assertNotNull(m, "next() returned null");
        assertEquals(posted[0], QueueFixture.idOf(m), "next() returns what the idle handler posted");
        assertEquals(1, runs.get(), "runs of the throwing idle handler");
        assertFalse(f.queue.hasIdleHandlers(), "the throwing idle handler is still registered");
    }
}
