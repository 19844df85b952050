package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The inputs the other conformance tests never generate: time 0, a clock that moves inside an operation, an
 * interrupted Looper or producer, user code that throws, and removals behind a Looper that sleeps for an hour. Each
 * test runs against every queue ({@link ForEachQueue}) and asserts only the contract of {@link MessageQueue}.
 */
// obligation: NoLostWakeup
// obligation: Refinement
// obligation: PayloadReleased
// obligation: NoLostMessage
// negative control: WAKE_BY_CLOCK, QUIT_TIME_BEFORE_TOP, REMOVAL_KEEPS_PAYLOAD, PARK_KEEPS_INTERRUPT, INTERRUPT_STICKS, IDLE_HANDLERS_MISS_INTERRUPT
class ClockAndFaultsTest {

    // ---- time 0 ----

    /**
     * A barrier posted at uptime 0 blocks the Looper, which parks. A post at uptime 0 has {@code when} 0: it goes
     * to the front of the queue, before the barrier, so it must run (and the Looper must be woken for it).
     */
    @ForEachQueue
    void aPostAtUptimeZeroRunsAheadOfABarrierPostedAtUptimeZero(MessageQueue.Factory factory) {
        ManualClock clock = new ManualClock(0);
        try (LooperThread lt = LooperThread.start(factory, clock)) {
            BlockingQueue<String> ran = new ArrayBlockingQueue<>(4);
            Handler h = lt.handler();
            // The barrier is posted by the Looper's own thread, which then goes to sleep behind it.
            assertTrue(h.post(() -> {
                lt.queue().postSyncBarrier();
                ran.add("barrier");
            }));
            assertEquals("barrier", TestSupport.take(ran, "the barrier's post"));
            lt.awaitParked();
            assertTrue(h.post(() -> ran.add("front")), "post at uptime 0");
            assertEquals("front", TestSupport.take(ran, "the post at uptime 0, ahead of the barrier"));
        }
    }

    // ---- a clock that moves inside quitSafely ----

    /** A clock whose next read on a chosen thread runs an action just after it: "the clock moves between two steps". */
    static final class ScriptedClock implements Clock {
        private volatile long now;
        private volatile Thread armedFor;
        private volatile Runnable action;

        ScriptedClock(long start) {
            now = start;
        }

        void set(long time) {
            now = time;
        }

        /** The next read by {@code thread} runs {@code afterRead} before it returns the value it read. */
        void arm(Thread thread, Runnable afterRead) {
            action = afterRead;
            armedFor = thread;
        }

        /** The calling thread's next read throws, as user code may. */
        void failNextRead() {
            arm(Thread.currentThread(), () -> {
                throw new IllegalStateException("clock failure");
            });
        }

        /** Disarms it; true if the armed read never came. */
        boolean disarm() {
            boolean unread = armedFor != null;
            armedFor = null;
            return unread;
        }

        @Override
        public long uptimeMillis() {
            long read = now;
            if (armedFor == Thread.currentThread()) {
                armedFor = null;
                action.run();
            }
            return read;
        }
    }

    /**
     * quitSafely reads the clock; just then the clock moves on and another thread posts with no delay. If that
     * post is accepted it is due by the quit (its poster read the clock before the quit took effect), so it must
     * be delivered before the queue ends.
     */
    @ForEachQueue
    void aPostAcceptedWhileQuitSafelyReadsTheClockIsDelivered(MessageQueue.Factory factory) {
        ScriptedClock clock = new ScriptedClock(100);
        Looper looper = TestSupport.preparedOnNewThread(factory, clock);
        MessageQueue queue = looper.getQueue();
        Handler h = new Handler(looper);
        CompletableFuture<Boolean> accepted = new CompletableFuture<>();
        Message late = Message.obtain(h, 7);
        Thread poster = new Thread(() -> accepted.complete(h.sendMessage(late)), "poster");
        clock.arm(Thread.currentThread(), () -> {
            clock.set(101);
            poster.start();
            awaitDoneOrBlocked(poster); // the legacy queue's poster waits for the quit's lock
        });
        queue.quit(true);
        boolean wasAccepted = TestSupport.await(accepted, "the post racing the quit");
        Message delivered = queue.poll();
        if (wasAccepted) {
            assertSame(late, delivered, "a post accepted before the quit took effect, due by then, was dropped");
        } else {
            assertNull(delivered, "a refused post was delivered");
        }
        assertNull(queue.poll(), "nothing else is left");
    }

