package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * DeliQueue's own structure, which the shared conformance suite cannot see: tickets, back-links, deferred
 * unlinking of the top, kept {@code next} pointers, the refcount, and a differential run against the legacy
 * queue with the structural invariants checked after every step.
 */
// obligation: TraversalSafe
// obligation: BackLinksConsistent
// obligation: HeapStackConsistent
// obligation: DeliveryOrder
// obligation: NoUseAfterTeardown
// obligation: NoPushAfterQuit
// obligation: ExactlyOnce
// obligation: SkipsPassOnlyGone
// obligation: GoneNodesUnlinkedAtRest
// negative control: REMOVALS_PILE_UP, FREELIST_WAKE_AT_EXACT_SIZE, REMOVALS_NEVER_FINISH, DRAIN_KEEPS_DESCRIPTORS
class DeliQueueStructureTest {
    private final ManualClock clock = new ManualClock(1_000);
    private final DeliQueue queue = new DeliQueue(true, clock);
    private final Handler h = Targets.handler();

    private Message enqueue(int what, long when) {
        Message m = Message.obtain(h, what);
        assertTrue(queue.enqueueMessage(m, when));
        return m;
    }

    /**
     * Removals and barrier removals on a queue that has quit and torn down (a dead Handler's debounce:
     * {@code removeMessages} then a refused send, forever) take nothing and leave nothing behind: no Looper will
     * ever unlink a node again, so a descriptor pushed then would stay on the stack for good, and every later
     * removal would walk past it. After quitSafely a message held back by a barrier is still pending, and a
     * removal still takes it.
     */
    @Test
    @QuietLogs
    void removalsAfterTheLooperHasTornDownLeaveNothingOnTheStack() {
        for (boolean safely : new boolean[] {false, true}) {
            DeliQueue q = new DeliQueue(true, clock);
            Message held = Message.obtain(h, 7);
            q.postSyncBarrier();
            assertTrue(q.enqueueMessage(held, clock.uptimeMillis()));
            assertTrue(q.enqueueMessage(Message.obtain(h, 8), clock.uptimeMillis() + 5_000));
            q.quit(safely);
            assertNull(TestSupport.onNewThread("next", q::next), "next() tears down");
            int depth = stackDepth(q);
            for (int i = 0; i < 1_000; i++) {
                assertEquals(0, q.removeMessages(h, 8, null), "the future message was dropped by the quit");
                assertEquals(0, q.removeCallbacksAndMessages(h, "no such token"));
                assertFalse(q.enqueueMessage(Message.obtain(h, 8), clock.uptimeMillis()), "refused after quit");
            }
            assertEquals(depth, stackDepth(q), (safely ? "quitSafely" : "quit") + ": nodes left on the stack");
            assertEquals(safely, q.hasMessages(h, 7, null), "the held-back message survives quitSafely only");
            assertEquals(safely ? 1 : 0, q.removeMessages(h, 7, null), "and a removal still takes it");
            assertFalse(q.hasMessages(h, 7, null));
        }
    }

    /**
     * A debounce from another thread ({@code removeMessages(5)} then {@code sendEmptyMessageDelayed(5, 2 h)}, once per
     * event) while the Looper sleeps until a message due in an hour: the legacy queue holds two messages throughout.
     * Each event leaves a tombstone and a descriptor on the stack for the Looper to unlink; before the freelist's
     * wake they stayed there until the Looper's deadline (two nodes per event for up to the hour, every removal and
     * query walking all of them: one {@code hasMessages} over 5,000 events took 77 ms). The push that brings the
     * freelist to {@link DeliQueue#FREELIST_WAKE_SIZE} nodes or beyond wakes the Looper, which unlinks them and
     * sleeps again; so does a push whose chain steps over that size (two messages per event: three nodes each).
     */
    @Test
    void removalsBehindASleepingLooperDoNotPileUpOnTheStack() throws InterruptedException {
        for (int perEvent = 1; perEvent <= 2; perEvent++) {
            int depth = depthAfterDebounceBehindASleepingLooper(QueueKind.DELI, 10_000, perEvent);
            assertTrue(depth <= pileBound(perEvent), DEBOUNCED_EVENTS + " debounced sends of " + perEvent
                    + " messages behind a sleeping Looper left " + depth + " nodes on the stack");
        }
    }

