package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The contract under concurrency, on a real Looper thread: nothing lost, nothing delivered twice, nothing both
 * delivered and removed, per-producer order, and quitSafely against racing posts. Each test runs for a share of
 * {@code deliqueue.stress.seconds} (default 2) per implementation.
 */
// obligation: ExactlyOnce
// obligation: NoLostMessage
// obligation: DeliveryOrder
// obligation: NoPushAfterQuit
// obligation: GoneNodesUnlinkedAtRest
// negative control: CLAIM_LEAVES_QUIT_DROP
class ConformanceStressTest {
    private static final long STRESS_MILLIS =
            TimeUnit.SECONDS.toMillis(Long.getLong("deliqueue.stress.seconds", 2));

    @ForEachQueue
    void concurrentProducersRemoverAndBarriersLoseNothingAndDeliverEachMessageOnceInProducerOrder(
            MessageQueue.Factory factory) throws InterruptedException {
        MixedLoad load = new MixedLoad(factory);
        load.run(STRESS_MILLIS * 3 / 4);
        load.verify();
    }

    @ForEachQueue
    @QuietLogs
    void postsReturningTrueBeforeQuitSafelyRunAndRefusedPostsNeverRun(MessageQueue.Factory factory)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STRESS_MILLIS / 4);
        Random random = new Random(7);
        for (int round = 0; round < 10 || System.nanoTime() - deadline < 0; round++) {
            Clock clock = round % 4 < 2 ? Clock.SYSTEM : new TickingClock();
            quitRace(factory, clock, round, random.nextInt(2_000), round % 2 == 0);
        }
    }

    /**
     * quit() while the Looper delivers a backlog, round after round: every message the quit dropped is given back
     * cleared, including the one it takes from under the Looper's claim (pushed between the sweep and the
     * reservation: the claim chose that message, so it has left its heap, and the drop at the next sweep does not
     * meet it). The quit comes after 1 to 20 deliveries, wherever the Looper then is in its loop.
     */
    @ForEachQueue
    @QuietLogs
    void quitWhileTheLooperDeliversGivesBackEveryMessageItDrops(MessageQueue.Factory factory) {
        int dropped = 0;
        for (int round = 0; round < 300; round++) {
            Message[] sent = new Message[100];
            AtomicInteger ran = new AtomicInteger();
            int quitAfter = 1 + round % 20;
            try (LooperThread lt = LooperThread.start(factory)) {
                Handler h = lt.handler();
                for (int i = 0; i < sent.length; i++) {
                    sent[i] = Message.obtain(h, ran::incrementAndGet);
                    assertTrue(h.sendMessage(sent[i]));
                }
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_SECONDS);
                while (ran.get() < quitAfter) {
                    assertTrue(System.nanoTime() - giveUp < 0, "the Looper delivers nothing");
                    Thread.onSpinWait();
                }
                lt.looper().quit();
                lt.join();
            }
            dropped += sent.length - ran.get();
            for (int i = 0; i < sent.length; i++) {
                int id = i;
                int r = round;
                assertNull(sent[i].getCallback(), () -> "round " + r + ": message " + id + " still holds its callback");
            }
        }
        assertTrue(dropped > 0, "the quit never dropped a message: nothing was checked");
    }

    /** A clock that starts at 0 and moves on by 1 ms at every read: time moves inside every operation. */
    static final class TickingClock implements Clock {
        private final java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong();

        @Override
        public long uptimeMillis() {
            return now.getAndIncrement();
        }
    }

    // ---- producers, a remover, barriers and one Looper ----

    /** What a producer sent: unique, so it identifies its message (removal by identical object). */
    private record Payload(int producer, int seq, Kind kind) {
        int what() {
            return seq % MixedLoad.WHATS;
        }
    }

    private enum Kind { SYNC, ASYNC, FRONT }

    /** A far-future message of the remover, which must stay findable until the remover removes it. */
    private record Sentinel(int id) {
    }

    private record Sent(Handler handler, Payload payload) {
    }

    private static final class MixedLoad {
        static final int PRODUCERS = 3;
        static final int WHATS = 8;
        /** The remover also removes every message with this {@code what}, without knowing which. */
        static final int REMOVABLE_WHAT = 3;
        static final int SENTINEL_WHAT = 100;
        static final int SENTINELS = 8;
        /** Bounds the backlog, so that the legacy queue's O(n) insertion stays cheap. */
        static final int MAX_PENDING = 512;

        final LooperThread looper;
        final MessageQueue queue;
        final Handler sync;
        final Handler async;
        final Semaphore pending = new Semaphore(MAX_PENDING);
        /** Seqs delivered, per producer; Looper thread only until it ended. Bits, so long runs stay small. */
        final BitSet[] delivered = newBitSets();
        /** Per producer and kind, the last seq delivered; Looper thread only. */
        final int[][] lastDelivered = new int[PRODUCERS][Kind.values().length];
        long deliveredCount;
        /** Seqs removed one by one, per producer; remover thread only until it ended. */
        final BitSet[] removed = newBitSets();
        final AtomicInteger removedByWhat = new AtomicInteger();
        /** Messages sent per producer; each slot written by its producer, read after it ended. */
        final int[] sent = new int[PRODUCERS];
        final BlockingQueue<Sent> candidates = new ArrayBlockingQueue<>(64);
        final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        final CountDownLatch firstError = new CountDownLatch(1);
        final AtomicBoolean stop = new AtomicBoolean();
        final Sentinel[] sentinels = new Sentinel[SENTINELS];
        int sentinelIds;

        MixedLoad(MessageQueue.Factory factory) {
            for (int[] row : lastDelivered) {
                Arrays.fill(row, -1);
            }
            looper = LooperThread.start(factory);
            queue = looper.queue();
            Handler.Callback record = msg -> {
                if (msg.obj instanceof Payload p) {
                    onDelivered(p);
                    pending.release();
                } else {
                    report(new AssertionError("delivered a message never due or never sent: " + msg));
                }
                return true;
            };
            sync = new Handler(looper.looper(), record);
            async = Handler.createAsync(looper.looper(), record);
        }

        void run(long millis) throws InterruptedException {
            List<Thread> workers = new ArrayList<>();
            try {
                for (int k = 0; k < SENTINELS; k++) {
                    sentinels[k] = sendSentinel(); // before the producers: deep in the queue
                }
                for (int i = 0; i < PRODUCERS; i++) {
                    int producer = i;
                    workers.add(worker("producer-" + i, () -> produce(producer)));
                }
                workers.add(worker("remover", this::removeAndQuery));
                workers.add(worker("barriers", this::postAndRemoveBarriers));
                firstError.await(millis, TimeUnit.MILLISECONDS);
            } finally {
                stop.set(true);
                for (Thread w : workers) {
                    w.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_SECONDS));
                    assertFalse(w.isAlive(), () -> w.getName() + " did not stop");
                }
                try {
                    if (errors.isEmpty()) {
                        looper.looper().quitSafely(); // everything pending is due now: all of it must run
                        looper.join();
                    }
                } finally {
                    looper.close();
                }
            }
        }

        private static BitSet[] newBitSets() {
            BitSet[] sets = new BitSet[PRODUCERS];
            Arrays.setAll(sets, i -> new BitSet());
            return sets;
        }

        /**
         * Looper thread: no message twice, and each producer's sync messages, and separately its async ones, in
         * the order sent: they were sent with non-decreasing {@code when} (barriers may let async messages overtake
         * sync ones; front-of-queue messages are LIFO).
         */
        private void onDelivered(Payload p) {
            if (delivered[p.producer()].get(p.seq())) {
                report(new AssertionError("delivered twice: " + p));
            }
            delivered[p.producer()].set(p.seq());
            deliveredCount++;
            if (p.kind() != Kind.FRONT) {
                int last = lastDelivered[p.producer()][p.kind().ordinal()];
                if (p.seq() <= last) {
                    report(new AssertionError("out of order: " + p + " after seq " + last));
                }
                lastDelivered[p.producer()][p.kind().ordinal()] = p.seq();
            }
        }

        private Thread worker(String name, Runnable body) {
            Thread t = new Thread(() -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    report(e);
                }
            }, name);
            t.setDaemon(true);
            t.start();
            return t;
        }

        private void report(Throwable e) {
            errors.add(e);
            firstError.countDown();
        }

        private void produce(int producer) {
            Random random = new Random(producer);
            while (!stop.get()) {
                if (!acquirePermit()) {
                    continue;
                }
                int seq = sent[producer];
                int r = random.nextInt(16);
                Kind kind = r == 0 ? Kind.FRONT : r < 5 ? Kind.ASYNC : Kind.SYNC;
                Payload p = new Payload(producer, seq, kind);
                Handler h = kind == Kind.ASYNC ? async : sync;
                Message m = h.obtainMessage(p.what(), p);
                boolean accepted = kind == Kind.FRONT ? h.sendMessageAtFrontOfQueue(m) : h.sendMessage(m);
                assertTrue(accepted, () -> "a queue that is not quitting refused " + p);
                sent[producer] = seq + 1;
                if (seq % 3 == 0) {
                    candidates.offer(new Sent(h, p));
                }
            }
        }

        private boolean acquirePermit() {
            try {
                return pending.tryAcquire(10, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }

        /**
         * Removes known messages one by one (each then must be gone), removes a whole {@code what} now and then,
         * and checks that the far-future sentinels stay findable while the queue churns around them.
         */
        private void removeAndQuery() {
            for (int i = 1; !stop.get(); i++) {
                Sent c = candidates.poll();
                if (c != null) {
                    removeKnown(c);
                }
                if (i % 16 == 0) {
                    int n = queue.removeMessages(sync, REMOVABLE_WHAT, null)
                            + queue.removeMessages(async, REMOVABLE_WHAT, null);
                    removedByWhat.addAndGet(n);
                    pending.release(n);
                }
                if (i % 4 == 0) {
                    checkSentinel((i / 4) % SENTINELS, i % 64 == 0);
                }
                if (c == null) {
                    Thread.yield();
                }
            }
            for (Sentinel s : sentinels) {
                assertEquals(1, queue.removeMessages(sync, SENTINEL_WHAT, s), () -> "removing " + s);
            }
        }

        private void removeKnown(Sent c) {
            Payload p = c.payload();
            int n = queue.removeMessages(c.handler(), p.what(), p);
            assertTrue(n == 0 || n == 1, () -> "removed " + n + " messages carrying the unique " + p);
            if (n == 1) {
                removed[p.producer()].set(p.seq());
                pending.release();
            }
            assertFalse(queue.hasMessages(c.handler(), p.what(), p),
                    () -> p + " is still pending after removeMessages returned " + n);
        }

        private void checkSentinel(int k, boolean replace) {
            Sentinel s = sentinels[k];
            assertTrue(queue.hasMessages(sync, SENTINEL_WHAT, s), () -> "lost track of the pending " + s);
            if (replace) {
                assertEquals(1, queue.removeMessages(sync, SENTINEL_WHAT, s), () -> "removing " + s);
                assertFalse(queue.hasMessages(sync, SENTINEL_WHAT, s), () -> s + " is pending after its removal");
                sentinels[k] = sendSentinel();
            }
        }

        private Sentinel sendSentinel() {
            Sentinel s = new Sentinel(sentinelIds++);
            assertTrue(sync.sendMessageDelayed(sync.obtainMessage(SENTINEL_WHAT, s), TestSupport.HOUR_MILLIS));
            return s;
        }

        private void postAndRemoveBarriers() {
            while (!stop.get()) {
                int token = queue.postSyncBarrier();
                for (int k = 0; k < 8; k++) {
                    Thread.yield();
                }
                queue.removeSyncBarrier(token);
                for (int k = 0; k < 8; k++) {
                    Thread.yield();
                }
            }
        }

        /** After the run: every message sent was delivered once or removed once, never both, none lost. */
        void verify() {
            if (!errors.isEmpty()) {
                AssertionError e = new AssertionError("the stress run failed: " + errors.peek());
                errors.forEach(e::addSuppressed);
                throw e;
            }
            int missing = 0;
            for (int producer = 0; producer < PRODUCERS; producer++) {
                BitSet both = (BitSet) delivered[producer].clone();
                both.and(removed[producer]);
                assertTrue(both.isEmpty(), "both delivered and removed: producer " + producer + " seqs " + both);
                BitSet neither = (BitSet) delivered[producer].clone();
                neither.or(removed[producer]);
                neither.flip(0, sent[producer]);
                for (int seq = neither.nextSetBit(0); seq >= 0; seq = neither.nextSetBit(seq + 1)) {
                    if (seq % WHATS != REMOVABLE_WHAT) {
                        fail("lost: producer " + producer + " seq " + seq + " was neither delivered nor removed");
                    }
                    missing++;
                }
                assertTrue(delivered[producer].length() <= sent[producer], "delivered a message never sent");
            }
            assertEquals(removedByWhat.get(), missing,
                    "messages neither delivered nor removed one by one = messages removed by what");
            assertTrue(deliveredCount > 100, () -> "only " + deliveredCount + " messages delivered");
        }
    }

    // ---- quit racing with posts ----

    /**
     * Two producers post (delay 0) until refused while a third thread calls {@code quitSafely()} (or
     * {@code quit()}) after {@code quitAfter} posts. A post that returned true and then still saw no quit call
     * was accepted before the call: after quitSafely it must run. No post runs twice or after being refused.
     * Once the Looper has ended, no message posted holds its callback: each was dispatched, refused or dropped by
     * the quit, and given back cleared, including one the quit took from under the Looper's claim (pushed between
     * its sweep and its reservation: the claim chose it, so it had left its heap already).
     */
    private static void quitRace(MessageQueue.Factory factory, Clock clock, int round, int quitAfter,
            boolean safely) throws InterruptedException {
        final int producers = 2;
        final int limit = 4_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(producers * limit);
        Message[] sent = new Message[producers * limit];
        boolean[] accepted = new boolean[producers * limit];
        boolean[] acceptedBeforeQuit = new boolean[producers * limit];
        AtomicBoolean quitCalled = new AtomicBoolean();
        AtomicInteger posts = new AtomicInteger();
        Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        String name = "round " + round + (safely ? " (quitSafely, " : " (quit, ") + clock + ")";

        try (LooperThread lt = LooperThread.start(factory, clock)) {
            Handler h = lt.handler();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < producers; i++) {
                int first = i * limit;
                threads.add(start(errors, () -> {
                    for (int id = first; id < first + limit; id++) {
                        int mine = id;
                        sent[id] = Message.obtain(h, () -> runs.incrementAndGet(mine));
                        boolean ok = h.sendMessage(sent[id]);
                        acceptedBeforeQuit[id] = ok && !quitCalled.get();
                        accepted[id] = ok;
                        posts.incrementAndGet();
                        if (!ok) {
                            return;
                        }
                    }
                }));
            }
            threads.add(start(errors, () -> {
                long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_SECONDS);
                while (posts.get() < quitAfter && System.nanoTime() - giveUp < 0) {
                    Thread.yield();
                }
                quitCalled.set(true);
                if (safely) {
                    lt.looper().quitSafely();
                } else {
                    lt.looper().quit();
                }
            }));
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(2 * TestSupport.TIMEOUT_SECONDS));
                assertFalse(t.isAlive(), () -> name + ": " + t.getName() + " did not finish");
            }
            assertTrue(errors.isEmpty(), () -> name + ": " + errors);
            lt.join();
        }
        for (int id = 0; id < producers * limit; id++) {
            int r = runs.get(id);
            int post = id;
            assertTrue(r <= 1, () -> name + ": post " + post + " ran " + r + " times");
            assertTrue(r == 0 || accepted[id], () -> name + ": post " + post + " ran though refused");
            if (safely) {
                assertTrue(r == 1 || !acceptedBeforeQuit[id],
                        () -> name + ": post " + post + " returned true before quitSafely() was called but never ran");
            }
            // a message recycled and obtained again by a later post is cleared by the later post's end too
            assertTrue(sent[id] == null || sent[id].getCallback() == null,
                    () -> name + ": post " + post + (r == 1 ? ", dispatched," : ", never run,") + " still holds its callback");
        }
    }

    private static Thread start(Queue<Throwable> errors, Runnable body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                errors.add(e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }
}
