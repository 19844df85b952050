package org.deliqueue;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The jcstress module's door to DeliQueue's package-private protocol steps. It lives in package
 * {@code org.deliqueue} (in this module's source tree, on the same class path as impl) so the tests in
 * {@code org.deliqueue.jcstress} can drive single steps of the real queue and of the seeded {@link Mutant}s:
 * every method forwards to exactly one step and adds nothing.
 */
public final class Steps {
    /** Strong reference: java.util.logging keeps loggers weakly, and a collected logger forgets its level. */
    private static final Logger QUEUE_LOG = Logger.getLogger(MessageQueue.class.getName());

    static {
        // A push refused after quit logs a warning; jcstress runs millions of them.
        QUEUE_LOG.setLevel(Level.OFF);
    }

    private Steps() {
    }

    /** Builds a queue of {@code factory} ({@link QueueKind#DELI} or a {@link Mutant}) as a DeliQueue. */
    public static DeliQueue deli(MessageQueue.Factory factory, Clock clock) {
        return (DeliQueue) factory.create(true, clock);
    }

    /** A fresh message target; its Looper never runs (impl's test fixture {@link Targets}). */
    public static Handler handler() {
        return Targets.handler();
    }

    // ---- step 5: tagged refcount ----

    public static boolean acquireWakeRef(DeliQueue q) {
        return q.acquireWakeRef();
    }

    public static void signalWakeResource(DeliQueue q) {
        q.signalWakeResource();
    }

    public static void releaseWakeRef(DeliQueue q) {
        q.releaseWakeRef();
    }

    public static void teardown(DeliQueue q) {
        q.teardown();
    }

    /** Teardown's first step: sets TEARDOWN in the refcount. */
    public static void tagTeardown(DeliQueue q) {
        q.tagTeardown();
    }

    /** Teardown's check: whether the refcount holds TEARDOWN and no reference (the resource may be freed). */
    public static boolean wakeRefsDrained(DeliQueue q) {
        return FieldAccess.laWakeRefs(q) == DeliQueue.TEARDOWN;
    }

    public static boolean isTornDown(DeliQueue q) {
        return DeliQueueTesting.isTornDown(q);
    }

    // ---- step 6: wait word ----

    /** The Looper's sleep until {@code deadline}, behind {@code barrier} (the barrier heading its sync heap, or null). */
    public static void sleep(DeliQueue q, long deadline, Message barrier) {
        q.sleep(deadline, barrier);
    }

    /** The Looper's sweep: what was pushed since the last one goes into its heaps; {@code swept} becomes {@code top}. */
    public static void sweep(DeliQueue q) {
        q.sweep();
    }

    /**
     * Frees the queue's wake resource without setting TEARDOWN in the refcount: a later wake then throws
     * {@code IllegalStateException} ("use after free") in the thread that decided it. The Dekker tests use it to see
     * the producer's wake decision without a hook in the queue.
     */
    public static void freeWakeResource(DeliQueue q) {
        q.freeWakeResource();
    }

    // ---- step 3: tombstone and freelist ----

    /** The REMOVED CAS; false if the message had already left the queue. */
    public static boolean markRemoved(Message m) {
        return DeliQueueTesting.markRemoved(m);
    }

    /** A remover hands the chain {@code head .. tail} (by {@code nextFree}, {@code nodes} long) to the Looper. */
    public static void pushFreelist(DeliQueue q, Message head, Message tail, int nodes) {
        q.pushFreelist(head, tail, nodes);
    }

    /** The wake of a barrier's removal: wakes the Looper if it sleeps behind a barrier (ASLEEP and BLOCKED). */
    /** The freelist size whose hand-over wakes a sleeping Looper ({@code DeliQueue.FREELIST_WAKE_SIZE}). */
    public static int freelistWakeSize() {
        return DeliQueue.FREELIST_WAKE_SIZE;
    }

    public static void wakeIfAsleepBehindBarrier(DeliQueue q) {
        q.wakeIfAsleep(DeliQueue.ASLEEP | DeliQueue.BLOCKED);
    }

    // ---- structure ----

    /** The newest node of the stack: in a single-threaded set-up, what was pushed last (a barrier, say). */
    public static Message top(DeliQueue q) {
        return FieldAccess.lvTop(q);
    }

    /**
     * How many of the first {@code nodes} nodes from {@code top} (by {@code next}) are {@code m}: a walk that stops
     * after {@code nodes} however the stack is linked (a message pushed twice links to itself).
     */
    public static int timesOnTop(DeliQueue q, Message m, int nodes) {
        int times = 0;
        Message n = FieldAccess.lvTop(q);
        for (int i = 0; i < nodes && n != null; i++, n = FieldAccess.lpNext(n)) {
            if (n == m) {
                times++;
            }
        }
        return times;
    }

    /**
     * The structural obligations (TraversalSafe, BackLinksConsistent, HeapStackConsistent, GoneNodesUnlinkedAtRest)
     * while quiescent.
     */
    public static void checkInvariants(DeliQueue q) {
        DeliQueueTesting.checkInvariants(q);
    }

    /**
     * How many nodes reachable from {@code top} carry the REMOVED flag: tombstones and finished removal descriptors
     * the Looper has not unlinked. Excluded: the quit sentinel, and a removal descriptor that is still {@code top}
     * (the Looper never moves {@code top}: that one is unlinked after the next push).
     */
    public static int linkedTombstones(DeliQueue q) {
        int n = 0;
        Message top = FieldAccess.lvTop(q);
        for (Message m = top; m != null; m = FieldAccess.lpNext(m)) {
            if (DeliQueue.isRemoved(m) && !DeliQueue.isQuitSentinel(m) && !(m == top && DeliQueue.isRemoval(m))) {
                n++;
            }
        }
        return n;
    }
}