    /** The negative control: the same debounce on a queue whose removers never wake the Looper. */
    @Test
    void removersThatNeverWakeTheLooperPileUpOnTheStack() throws InterruptedException {
        int depth = depthAfterDebounceBehindASleepingLooper(Mutant.REMOVALS_PILE_UP, 500, 1);
        // Two nodes per event, less what the Looper unlinked if something else woke it early (a spurious return
        // of park): far above the bound either way.
        assertTrue(depth > DEBOUNCED_EVENTS, "REMOVALS_PILE_UP left only " + depth + " nodes");
    }

    /**
     * The negative control of GoneNodesUnlinkedAtRest: a drain that leaves each descriptor linked. The Looper wakes
     * at each full freelist and drains it, yet every debounced event leaves a node on the stack for good.
     */
    @Test
    void aDrainThatKeepsDescriptorsLinkedPilesUpOnTheStack() throws InterruptedException {
        int depth = depthAfterDebounceBehindASleepingLooper(Mutant.DRAIN_KEEPS_DESCRIPTORS, 500, 1);
        assertTrue(depth >= DEBOUNCED_EVENTS, "DRAIN_KEEPS_DESCRIPTORS left only " + depth + " nodes");
    }

    /**
     * With no call in flight, what left the queue is off the stack but for what waits on the freelist and the
     * unlink the Looper defers while its node is {@code top} (checkInvariants names GoneNodesUnlinkedAtRest): after
     * a removal drained, a delivery, a removal not yet drained, a query. DRAIN_KEEPS_DESCRIPTORS fails it at the
     * first drain.
     */
    @Test
    void whatLeftTheQueueIsUnlinkedOnceTheLooperHasDrained() {
        for (MessageQueue.Factory factory : List.<MessageQueue.Factory>of(DeliQueue::new,
                Mutant.DRAIN_KEEPS_DESCRIPTORS)) {
            DeliQueue q = (DeliQueue) factory.create(true, clock);
            Runnable steps = () -> {
                for (int what = 1; what <= 3; what++) {
                    assertTrue(q.enqueueMessage(Message.obtain(h, what), clock.uptimeMillis() + 5_000));
                }
                assertNull(q.poll(), "sweeps, nothing due");
                assertEquals(1, q.removeMessages(h, 2, null));
                DeliQueueTesting.checkInvariants(q); // the tombstone and the descriptor wait on the freelist
                assertNull(q.poll(), "drains them");
                DeliQueueTesting.checkInvariants(q);
                assertTrue(q.enqueueMessage(Message.obtain(h, 4), 0));
                assertEquals(4, q.poll().what, "delivered, and deferred: it is top");
                assertEquals(1, q.removeMessages(h, 3, null));
                assertTrue(q.hasMessages(h, 1, null));
                DeliQueueTesting.checkInvariants(q);
                assertNull(q.poll(), "drains, and unlinks the deferred node");
                DeliQueueTesting.checkInvariants(q);
                assertEquals(2, stackDepth(q), "message 1 and the last descriptor, deferred: it is top");
            };
            if (factory == Mutant.DRAIN_KEEPS_DESCRIPTORS) {
                IllegalStateException e = assertThrows(IllegalStateException.class, steps::run);
                assertTrue(e.getMessage().startsWith("GoneNodesUnlinkedAtRest violated"), e.getMessage());
            } else {
                steps.run();
            }
        }
    }

    /**
     * The negative control of the wake's size test: removers that wake the Looper only when the freelist holds
     * exactly {@link DeliQueue#FREELIST_WAKE_SIZE} nodes. A removal of one message hands over two nodes, which
     * reach 64 exactly; a removal of two hands over three, whose running count steps from 63 to 66.
     */
    @Test
    void removersThatWakeOnlyAtTheExactSizePileUpWhenTheirChainsStepOverIt() throws InterruptedException {
        int depth = depthAfterDebounceBehindASleepingLooper(Mutant.FREELIST_WAKE_AT_EXACT_SIZE, 500, 2);
        assertTrue(depth > DEBOUNCED_EVENTS, "FREELIST_WAKE_AT_EXACT_SIZE left only " + depth + " nodes");
    }

    private static final int DEBOUNCED_EVENTS = 5_000;

    /**
     * Once the Looper has drained the last full freelist: the live messages (the one due in an hour and the
     * {@code perEvent} debounced ones), fewer than {@link DeliQueue#FREELIST_WAKE_SIZE} nodes awaiting the next
     * wake, and the node the Looper defers while it is top.
     */
    private static int pileBound(int perEvent) {
        return 1 + perEvent + DeliQueue.FREELIST_WAKE_SIZE - 1 + 1;
    }

