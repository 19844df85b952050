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
 * needs none: it explores sequentially consistent executions only), the accessors of a weaker mode than volatile
 * ({@code la}, {@code lo}, {@code so}: JPF lacks {@code getAcquire}, {@code getOpaque} and {@code setRelease} on
 * VarHandles, so they are volatile field accesses here; in a sequentially consistent execution every mode is
 * volatile, so JPF explores exactly the executions it explored before the modes were weakened, and the weakenings
 * themselves are jcstress's to check), and the two read-modify-writes JPF cannot execute on a VarHandle
 * ({@code getAndSet}, {@code getAndAdd}; see shared/TOOLCHAIN.md):
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
    /**
     * Every access volatile instead of the modes chosen here: {@code -Ddeliqueue.allVolatile=true}, for the
     * benchmark that measures what the choices buy ({@code bench/}'s {@code ModesBench}). Off, the JIT folds every
     * test of it away, as it does {@link Trace#ON}.
     */
    static final boolean ALL_VOLATILE = Boolean.getBoolean("deliqueue.allVolatile");

    private static final VarHandle TOP;
    private static final VarHandle FREELIST;
    private static final VarHandle WAIT_WORD;
    private static final VarHandle SLEEP_BARRIER;
    private static final VarHandle WAKE_REFS;
    private static final VarHandle FLAGS;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TOP = l.findVarHandle(DeliQueue.class, "top", Message.class);
            FREELIST = l.findVarHandle(DeliQueue.class, "freelist", Message.class);
            WAIT_WORD = l.findVarHandle(DeliQueue.class, "waitWord", long.class);
            SLEEP_BARRIER = l.findVarHandle(DeliQueue.class, "sleepBarrier", Message.class);
            WAKE_REFS = l.findVarHandle(DeliQueue.class, "wakeRefs", long.class);
            FLAGS = l.findVarHandle(Message.class, "flags", int.class);
            NEXT = l.findVarHandle(Message.class, "next", Message.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private FieldAccess() {
    }

    // ---- Message.flags: IN_USE claim, REMOVED tombstone ----

    /**
     * Volatile, not acquire: the REMOVED and RESERVED decisions are compared against reads of {@code top} in the
     * other order by the other side (the Looper CASes RESERVED then reads {@code top} in resolve; a remover pushes
     * its descriptor then reads the flags), a store-load pattern like the wait word's that acquire does not order.
     * Readers of {@code removedBy} and {@code claimTop} after it need at least acquire.
     */
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

    // ---- contention ----

    /** The first bound of {@link #backOff}, in spin-wait hints. */
    static final int MIN_BACKOFF = 4;
    /** The largest bound: about 1024 x 40 ns (x86-64's PAUSE since Skylake) = 40 us at worst, rarely reached. */
    static final int MAX_BACKOFF = 1024;

    /**
     * JPF version: no pause. JPF lacks {@code Thread.onSpinWait}, and it explores interleavings, where a pause only
     * adds states; the bound still doubles, as the push loop expects.
     */
    static int backOff(int bound) {
        return Math.min(bound << 1, MAX_BACKOFF);
    }

    // ---- Message.next: written by the pusher before its CAS and by the Looper's splice, read racily ----

    /**
     * Plain: every node a walk reaches was pushed before the acquire or volatile read of {@code top} it started
     * from, so its {@code next} (and ticket, payload) happen-before the walk; a racing splice replaces
     * {@code p.next == m} by {@code m.next}, and either value is a published node (no out-of-thin-air references).
     * The load depends on the node's address, which orders it on every machine the suite runs on.
     */
    static Message lpNext(Message m) {
        return ALL_VOLATILE ? (Message) NEXT.getVolatile(m) : m.next;
    }

    /** Plain: before publication the push's CAS (volatile) publishes it; after, only the Looper writes it. */
    static void spNext(Message m, Message next) {
        if (ALL_VOLATILE) {
            NEXT.setVolatile(m, next);
        } else {
            m.next = next;
        }
    }

    // ---- DeliQueue.asking: walks with a predicate now running on some thread ----

    /** Volatile: JPF's AtomicInteger has no getPlain (it dereferences the JDK's Unsafe, which JPF leaves null). */
    static int lpAsking(DeliQueue q) {
        return q.asking.get();
    }

    // ---- DeliQueue.top: the Treiber stack ----

    /**
     * Volatile: where a read of {@code top} is a linearization point ordered against other threads' writes of other
     * fields (the false answer of a traversal, the delivery's read in resolve) or half of a Dekker pair (the
     * Looper's re-check in sleep, after its ASLEEP store: twin {@code SLEEP_RELEASE_ACQUIRE}, seen on x86-64).
     */
    static Message lvTop(DeliQueue q) {
        return q.top;
    }

    /**
     * Acquire: a read whose value is only compared by a later CAS on {@code top} or followed to read the nodes it
     * reaches (push, the sweep, unlink's identity test, diagnostics). Acquire sees every field written before each
     * push's CAS (the CASes on {@code top} form one chain of volatile read-modify-writes); a stale value makes the
     * CAS fail and the loop retry, or (sweep, unlink) is a value the Looper already handles. One step weaker (plain)
     * would still be ordered by the address dependency of every read through the node, so no twin can show it.
     */
    static Message laTop(DeliQueue q) {
        return q.top; // JPF version: volatile (see the class comment)
    }

    /** The push's linearization point, the only write of {@code top}: every node's push loop ends with it. */
    static boolean casTop(DeliQueue q, Message expect, Message update) {
        return TOP.compareAndSet(q, expect, update);
    }

    // ---- DeliQueue.freelist: tombstoned messages waiting for the Looper ----

    /**
     * Opaque: the value is only the expectation of the next CAS or exchange (the remover's push stores it in
     * {@code tail.nextFree}, published by its CAS; the Looper's drain only tests it for null before its exchange);
     * no field of it is read. Opaque keeps the read in the retry loop and coherent; a stale value fails the CAS or
     * postpones the drain to the next turn, whose sleep re-checks with a volatile read.
     */
    static Message loFreelist(DeliQueue q) {
        return q.freelist; // JPF version: volatile (see the class comment)
    }

    /** A remover's hand-over of its chain. */
    static boolean casFreelist(DeliQueue q, Message expect, Message update) {
        return FREELIST.compareAndSet(q, expect, update);
    }

    static Message xchgFreelist(DeliQueue q, Message update) {
        for (;;) {
            Message f = q.freelist;
            if (FREELIST.compareAndSet(q, f, update)) {
                return f;
            }
        }
    }

    /** Volatile: the Looper's re-check in sleep, the second half of its Dekker pair (twin {@code SLEEP_RELEASE_ACQUIRE}). */
    static Message lvFreelist(DeliQueue q) {
        return q.freelist;
    }

    // ---- DeliQueue.waitWord: AWAKE or ASLEEP(deadline, blocked) ----

    /**
     * Volatile: a producer's read after its CAS on {@code top} (or {@code freelist}), its half of the Dekker pair.
     * Acquire would let the read move above the CAS's store under the JMM; HotSpot's code for it (x86-64: the CAS
     * is a locked instruction, a full fence; AArch64: an acquire load after a CAS with release semantics) keeps the
     * order anyway, so no twin can show that weakening on the machines the suite runs on.
     */
    static long lvWaitWord(DeliQueue q) {
        return q.waitWord;
    }

    /**
     * Volatile: the Looper's ASLEEP store, followed by its re-check of {@code top} and {@code freelist}. Release
     * would let the loads pass the store (x86-64's store buffer does): twin {@code SLEEP_RELEASE_ACQUIRE}.
     */
    static void svWaitWord(DeliQueue q, long value) {
        q.waitWord = value;
    }

    /**
     * Release: the Looper's AWAKE store after a sleep. Nothing needs a later load kept behind it: a producer that
     * still reads ASLEEP fails its CAS to AWAKE (or wakes a Looper that is awake: one spurious unpark), and a push the
     * Looper's next sweep misses is caught by the next sleep's volatile re-check. Release keeps the sleep's reads
     * before it; weaker would be safe too (no twin can fail).
     */
    static void soWaitWord(DeliQueue q, long value) {
        q.waitWord = value; // JPF version: volatile (see the class comment)
    }

    static boolean casWaitWord(DeliQueue q, long expect, long update) {
        return WAIT_WORD.compareAndSet(q, expect, update);
    }

    // ---- DeliQueue.sleepBarrier: the barrier the Looper sleeps behind, published before the wait word ----

    /**
     * Acquire: a producer reads it after its volatile read of the wait word and then reads the barrier's
     * {@code when} and ticket; acquire makes those visible even when it reads a newer barrier than the wait word's
     * (a later sleep's). Plain would still be ordered by the address dependency: no twin.
     */
    static Message laSleepBarrier(DeliQueue q) {
        return q.sleepBarrier; // JPF version: volatile (see the class comment)
    }

    /**
     * Release: the volatile ASLEEP store that follows orders it before the wait word for a reader of ASLEEP;
     * release makes the barrier safe to dereference for a reader that sees it before (or without) that store.
     */
    static void soSleepBarrier(DeliQueue q, Message barrier) {
        q.sleepBarrier = barrier; // JPF version: volatile (see the class comment)
    }

    // ---- DeliQueue.wakeRefs: the tagged refcount guarding the wake resource ----

    /**
     * Acquire: teardown's wait for the count to drain; the wakers' last uses of the resource precede their
     * decrements (volatile read-modify-writes), so seeing TEARDOWN alone orders the free after them. The free's
     * own volatile store keeps this load before it anyway, so no twin can show a weaker mode.
     */
    static long laWakeRefs(DeliQueue q) {
        return q.wakeRefs; // JPF version: volatile (see the class comment)
    }

    /**
     * Opaque: the expectation of the next CAS (acquireWakeRef, teardown's TEARDOWN CAS); a waker that reads the
     * TEARDOWN bit gives up without touching anything (the bit is never cleared).
     */
    static long loWakeRefs(DeliQueue q) {
        return q.wakeRefs; // JPF version: volatile (see the class comment)
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