    /**
     * A clock that throws inside quitSafely (user code: any {@link Clock}) makes the call fail and change nothing: the
     * queue still accepts messages, and a second quitSafely then works as usual. The legacy queue used to mark itself
     * quitting before it read the clock, and was left refusing every send while keeping what it should have dropped.
     */
    @ForEachQueue
    @QuietLogs
    void aClockThatThrowsInsideQuitSafelyQuitsNothing(MessageQueue.Factory factory) {
        ScriptedClock clock = new ScriptedClock(100);
        Looper looper = TestSupport.preparedOnNewThread(factory, clock);
        MessageQueue queue = looper.getQueue();
        Handler h = new Handler(looper);
        Message due = Message.obtain(h, 1);
        Message later = Message.obtain(h, 2);
        assertTrue(h.sendMessageAtTime(due, 100));
        assertTrue(h.sendMessageAtTime(later, 200));
        clock.failNextRead();
        assertThrows(IllegalStateException.class, () -> queue.quit(true));
        Message after = Message.obtain(h, 3);
        assertTrue(h.sendMessageAtTime(after, 100), "the failed quitSafely took effect: a send was refused");
        queue.quit(true);
        assertSame(due, queue.poll());
        assertSame(after, queue.poll());
        assertNull(queue.poll(), "the message due after the quit was not dropped");
        assertFalse(queue.hasMessages(h, 2, null), "the message due after the quit is still pending");
    }

    /**
     * quit() drops everything, so it needs no time and reads no clock, as the legacy queue: a clock that would throw
     * (or block) cannot stop it. DeliQueue read the clock for every quit until 2026-11-27, and a throwing clock
     * made quit() fail and left the queue running.
     */
    @ForEachQueue
    @QuietLogs
    void quitReadsNoClock(MessageQueue.Factory factory) {
        ScriptedClock clock = new ScriptedClock(100);
        Looper looper = TestSupport.preparedOnNewThread(factory, clock);
        MessageQueue queue = looper.getQueue();
        Handler h = new Handler(looper);
        assertTrue(h.sendMessageAtTime(Message.obtain(h, 1), 100));
        assertTrue(h.sendMessageAtTime(Message.obtain(h, 2), 200));
        clock.failNextRead();
        queue.quit(false);
        assertTrue(clock.disarm(), "quit() read the clock");
        assertFalse(h.sendMessageAtTime(Message.obtain(h, 3), 100), "a send after quit() was accepted");
        assertNull(queue.poll(), "quit() kept a message");
        assertFalse(queue.hasMessages(h, 1, null) || queue.hasMessages(h, 2, null), "quit() kept a message");
    }

    /** A clock that throws inside postSyncBarrier makes it fail and change nothing: no token is used up. */
    @ForEachQueue
    void aClockThatThrowsInsidePostSyncBarrierUsesNoToken(MessageQueue.Factory factory) {
        ScriptedClock clock = new ScriptedClock(100);
        MessageQueue queue = TestSupport.preparedOnNewThread(factory, clock).getQueue();
        int first = queue.postSyncBarrier();
        clock.failNextRead();
        assertThrows(IllegalStateException.class, queue::postSyncBarrier);
        assertEquals(first + 1, queue.postSyncBarrier(), "the failed post used up a token");
    }

    /**
     * A clock that reads below 0 breaks the {@link Clock} contract, but must not make the Looper spin or a delayed
     * post never run: a wait until a far deadline wrapped below 0 and returned at once (both queues: 4 to 22
     * million clock reads in 300 ms), and {@code now + delay} was taken for an overflow.
     */
    @ForEachQueue
    void aClockBelowZeroNeitherSpinsTheIdleLooperNorLosesADelay(MessageQueue.Factory factory) {
        AtomicLong reads = new AtomicLong();
        Clock belowZero = () -> {
            reads.incrementAndGet();
            return -100;
        };
        try (LooperThread lt = LooperThread.start(factory, belowZero)) {
            Handler h = lt.handler();
            Message delayed = Message.obtain(h, 1);
            assertTrue(h.sendMessageDelayed(delayed, 10));
            assertEquals(-90, delayed.getWhen(), "now + delay at uptime -100");
            h.removeMessages(1); // due 10 ms from a clock that never moves: the Looper would wake every 10 ms
            assertTrue(h.sendMessageAtTime(Message.obtain(h, 2), Long.MAX_VALUE - 1));
            assertTheIdleLooperStaysParked(lt, reads);
        }
    }