    /**
     * Runs the debounce ({@code removeMessages(5)}, then {@code perEvent} sends of what 5, per event) on a Looper of
     * {@code factory} and returns the stack's depth once it is at most {@link #pileBound}, or after
     * {@code settleMillis}; checks that nothing pending was lost.
     */
    private static int depthAfterDebounceBehindASleepingLooper(MessageQueue.Factory factory, long settleMillis,
            int perEvent) throws InterruptedException {
        try (LooperThread lt = LooperThread.start(factory)) {
            Handler looperHandler = lt.handler();
            assertTrue(looperHandler.sendEmptyMessageDelayed(1, TestSupport.HOUR_MILLIS));
            awaitSleepUntilADeadline(lt, (DeliQueue) lt.queue());
            for (int i = 0; i < DEBOUNCED_EVENTS; i++) {
                looperHandler.removeMessages(5);
                for (int j = 0; j < perEvent; j++) {
                    assertTrue(looperHandler.sendEmptyMessageDelayed(5, 2 * TestSupport.HOUR_MILLIS));
                }
            }
            DeliQueue q = (DeliQueue) lt.queue();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settleMillis);
            while (stackDepth(q) > pileBound(perEvent) && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            int depth = stackDepth(q);
            assertTrue(looperHandler.hasMessages(1) && looperHandler.hasMessages(5), "both pending messages kept");
            assertEquals(perEvent, q.removeMessages(looperHandler, 5, null), "the last event's messages are pending");
            return depth;
        }
    }

    /**
     * A debounce behind a busy Looper (it never looks at the queue: here it has no thread at all): per event,
     * {@code removeMessages(5)} then a send of 5, beside a message due in an hour. Nothing is unlinked, so every
     * event leaves a tombstone and a descriptor on the stack; each finished removal records where the dead run
     * below it ends, and walks jump there. Measured: the nodes a walk steps on from {@code top} (what
     * {@code walkSegment} does: a finished descriptor's skip, else next), which must stay that of the live queue.
     */
    @Test
    void aDebounceBehindABusyLooperLeavesWalksAsShortAsTheLiveQueue() {
        assertEquals(3, walkLengthAfterDebounceBehindABusyLooper(QueueKind.DELI),
                "the debounced message, the last descriptor (a jump), the message due in an hour");
    }

    /** The negative control: removals that never finish leave every walk as long as the whole history. */
    @Test
    void removalsThatNeverFinishLeaveWalksAsLongAsTheHistory() {
        assertEquals(2 * BUSY_EVENTS, walkLengthAfterDebounceBehindABusyLooper(Mutant.REMOVALS_NEVER_FINISH));
    }

    private static final int BUSY_EVENTS = 1_000;

    private int walkLengthAfterDebounceBehindABusyLooper(MessageQueue.Factory factory) {
        DeliQueue q = (DeliQueue) factory.create(true, clock);
        assertTrue(q.enqueueMessage(Message.obtain(h, 1), clock.uptimeMillis() + TestSupport.HOUR_MILLIS));
        for (int i = 0; i < BUSY_EVENTS; i++) {
            q.removeMessages(h, 5, null);
            assertTrue(q.enqueueMessage(Message.obtain(h, 5), clock.uptimeMillis() + 2 * TestSupport.HOUR_MILLIS));
        }
        assertTrue(q.hasMessages(h, 1, null), "the message due in an hour is below every dead run");
        int length = 0;
        for (Message m = q.top; m != null; m = DeliQueue.isFinished(m) ? m.skip : m.next) {
            length++;
        }
        assertEquals(1, q.removeMessages(h, 5, null), "one debounced message is pending");
        return length;
    }

