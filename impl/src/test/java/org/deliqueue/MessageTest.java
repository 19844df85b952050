package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertNull;
import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/** {@link Message} on its own: its flags under races, its string form under a racing retire, copying. */
class MessageTest {

    /**
     * {@code setAsynchronous} racing the enqueue of the same message (it once erased the claim). An enqueue writes a
     * message's flags once, with its claim ({@link MessageQueue#claimForEnqueue}, the IN_USE CAS); so this races
     * that claim directly, about a million times a second: a toggler flips the async flag of one message as fast as
     * it can while this thread claims it, checks IN_USE is still there, and gives it back. A check-then-write
     * toggle that read the flags before the claim either writes them back without IN_USE (erased under the
     * enqueue) or, read after the claim and written after the give-back, brings back a stale IN_USE (the next
     * claim throws). With one CAS refusing a message in use, neither can happen.
     */
    @Test
    void setAsynchronousRacingTheEnqueueClaimNeverRewritesInUse() throws InterruptedException {
        Message m = new Message();
        MessageQueue q = QueueKind.DELI.create(true, new ManualClock(0));
        Thread toggler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                if (m.isInUse()) {
                    continue; // claimed: an exception per attempt would make this side too slow to race
                }
                try {
                    m.setAsynchronous(!m.isAsynchronous());
                } catch (IllegalStateException inUse) {
                    // claimed since the check above
                }
            }
        }, "toggler");
        toggler.setDaemon(true);
        toggler.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        long rounds = 0;
        try {
            for (; System.nanoTime() - deadline < 0; rounds++) {
                try {
                    q.claimForEnqueue(m, 0);
                } catch (IllegalStateException e) {
                    fail("round " + rounds + ": a racing setAsynchronous wrote back a stale IN_USE", e);
                }
                for (int spins = 0; spins < 8; spins++) {
                    Thread.onSpinWait(); // time for a toggle that read the flags before the claim to land
                }
                if (!m.isInUse()) {
                    fail("round " + rounds + ": a racing setAsynchronous erased IN_USE right after the claim");
                }
                for (int f = m.flags; !FieldAccess.casFlags(m, f, f & ~Message.FLAG_IN_USE); f = m.flags) {
                    Thread.onSpinWait();
                }
            }
        } finally {
            toggler.interrupt();
            toggler.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
        }
        System.out.println("setAsynchronous raced the claim " + rounds + " times");
    }

    /**
     * {@code toString} reads {@code target} and {@code callback} once (a dump racing a retire once read null).
     * The race is replayed deterministically: the payload's own {@code toString}, which runs between the reads of
     * the message's fields, retires the message.
     */
    /** obtain(Message) copies what a message says and to whom, its callback included (as Android). */
    @Test
    void obtainCopiesPayloadTargetAndCallback() {
        Handler h = Targets.handler();
        Runnable r = () -> { };
        Object payload = new Object();
        Message orig = Message.obtain(h, r);
        orig.what = 3;
        orig.arg1 = 4;
        orig.arg2 = 5;
        orig.obj = payload;
        Message copy = Message.obtain(orig);
        assertSame(h, copy.getTarget());
        assertSame(r, copy.getCallback(), "obtain(Message) dropped the callback");
        assertSame(payload, copy.obj);
        assertEquals(List.of(3, 4, 5), List.of(copy.what, copy.arg1, copy.arg2));
    }

    /** setAsynchronous sets and clears the flag. */
    @Test
    void setAsynchronousFalseClearsTheFlag() {
        Message m = new Message();
        m.setAsynchronous(true);
        assertTrue(m.isAsynchronous());
        m.setAsynchronous(false);
        assertFalse(m.isAsynchronous(), "setAsynchronous(false) left the message asynchronous");
    }

    @Test
    void toStringSurvivesARetireBetweenItsReads() {
        Message m = new Message();
        m.setTarget(Targets.handler());
        m.obj = new Object() {
            @Override
            public String toString() {
                m.retire();
                return "payload";
            }
        };
        assertDoesNotThrow(m::toString);
    }

    /** Four threads obtain and recycle at once: the pool never hands one message to two threads, nor one in use. */
    @Test
    void thePoolNeverHandsOneMessageToTwoThreadsNorAMessageInUse() throws InterruptedException {
        int threads = 4;
        int rounds = 300_000;
        AtomicReference<String> failure = new AtomicReference<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t + 1;
            Thread th = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < rounds && failure.get() == null; i++) {
                    Message m = Message.obtain();
                    if (m.isInUse()) {
                        failure.compareAndSet(null, "obtain() handed out a message in use");
                    }
                    m.arg1 = id;
                    m.arg2 = i;
                    Thread.onSpinWait();
                    if (m.arg1 != id || m.arg2 != i) {
                        failure.compareAndSet(null, "two threads obtained the same message");
                    }
                    m.recycle();
                }
            }, "pool-user-" + id);
            started.add(th);
            th.start();
        }
        go.countDown();
        for (Thread th : started) {
            th.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS * 4L));
            assertFalse(th.isAlive(), th.getName() + " did not finish");
        }
        assertNull(failure.get());
    }
}
