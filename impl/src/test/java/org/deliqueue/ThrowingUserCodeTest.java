package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * User code that throws (issue 12, defect 5): a handler throwing during dispatch, an idle handler throwing a checked
 * exception it never declared. Whatever user code throws, the queue neither loses nor keeps what it holds.
 */
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
                dq.checkInvariants();
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