    /**
     * Waits until the Looper sleeps until the deadline of the message due in an hour, not in the untimed park it
     * made before that message came: a Looper still waking from that park would drain the first events' nodes
     * before it sleeps, and the negative controls would then leave fewer nodes than they must (the debounce takes
     * a few milliseconds, about a Looper's wake-up on a loaded machine).
     */
    private static void awaitSleepUntilADeadline(LooperThread lt, DeliQueue q) {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_SECONDS);
        for (long w = q.waitWord; (w & DeliQueue.ASLEEP) == 0 || (w >>> 2) >= DeliQueue.MAX_DEADLINE; w = q.waitWord) {
            assertTrue(System.nanoTime() < giveUp, "the Looper never slept until the message's deadline");
            Thread.onSpinWait();
        }
        lt.awaitParked();
    }

    private static int stackDepth(DeliQueue q) {
        int n = 0;
        for (Message m = q.top; m != null; m = m.next) {
            n++;
        }
        return n;
    }

    @Test
    void ticketsGrowByOneAlongTheStackEvenAfterTheTopLeaves() {
        Message a = enqueue(1, 0);
        assertSame(a, queue.poll(), "front-of-queue message is due");
        assertSame(a, queue.top, "a delivered top stays as a tombstone: the Looper never moves top down");
        Message b = enqueue(2, 5_000);
        assertEquals(a.ticket + 1, b.ticket, "the ticket is never reused");
        assertNull(queue.poll());
        assertNull(b.next, "the next sweep unlinked the tombstone below b");
        DeliQueueTesting.checkInvariants(queue);
    }

    @Test
    void anUnlinkedMessageKeepsItsNextSoStaleTraversalsRejoin() {
        Message a = enqueue(1, 5_000);
        Message b = enqueue(2, 5_000);
        Message c = enqueue(3, 5_000);
        assertNull(queue.poll(), "sweeps, nothing due");
        assertEquals(1, queue.removeMessages(h, 2, null));
        assertNull(queue.poll(), "drains the freelist: unlinks b");
        assertSame(a, c.next, "c is spliced to a");
        assertSame(c, a.prev, "and a links back to c");
        assertSame(a, b.next, "b, unlinked, still leads to a");
        DeliQueueTesting.checkInvariants(queue);
    }

    @Test
    void removedMessagesAreRetiredAndCannotBeEnqueuedAgain() {
        Message a = enqueue(1, 5_000);
        queue.removeMessages(h, 1, null);
        assertNull(queue.poll());
        assertNull(a.getTarget(), "retired: payload cleared");
        assertThrows(IllegalStateException.class, () -> a.setTarget(h), "a retired message is in use");
        a.target = h; // past setTarget, so that the enqueue's own in-use check is the one that refuses it
        assertThrows(IllegalStateException.class, () -> queue.enqueueMessage(a, 0),
                "a retired message stays in use for good (no pooling)");
        DeliQueueTesting.checkInvariants(queue);
    }

    /** Tombstoned nodes still linked below {@code top} (the top itself may stay as a deferred tombstone). */
    private int linkedTombstonesBelowTop() {
        int n = 0;
        for (Message m = queue.top == null ? null : queue.top.next; m != null; m = m.next) {
            n += DeliQueue.isRemoved(m) ? 1 : 0;
        }
        return n;
    }

    /** User code that throws inside a removal: what the removal took still reaches the Looper's freelist. */
    @Test
    void aRemovalWhoseEqualsThrowsStillHandsItsTombstonesToTheLooper() {
        Object detonator = new Object();
        Object key = new Object() {
            @Override
            public boolean equals(Object o) {
                if (o == detonator) {
                    throw new IllegalStateException("equals threw");
                }
                return o == this || o == "k";
            }

            @Override
            public int hashCode() {
                return 0;
            }
        };
        enqueue(1, 5_000).obj = "k";
        enqueue(1, 5_000).obj = detonator;
        enqueue(1, 5_000).obj = "k";
        assertNull(queue.poll(), "swept, nothing due");
        assertThrows(IllegalStateException.class, () -> queue.removeEqualMessages(h, 1, key));
        assertNull(queue.poll(), "drains the freelist");
        assertEquals(0, linkedTombstonesBelowTop(), "a tombstone is left linked: its remover never handed it over");
        assertTrue(queue.hasMessages(h, 1, detonator), "the message whose equals threw is still pending");
        assertFalse(queue.hasMessages(h, 1, "k"), "both matches were removed");
        DeliQueueTesting.checkInvariants(queue);
    }

    /** Barrier tokens wrap after 2^31 - 1: a removal takes exactly one barrier, the one that sorts first. */
    @Test
    void removeSyncBarrierTakesOneBarrierWhenTwoShareAToken() {
        int token = queue.postSyncBarrier();
        Message between = enqueue(2, 1_000); // after the first barrier, before the second
        clock.advance(1);
        DeliQueueTesting.setNextBarrierToken(queue, token); // as if the counter had wrapped around to it again
        assertEquals(token, queue.postSyncBarrier());
        Message early = enqueue(1, 1_001); // due now, behind both barriers
        queue.removeSyncBarrier(token);
        assertSame(between, queue.poll(), "the barrier that sorts first is the one removed");
        assertNull(queue.poll(), "the second barrier still blocks the sync message");
        queue.removeSyncBarrier(token);
        assertSame(early, queue.poll(), "both barriers are gone");
        assertThrows(IllegalStateException.class, () -> queue.removeSyncBarrier(token));
        DeliQueueTesting.checkInvariants(queue);
    }

    /**
     * Tokens stay positive, as MessageQueue's Javadoc promises: after {@code Integer.MAX_VALUE} the next is 1 (an
     * increment went on to {@code Integer.MIN_VALUE}, then through 0, which {@code removeSyncBarrier} refuses).
     */
    @Test
    void barrierTokensWrapFromTheLargestIntToOne() {
        DeliQueueTesting.setNextBarrierToken(queue, Integer.MAX_VALUE); // as after 2^31 - 2 barriers
        int last = queue.postSyncBarrier();
        int wrapped = queue.postSyncBarrier();
        assertEquals(Integer.MAX_VALUE, last);
        assertEquals(1, wrapped, "the token after the largest int");
        Message behind = enqueue(1, 1_000);
        queue.removeSyncBarrier(last);
        assertNull(queue.poll(), "the wrapped barrier still holds the sync message back");
        queue.removeSyncBarrier(wrapped);
        assertSame(behind, queue.poll());
        DeliQueueTesting.checkInvariants(queue);
    }

    /** Upstream edge case 2: there, removing barrier token 0 during quit can tombstone the quit sentinel. */
    @Test
    void noBarrierRemovalCanTouchTheQuitSentinel() {
        enqueue(1, 5_000);
        queue.quit(true);
        assertThrows(IllegalStateException.class, () -> queue.removeSyncBarrier(0), "tokens start at 1");
        assertTrue(DeliQueue.isQuitSentinel(queue.top), "the sentinel stays on top");
        assertFalse(queue.enqueueMessage(Message.obtain(h, 2), 0), "and every push still fails");
    }

    /** Upstream edge case 3: there, recycling a dispatched message clears REMOVED under stale traversals. */
    @Test
    void aDispatchedMessageStaysTombstoned() {
        Message a = enqueue(1, 0);
        assertSame(a, queue.poll());
        queue.recycleDispatched(a);
        assertTrue(DeliQueue.isRemoved(a), "a stale traversal can never see it live again");
        assertTrue(a.isInUse(), "and it can never be enqueued again");
        assertFalse(queue.hasMessages(h, 1, null));
    }

    /**
     * The Looper reads the clock, then a message due just after that reading is enqueued and quitSafely is called
     * (the clock has moved on): the sweep that meets the sentinel must still deliver it before next() tears down.
     * (The legacy queue's lock makes this interleaving impossible there, so it is not a conformance test.)
     */
    @Test
    void quitSafelyDeliversWhatIsDueAtTheQuitThoughNextReadTheClockBefore() {
        long[] time = {1_000};
        Runnable[] onNextRead = {null};
        Clock hooked = () -> {
            long t = time[0];
            Runnable hook = onNextRead[0];
            onNextRead[0] = null;
            if (hook != null) {
                hook.run();
            }
            return t;
        };
        DeliQueue q = new DeliQueue(true, hooked);
        Message m = Message.obtain(h, 1);
        onNextRead[0] = () -> {
            time[0] = 1_001;
            assertTrue(q.enqueueMessage(m, 1_001));
            q.quit(true);
        };
        assertSame(m, q.next(), "accepted before quitSafely and due at its uptime: delivered");
        assertNull(q.next(), "then the queue is done");
    }

    @Test
    void noWakerUsesTheResourceAfterTeardown() throws InterruptedException {
        queue.quit(false);
        Thread looper = new Thread(() -> assertNull(queue.next()));
        looper.start();
        looper.join(5_000);
        assertFalse(looper.isAlive(), "next() returns null after quit");
        assertTrue(DeliQueueTesting.isTornDown(queue));
        assertFalse(queue.acquireWakeRef(), "TEARDOWN is set: no reference can be taken");
        queue.wake(); // must be a no-op, not a use after free
    }
}