    /**
     * A message due centuries from now, a wait longer than {@code Long.MAX_VALUE} nanoseconds, leaves the idle Looper
     * parked until woken: counted in nanoseconds the wait overflows, and a park for a negative time returns at once
     * (a held-out audit's F12, which dropped that bound: the Looper spun).
     */
    @ForEachQueue
    void aMessageDueCenturiesFromNowLeavesTheIdleLooperParked(MessageQueue.Factory factory) {
        AtomicLong reads = new AtomicLong();
        Clock counted = () -> {
            reads.incrementAndGet();
            return 1_000;
        };
        try (LooperThread lt = LooperThread.start(factory, counted)) {
            Handler h = lt.handler();
            assertTrue(h.sendMessageDelayed(Message.obtain(h, 1), Long.MAX_VALUE / 1_000_000L + 1_000));
            assertTheIdleLooperStaysParked(lt, reads);
        }
    }

    private static void assertTheIdleLooperStaysParked(LooperThread lt, AtomicLong reads) {
        lt.awaitParked();
        long before = reads.get();
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
        long during = reads.get() - before;
        assertTrue(during < 100, "the idle Looper read the clock " + during + " times in 300 ms: it spins");
    }

    private static void awaitDoneOrBlocked(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_SECONDS);
        while (t.getState() != Thread.State.TERMINATED && t.getState() != Thread.State.BLOCKED) {
            assertTrue(System.nanoTime() < deadline, "the poster neither finished nor blocked");
            LockSupport.parkNanos(100_000);
        }
    }

    // ---- interrupts ----

    /**
     * An interrupt of an idle Looper changes nothing, as Android's epoll wait ignores it: the Looper keeps
     * sleeping (no spinning: it uses almost no CPU while idle), delivers what comes next, and the interrupt status
     * is not swallowed (the handler, run after next() returned, still sees it).
     */
    @ForEachQueue
    void anInterruptedLooperKeepsSleepingAndKeepsTheInterruptStatus(MessageQueue.Factory factory) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (LooperThread lt = LooperThread.start(factory)) {
            awaitAsleep(lt);
            lt.thread().interrupt();
            long cpuBefore = threads.getThreadCpuTime(lt.thread().getId());
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(800));
            long cpuMillis = (threads.getThreadCpuTime(lt.thread().getId()) - cpuBefore) / 1_000_000;
            // A parked Looper uses ~0 ms; a spinning one tens to hundreds even on a loaded 2-core machine.
            assertTrue(cpuMillis < 25, "the interrupted idle Looper used " + cpuMillis + " ms of CPU in 800 ms: it spins");

            BlockingQueue<Boolean> interrupted = new ArrayBlockingQueue<>(1);
            assertTrue(lt.handler().post(() -> interrupted.add(Thread.currentThread().isInterrupted())));
            assertTrue(TestSupport.take(interrupted, "the post after the interrupt"),
                    "the interrupt status was swallowed");
        }
    }

    /**
     * The interrupt status belongs to user code once the queue has handed it back. A handler that interrupts its
     * own Looper thread and leaves the status set gets it back at the next dispatch, without making the idle Looper
     * spin in between; a handler that then clears it has cleared it for good: the dispatch after that must not see
     * it. Three dispatches, each after the Looper parked.
     */
    @ForEachQueue
    void anInterruptTheHandlerRaisedComesBackAndOnceClearedStaysCleared(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            BlockingQueue<Boolean> seen = new ArrayBlockingQueue<>(1);
            awaitAsleep(lt);
            assertTrue(lt.handler().post(() -> {
                seen.add(Thread.currentThread().isInterrupted());
                Thread.currentThread().interrupt(); // raised by user code, and left set
            }));
            assertFalse(TestSupport.take(seen, "the first post"), "nobody had interrupted the Looper yet");

            lt.awaitParked(); // an idle Looper with its interrupt status set parks: it must not spin
            assertTrue(lt.handler().post(() -> seen.add(Thread.interrupted()))); // reads and clears
            assertTrue(TestSupport.take(seen, "the post after the handler's own interrupt"),
                    "the interrupt the handler raised on its own thread was swallowed");

            lt.awaitParked();
            assertTrue(lt.handler().post(() -> seen.add(Thread.currentThread().isInterrupted())));
            assertFalse(TestSupport.take(seen, "the post after the handler cleared the interrupt"),
                    "an interrupt the handler had cleared was raised again at a later dispatch");
        }
    }

    /**
     * An interrupt that comes while the Looper waits behind a barrier (not idle: the idle handlers do not run) is
     * cleared by the wait and remembered; once the barrier goes and the queue is idle, the idle handlers run inside
     * the same {@code next()}, and they must see it: the queue hands the status back to user code before any runs.
     */
    @ForEachQueue
    void anIdleHandlerSeesAnInterruptThatCameWhileTheLooperWaitedBehindABarrier(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            awaitAsleep(lt);
            int token = lt.queue().postSyncBarrier();
            BlockingQueue<Boolean> seen = new ArrayBlockingQueue<>(1);
            lt.queue().addIdleHandler(() -> {
                seen.add(Thread.currentThread().isInterrupted());
                return false;
            });
            lt.thread().interrupt();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // the Looper wakes, is still blocked...
            lt.awaitParked(); // ...and parks again, its interrupt status cleared and remembered
            lt.queue().removeSyncBarrier(token);
            assertTrue(TestSupport.take(seen, "the idle handler's run after the barrier went"),
                    "the idle handler did not see the interrupt that came while the Looper waited");
        }
    }

    /**
     * Only the Looper waits in the queue; an interrupted producer is served like any other. Every call a producer
     * makes with its interrupt status set (a post that wakes the sleeping Looper, a delayed post, the queries, a
     * removal, a barrier and its removal, quitSafely) does what it does uninterrupted, and leaves the status set:
     * the queue never reads, clears or acts on a caller's interrupt.
     */
    @ForEachQueue
    void anInterruptedProducerIsServedAndKeepsItsInterruptStatus(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            awaitAsleep(lt);
            Handler h = lt.handler();
            BlockingQueue<String> ran = new ArrayBlockingQueue<>(4);
            Runnable removed = () -> ran.add("removed, yet run");
            List<String> statusLostAt = TestSupport.onNewThread("interrupted producer", () -> {
                List<String> lost = new ArrayList<>();
                Thread.currentThread().interrupt();
                assertTrue(h.post(() -> ran.add("post")), "post");
                keptOrNoted("post", lost);
                assertTrue(h.postDelayed(removed, TestSupport.HOUR_MILLIS), "postDelayed");
                keptOrNoted("postDelayed", lost);
                assertTrue(h.hasCallbacks(removed), "hasCallbacks, before the removal");
                keptOrNoted("hasCallbacks", lost);
                h.removeCallbacks(removed);
                keptOrNoted("removeCallbacks", lost);
                assertFalse(h.hasCallbacks(removed), "hasCallbacks, after the removal");
                keptOrNoted("hasCallbacks, after the removal", lost);
                int token = lt.queue().postSyncBarrier();
                keptOrNoted("postSyncBarrier", lost);
                lt.queue().removeSyncBarrier(token);
                keptOrNoted("removeSyncBarrier", lost);
                assertTrue(h.post(() -> ran.add("after the barrier")), "post after the barrier went");
                keptOrNoted("post after the barrier went", lost);
                return lost;
            });
            assertEquals(List.of(), statusLostAt, "calls after which the producer's interrupt status was clear");
            assertEquals("post", TestSupport.take(ran, "the interrupted producer's post"));
            assertEquals("after the barrier", TestSupport.take(ran, "its post after the barrier went"));
            boolean keptAfterQuit = TestSupport.onNewThread("interrupted quitter", () -> {
                Thread.currentThread().interrupt();
                lt.looper().quitSafely();
                return Thread.currentThread().isInterrupted();
            });
            assertTrue(keptAfterQuit, "quitSafely cleared the caller's interrupt status");
            lt.join();
        }
    }

    /** Adds {@code call} to {@code lost} if the calling thread's interrupt status is clear, and sets it again. */
    private static void keptOrNoted(String call, List<String> lost) {
        if (!Thread.currentThread().isInterrupted()) {
            lost.add(call);
            Thread.currentThread().interrupt();
        }
    }

    // ---- removal releases what the message references ----

    /**
     * Behind a Looper asleep for an hour, a message removed from another thread must not keep its {@code obj}
     * reachable: nothing wakes the Looper to drain its freelist (upstream clears the references at removal).
     */
    @ForEachQueue
    void aRemovedMessageNoLongerReferencesItsPayload(MessageQueue.Factory factory) {
        behindALooperAsleepForAnHour(factory, h -> List.of(postPayloadThenRemoveIt(h)),
                "the removed message's obj is still reachable from the queue");
    }

    /**
     * Behind a Looper asleep for an hour, a finished removal keeps nothing it was given reachable: not the token of
     * {@code removeCallbacksAndMessages}, whether it took a message or not, nor the Runnable of
     * {@code removeCallbacks} (found by review: DeliQueue's descriptor kept its predicate, and with it these, until
     * the Looper drained it, and the newest one until the next post). Android's queue keeps nothing; apps rely on
     * that in {@code onDestroy}.
     */
    @ForEachQueue
    void aFinishedRemovalKeepsNothingItWasGivenReachable(MessageQueue.Factory factory) {
        behindALooperAsleepForAnHour(factory, ClockAndFaultsTest::removeWithArgumentsOnlyTheRemovalsHold,
                "a finished removal keeps what it was given reachable");
    }

    /**
     * With a message due in an hour pending and the Looper asleep, runs {@code removals}; each object it returns a
     * weak reference to must then be collectable, and the pending message untouched.
     */
    private static void behindALooperAsleepForAnHour(MessageQueue.Factory factory,
            java.util.function.Function<Handler, List<WeakReference<Object>>> removals, String leak) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Handler h = lt.handler();
            assertTrue(h.sendEmptyMessageDelayed(1, TestSupport.HOUR_MILLIS), "a message due in an hour");
            awaitAsleep(lt);
            for (WeakReference<Object> r : removals.apply(h)) {
                assertTrue(TestSupport.collected(r), leak);
            }
            assertTrue(lt.queue().hasMessages(h, 1, null), "the other message is untouched");
        }
    }

    private static List<WeakReference<Object>> removeWithArgumentsOnlyTheRemovalsHold(Handler h) {
        Object token = new Object();
        Runnable r = new Runnable() { // a fresh object: a non-capturing lambda is a constant, never collected
            @Override
            public void run() {
            }
        };
        assertTrue(h.postAtTime(r, token, h.getLooper().getQueue().clock().uptimeMillis() + TestSupport.HOUR_MILLIS));
        h.removeCallbacksAndMessages(token); // takes the post
        Object unmatched = new Object();
        h.removeCallbacksAndMessages(unmatched); // takes nothing
        Runnable neverPosted = new Runnable() {
            @Override
            public void run() {
            }
        };
        h.removeCallbacks(neverPosted);
        return List.of(new WeakReference<>(token), new WeakReference<>(r), new WeakReference<>(unmatched),
                new WeakReference<>(neverPosted));
    }

    /** Waits until the Looper has run a post and gone back to sleep: then it sleeps until woken or due. */
    private static void awaitAsleep(LooperThread lt) {
        BlockingQueue<String> ran = new ArrayBlockingQueue<>(1);
        assertTrue(lt.handler().post(() -> ran.add("ran")));
        TestSupport.take(ran, "a post");
        lt.awaitParked();
    }

    private static WeakReference<Object> postPayloadThenRemoveIt(Handler h) {
        Object payload = new Object();
        assertTrue(h.sendMessageDelayed(h.obtainMessage(2, payload), TestSupport.HOUR_MILLIS));
        assertEquals(1, h.getLooper().getQueue().removeMessages(h, 2, null), "removed");
        return new WeakReference<>(payload);
    }

    // ---- user code that throws ----

    /** An object whose {@code equals} throws for one key: user code inside removeEqualMessages. */
    private record Bomb(Object detonator) {
        @Override
        public boolean equals(Object o) {
            if (o == detonator) {
                throw new IllegalStateException("equals threw");
            }
            return o instanceof Key;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    private record Key(int id) {
    }

    /**
     * removeEqualMessages whose equals throws: the exception reaches the caller, and nothing the queue holds is
     * lost: every message is afterwards either delivered or reported pending, exactly once, and removals and
     * deliveries go on working.
     */
    @ForEachQueue
    void anEqualsThatThrowsInsideARemovalLosesNothing(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Object detonator = new Object();
        List<Integer> ids = new ArrayList<>();
        ids.add(q.send(q.handler, 5, new Key(1), QueueFixture.START));
        ids.add(q.send(q.handler, 5, detonator, QueueFixture.START));
        ids.add(q.send(q.handler, 5, new Key(2), QueueFixture.START));
        int other = q.send(q.handler, 6, new Key(3), QueueFixture.START);

        assertThrows(IllegalStateException.class,
                () -> q.queue.removeEqualMessages(q.handler, 5, new Bomb(detonator)));
        boolean detonatorPending = q.queue.hasMessages(q.handler, 5, detonator);
        List<Integer> delivered = q.pollAll();
        assertTrue(delivered.contains(other), "an unrelated message was lost");
        assertEquals(detonatorPending, delivered.contains(ids.get(1)),
                "the message whose equals threw is pending iff it is delivered");
        for (int id : delivered) {
            assertEquals(1, delivered.stream().filter(d -> d == id).count(), "delivered twice: " + id);
        }
        assertFalse(q.queue.hasMessages(q.handler), "something is still pending after everything due was polled");
        int after = q.send(q.handler, 5, new Key(4), QueueFixture.START);
        assertEquals(1, q.queue.removeEqualMessages(q.handler, 5, new Key(4)), "removal still works");
        assertNull(q.poll(), "the removed message " + after + " was delivered");
    }

    /**
     * User code sees only what is in the queue: a removal's equals is never called on a message that quitSafely
     * dropped (it left the queue at the quit, though the Looper has not yet swept it) nor on one delivered.
     * Found by Lincheck: post, quitSafely, then a removal whose equals throws, all on one thread.
     */
    @ForEachQueue
    void aRemovalsEqualsNeverSeesWhatTheQueueNoLongerHolds(MessageQueue.Factory factory) {
        QueueFixture q = new QueueFixture(factory);
        Object delivered = new Object();
        Object dropped = new Object();
        q.send(q.handler, 5, delivered, QueueFixture.START);
        assertNotNull(q.poll(), "the due message");
        q.send(q.handler, 5, dropped, QueueFixture.START + 1);
        q.queue.quit(true);
        assertEquals(0, q.queue.removeEqualMessages(q.handler, 5, new Bomb(dropped)), "after the quit");
        assertEquals(0, q.queue.removeEqualMessages(q.handler, 5, new Bomb(delivered)), "after the delivery");
    }

    /** A predicate that throws on the Looper's side of a removal does not stop the Looper either. */
    @ForEachQueue
    void theLooperKeepsDeliveringAfterARemovalThrew(MessageQueue.Factory factory) {
        try (LooperThread lt = LooperThread.start(factory)) {
            Handler h = lt.handler();
            Object detonator = new Object();
            AtomicBoolean ran = new AtomicBoolean();
            assertTrue(h.sendMessageDelayed(h.obtainMessage(5, detonator), TestSupport.HOUR_MILLIS));
            assertThrows(IllegalStateException.class,
                    () -> lt.queue().removeEqualMessages(h, 5, new Bomb(detonator)));
            BlockingQueue<String> done = new ArrayBlockingQueue<>(1);
            assertTrue(h.post(() -> {
                ran.set(true);
                done.add("ran");
            }));
            assertEquals("ran", TestSupport.take(done, "a post after the throwing removal"));
        }
    }

    /**
     * The interrupt that next() cleared while it waited is set again when next() throws (here, a clock that fails
     * at the read after the wake), not only when it returns.
     */
    @ForEachQueue
    void aNextThatThrowsSetsTheInterruptItClearedAgain(MessageQueue.Factory factory) throws InterruptedException {
        ScriptedClock clock = new ScriptedClock(QueueFixture.START);
        Looper looper = TestSupport.preparedOnNewThread(factory, clock);
        MessageQueue queue = looper.getQueue();
        Handler h = new Handler(looper);
        CompletableFuture<Boolean> interruptedOnThrow = new CompletableFuture<>();
        Thread consumer = new Thread(() -> {
            try {
                queue.next();
                interruptedOnThrow.completeExceptionally(new AssertionError("next() returned"));
            } catch (IllegalStateException e) {
                interruptedOnThrow.complete(Thread.currentThread().isInterrupted());
            }
        }, "consumer");
        consumer.setDaemon(true);
        consumer.start();
        TestSupport.awaitParked(consumer);
        consumer.interrupt();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_SECONDS);
        while (consumer.isInterrupted() || consumer.getState() != Thread.State.WAITING) { // parked again, cleared
            assertTrue(System.nanoTime() < deadline, "the consumer did not park again after the interrupt");
            Thread.sleep(1);
        }
        clock.arm(consumer, () -> {
            throw new IllegalStateException("clock failure");
        });
        assertTrue(queue.enqueueMessage(Message.obtain(h, 1), QueueFixture.START)); // wakes it; its clock read throws
        assertTrue(TestSupport.await(interruptedOnThrow, "next() throwing"), "next() threw and lost the interrupt");
    }
}
