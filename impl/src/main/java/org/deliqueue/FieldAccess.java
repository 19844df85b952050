package org.deliqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Every racy access to a shared field of {@link DeliQueue} and {@link Message} goes through this class. The
 * prefix of each method says its memory ordering, as in JCTools:
 * <ul>
 *   <li>{@code lv}: load volatile (a synchronization action: sequentially consistent with other volatiles);
 *   <li>{@code sv}: store volatile;
 *   <li>{@code lp} / {@code sp}: load / store plain (a data race, benign by the argument in DeliQueue);
 *   <li>{@code cas}: compare-and-set with volatile semantics; {@code xchg}: get-and-set, volatile.
 * </ul>
 * The layer is kept small on purpose: the checkers cite these methods, and the {@code jpf} module supplies a
 * version of this class that Java PathFinder can execute (JPF lacks {@code getAndSet} and {@code getAndAdd} on
 * VarHandles). Every method here must therefore keep one meaning: one shared access, or one atomic
 * read-modify-write, with the ordering its prefix names.
 */
final class FieldAccess {
    private static final VarHandle TOP;
    private static final VarHandle FREELIST;
    private static final VarHandle WAIT_WORD;
    private static final VarHandle WAKE_REFS;
    private static final VarHandle FLAGS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(DeliQueue.class, "top", Message.class);
            FREELIST = l.findVarHandle(DeliQueue.class, "freelist", Message.class);
            WAIT_WORD = l.findVarHandle(DeliQueue.class, "waitWord", long.class);
            WAKE_REFS = l.findVarHandle(DeliQueue.class, "wakeRefs", long.class);
            FLAGS = l.findVarHandle(Message.class, "flags", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private FieldAccess() {
    }

    // ---- Message.flags: IN_USE claim, REMOVED tombstone ----

    static int lvFlags(Message m) {
        return m.flags;
    }

    static boolean casFlags(Message m, int expect, int update) {
        return FLAGS.compareAndSet(m, expect, update);
    }

    // ---- fences ----

    /**
     * Orders every load before it (the plain payload reads of a traversal's pass) before every load and store
     * after it (the next volatile read of {@code top}). Without it a weak machine (ARM) may satisfy a payload read
     * after that read of {@code top}, so a query could see a payload cleared by a removal that happened after its
     * linearization point. A no-op on x86-64.
     */
    static void loadFence() {
        VarHandle.acquireFence();
    }

    // ---- Message.next: written by the pusher before its CAS and by the Looper's splice, read racily ----

    static Message lpNext(Message m) {
        return m.next;
    }

    static void spNext(Message m, Message next) {
        m.next = next;
    }

    // ---- DeliQueue.top: the Treiber stack ----

    static Message lvTop(DeliQueue q) {
        return q.top;
    }

    static boolean casTop(DeliQueue q, Message expect, Message update) {
        return TOP.compareAndSet(q, expect, update);
    }

    // ---- DeliQueue.freelist: tombstoned messages waiting for the Looper ----

    static Message lvFreelist(DeliQueue q) {
        return q.freelist;
    }

    static boolean casFreelist(DeliQueue q, Message expect, Message update) {
        return FREELIST.compareAndSet(q, expect, update);
    }

    static Message xchgFreelist(DeliQueue q, Message update) {
        return (Message) FREELIST.getAndSet(q, update);
    }

    // ---- DeliQueue.waitWord: AWAKE or ASLEEP(deadline, blocked) ----

    static long lvWaitWord(DeliQueue q) {
        return q.waitWord;
    }

    static void svWaitWord(DeliQueue q, long value) {
        q.waitWord = value;
    }

    static boolean casWaitWord(DeliQueue q, long expect, long update) {
        return WAIT_WORD.compareAndSet(q, expect, update);
    }

    // ---- DeliQueue.sleepBarrier: the barrier the Looper sleeps behind, published before the wait word ----

    static Message lvSleepBarrier(DeliQueue q) {
        return q.sleepBarrier;
    }

    static void svSleepBarrier(DeliQueue q, Message barrier) {
        q.sleepBarrier = barrier;
    }

    // ---- DeliQueue.wakeRefs: the tagged refcount guarding the wake resource ----

    static long lvWakeRefs(DeliQueue q) {
        return q.wakeRefs;
    }

    static boolean casWakeRefs(DeliQueue q, long expect, long update) {
        return WAKE_REFS.compareAndSet(q, expect, update);
    }

    /** Atomically decrements the count; returns the new value. */
    static long decrementWakeRefs(DeliQueue q) {
        return (long) WAKE_REFS.getAndAdd(q, -1L) - 1L;
    }
}
