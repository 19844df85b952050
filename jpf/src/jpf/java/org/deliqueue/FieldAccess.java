package org.deliqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * <b>The Java PathFinder version of impl's {@code org.deliqueue.FieldAccess}</b>, for JPF's class path only.
 * {@code jpf/bin/run-jpf.sh} compiles it into {@code jpf/target/jpf-classes}, which JPF's class path puts before
 * impl's jar, so the real DeliQueue and the mutants run on it unchanged. Maven never compiles it into the module
 * (it is not a source root), so no plain-JVM run sees it; {@code JpfFieldAccessTest} checks under {@code make test}
 * that it still has exactly impl's methods and that its replacements behave like impl's.
 *
 * <p>Every method is impl's, character for character, except {@link #loadFence} (JPF lacks VarHandle fences, and
 * needs none: it explores sequentially consistent executions only) and the two read-modify-writes JPF cannot
 * execute on a VarHandle ({@code getAndSet}, {@code getAndAdd}; see shared/TOOLCHAIN.md):
 * <ul>
 *   <li>{@link #xchgFreelist}: a loop of a volatile read {@code f = freelist} and {@code CAS(freelist, f, update)}.
 *   <li>{@link #decrementWakeRefs}: a loop of a volatile read {@code c = wakeRefs} and
 *       {@code CAS(wakeRefs, c, c - 1)}.
 * </ul>
 * <b>Why they are equivalent.</b> JPF explores sequentially consistent executions only: one global order of
 * shared accesses. In that order, an iteration whose CAS fails has written nothing (its read changes no shared
 * state), and the iteration whose CAS succeeds replaces the value {@code v} it read, in one atomic step that
 * compares against {@code v}. So the loop's only effect is one atomic read-modify-write at its successful CAS,
 * {@code v -> update} returning {@code v} (getAndSet), resp. {@code v -> v - 1} returning {@code v - 1}
 * (getAndAdd(-1) - 1), and that CAS is its linearization point, as the single instruction is for impl's version.
 * Both use volatile-mode accesses. That the field may have held other values between the read and the CAS (ABA)
 * does not matter: the result depends only on the value the CAS replaces. The one difference is progress (a loop
 * can retry while other threads keep writing the field: lock-free instead of wait-free), which adds states to
 * JPF's search (one retry per interleaved write) but no outcome impl's method cannot have.
 * The remaining VarHandle uses (int, long and reference {@code compareAndSet}) are supported by JPF; the loads are
 * direct volatile field reads, which JPF supports (a reference VarHandle {@code get} would not be).
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

    /** JPF checks sequentially consistent executions only (and lacks VarHandle fences): nothing to order. */
    static void loadFence() {
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

    /** JPF version: getAndSet as a CAS loop (see the class comment for the equivalence). */
    static Message xchgFreelist(DeliQueue q, Message update) {
        for (;;) {
            Message f = q.freelist;
            if (FREELIST.compareAndSet(q, f, update)) {
                return f;
            }
        }
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
        // JPF version: getAndAdd(-1) - 1 as a CAS loop (see the class comment for the equivalence).
        for (;;) {
            long c = q.wakeRefs;
            if (WAKE_REFS.compareAndSet(q, c, c - 1L)) {
                return c - 1L;
            }
        }
    }
}
