package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Removals, queries and posts after a quit, before the Looper has looked at the queue again, on every queue. The
 * quit takes effect at once: quit() dooms every message, quitSafely() every message due after its clock reading,
 * and from then on a doomed message is gone for every other caller (a removal does not take it, a query does not
 * find it) and no post is accepted, however many removals came in between. In DeliQueue the quit is a sentinel
 * pushed on the stack that owns what it drops until the Looper sweeps it, and each removal after it pushes a
 * descriptor on top of it: these are the steps these scenarios go through, on the legacy queue the same calls
 * under its lock.
 */
// obligation: Refinement
// obligation: NoPushAfterQuit
// obligation: RemovalReturnsItsSet
// obligation: SkipsPassOnlyGone
// negative control: QUIT_OWNS_NOTHING, DESCRIPTOR_FORGETS_QUIT, SKIP_OVER_QUIT_SENTINEL
class RemovalAfterQuitTest {
    /** The clock's reading throughout (not 0: a post at uptime 0 goes to the front, before barriers). */
    private static final long NOW = 10;
    private static final long FUTURE = NOW + 100;

    private final Handler h = Targets.handler();

    private static MessageQueue queueAtNow(MessageQueue.Factory factory) {
        return factory.create(true, new ManualClock(NOW));
    }

    private boolean post(MessageQueue q, int what, long when) {
        return q.enqueueMessage(Message.obtain(h, what), when);
    }

    /** quitSafely keeps what is due (what 1) and drops what is not (what 2); the removal takes the kept one alone. */
    @ForEachQueue
    void aRemovalAfterQuitSafelyTakesWhatTheQuitKeptAndNotWhatItDropped(MessageQueue.Factory factory) {
        MessageQueue q = queueAtNow(factory);
        assertTrue(post(q, 1, NOW));
        assertTrue(post(q, 2, FUTURE));
        q.quit(true);
        assertTrue(q.hasMessages(h, 1, null), "quitSafely keeps a message due at its time");
        assertFalse(q.hasMessages(h, 2, null), "quitSafely dropped the message due after its time");
        assertEquals(1, q.removeCallbacksAndMessages(h, null), "the removal takes the kept message alone");
        assertFalse(q.hasMessages(h, 2, null), "a walk from the removal's descriptor still meets the quit");
        assertFalse(q.hasMessages(h));
        assertNull(q.next(), "nothing is left to deliver");
    }

    /** quit() dooms everything at once: a removal after it takes nothing, a query finds nothing. */
    @ForEachQueue
    void aRemovalAfterQuitTakesNothing(MessageQueue.Factory factory) {
        MessageQueue q = queueAtNow(factory);
        assertTrue(post(q, 1, NOW));
        assertTrue(post(q, 2, FUTURE));
        q.quit(false);
        assertFalse(q.hasMessages(h));
        assertEquals(0, q.removeCallbacksAndMessages(h, null));
        assertNull(q.next());
    }

    /**
     * Two removals after quitSafely that each take a message, then a post: the post is refused. In DeliQueue the
     * second descriptor is pushed on the first, so each must carry the quit on: a post sees only the top.
     */
    @ForEachQueue
    void aPostAfterRemovalsThatFollowedTheQuitIsRefused(MessageQueue.Factory factory) {
        MessageQueue q = queueAtNow(factory);
        assertTrue(post(q, 1, NOW));
        assertTrue(post(q, 2, NOW));
        assertTrue(post(q, 3, NOW));
        q.quit(true);
        assertEquals(1, q.removeMessages(h, 1, null));
        assertEquals(1, q.removeMessages(h, 2, null));
        assertFalse(post(q, 4, NOW), "a post after the quit must be refused");
        Message last = q.next();
        assertTrue(last != null && last.what == 3, "the message quitSafely kept and no removal took: " + last);
        q.recycleDispatched(last);
        assertNull(q.next(), "the refused post is never delivered");
    }

    /** A barrier posted before quitSafely is removed after it, then the message it held back is delivered. */
    @ForEachQueue
    void aBarrierRemovedAfterQuitSafelyReleasesWhatItHeld(MessageQueue.Factory factory) {
        MessageQueue q = queueAtNow(factory);
        int token = q.postSyncBarrier();
        assertTrue(post(q, 1, NOW));
        q.quit(true);
        assertNull(q.poll(), "the barrier holds the sync message back");
        q.removeSyncBarrier(token);
        Message m = q.next();
        assertTrue(m != null && m.what == 1, "the message the barrier held is due and kept by quitSafely: " + m);
        q.recycleDispatched(m);
        assertNull(q.next());
    }

    /**
     * A barrier posted before quitSafely still holds its message back when nothing else is deliverable: next()
     * returns null, and returns null from then on, as Android's after dispose(), though the barrier is removed after:
     * the held message is never delivered. It stays queued, as on Android: a query finds it, a removal takes it.
     * (The legacy queue delivered it once the barrier was gone; DeliQueue, torn down, did not.)
     */
    @ForEachQueue
    void aQueueDoneAfterQuitSafelyStaysDoneWhenTheBarrierThatHeldAMessageIsRemoved(MessageQueue.Factory factory) {
        MessageQueue q = queueAtNow(factory);
        int token = q.postSyncBarrier();
        assertTrue(post(q, 1, NOW));
        q.quit(true);
        assertNull(q.next(), "the barrier holds the one kept message back: nothing deliverable remains");
        q.removeSyncBarrier(token);
        assertNull(q.next(), "next() stays done once it has returned null");
        assertNull(q.poll(), "and poll()");
        assertTrue(q.hasMessages(h, 1, null), "the held message is still queued");
        assertEquals(1, q.removeMessages(h, 1, null), "a removal takes it");
        assertFalse(q.hasMessages(h));
    }
}
