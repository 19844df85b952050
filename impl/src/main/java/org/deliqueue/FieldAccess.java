package org.deliqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Every racy access to a shared field of {@link DeliQueue} and {@link Message} goes through this class. The
 * prefix of each method says its memory ordering, as in JCTools, and each access uses the weakest mode that
 * DeliQueue's memory-ordering argument (its class comment) supports; the reason is written beside it:
 * <ul>
 *   <li>{@code lv} / {@code sv}: load / store volatile (synchronization actions, totally ordered with the other
 *       volatile accesses and CASes: needed where a store must be ordered before a later load, the Dekker pairs);
 *   <li>{@code la}: load acquire (later accesses stay after it; it sees what was written before a release or
 *       volatile store it reads from); {@code so}: store release (ordered after every earlier access);
 *   <li>{@code lo}: load opaque (coherent and never hoisted out of a loop, but orders nothing else);
 *   <li>{@code lp} / {@code sp}: load / store plain (a data race, benign by the argument in DeliQueue);
 *   <li>{@code cas}: compare-and-set with volatile semantics; {@code xchg}: get-and-set, volatile.
 * </ul>
 * One step weaker than each chosen mode is a seeded bug where a machine can show it: the {@code SLEEP_RELEASE_ACQUIRE}
 * and {@code TRAVERSE_WITHOUT_FENCE} mutants (jcstress's {@code SleepVsPush}, {@code SleepVsFreelist} and
 * {@code HasMessagesVsRemoval} twins); the other modes say in their comment why no twin can show a weaker one.
 *
 * <p>The layer is kept small on purpose: the checkers cite these methods, and the {@code jpf} module supplies a
 * version of this class that Java PathFinder can execute (JPF lacks {@code getAndSet}, {@code getAndAdd},
 * {@code getAcquire}, {@code getOpaque} and {@code setRelease} on VarHandles; it explores sequentially consistent
 * executions only, where every mode is volatile). Every method here must therefore keep one meaning: one shared
 * access, or one atomic read-modify-write, with the ordering its prefix names; the one exception,
 * {@link #backOff}, touches no shared field and is here because JPF lacks {@code Thread.onSpinWait} too.
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

    /**
     * Orders every load before it (the plain payload reads of a traversal's pass) before every load and store
     * after it (the next volatile read of {@code top}). Without it a weak machine (ARM) may satisfy a payload read
     * after that read of {@code top}, so a query could see a payload cleared by a removal that happened after its
     * linearization point. A no-op on x86-64. Twin: {@code TRAVERSE_WITHOUT_FENCE} (arm64 only).
     */
    static void loadFence() {
        VarHandle.acquireFence();
    }

    // ---- contention ----

    /** The first bound of {@link #backOff}, in spin-wait hints. */
    static final int MIN_BACKOFF = 4;
    /** The largest bound: about 1024 x 40 ns (x86-64's PAUSE since Skylake) = 40 us at worst, rarely reached. */
    static final int MAX_BACKOFF = 1024;

    /**
     * Randomized exponential backoff after a CAS on {@code top} failed: spins for a random number of
     * {@code Thread.onSpinWait} hints below {@code bound} (at least one), and returns the bound for the next
     * failure, doubled up to {@link #MAX_BACKOFF}. Without it every producer that lost the CAS retries at once, and
     * each retry's CAS takes the cache line away from the next winner: throughput on one hot word falls with every
     * producer added (measured on 16 cores: 23 ops/us with 1 producer, 2.2 with 14). A loser that waits
     * lets the winners through; a random wait keeps the losers from colliding again in step. A push that does not
     * fail never waits, so one producer pays nothing. The pause touches no shared field and cannot block anyone:
     * the push stays lock-free (a CAS still fails only because another push succeeded). The JPF version returns
     * at once: JPF explores interleavings, where a pause is only more states. (ThreadLocalRandom is named in full
     * because the JPF version shares this file's imports and has no use for it.)
     */
    static int backOff(int bound) {
        for (int spins = java.util.concurrent.ThreadLocalRandom.current().nextInt(bound); spins >= 0; spins--) {
            Thread.onSpinWait();
        }
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

    /**
     * Plain: a push's test for a post from inside a predicate ({@code DeliQueue.noteOwnPost}). The only increment
     * that matters is the pushing thread's own (a walk it is inside), and a thread reads its own writes; another
     * thread's increment, seen or not, only adds a walk that will not ask about this post anyway.
     */
    static int lpAsking(DeliQueue q) {
        return ALL_VOLATILE ? q.asking.get() : q.asking.getPlain();
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
        return ALL_VOLATILE ? q.top : (Message) TOP.getAcquire(q);
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
        return ALL_VOLATILE ? q.freelist : (Message) FREELIST.getOpaque(q);
    }

    /** A remover's hand-over of its chain. */
    static boolean casFreelist(DeliQueue q, Message expect, Message update) {
        return FREELIST.compareAndSet(q, expect, update);
    }

    /** The Looper's drain: takes the whole freelist. */
    static Message xchgFreelist(DeliQueue q, Message update) {
        return (Message) FREELIST.getAndSet(q, update);
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
        if (ALL_VOLATILE) {
            q.waitWord = value;
        } else {
            WAIT_WORD.setRelease(q, value);
        }
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
        return ALL_VOLATILE ? q.sleepBarrier : (Message) SLEEP_BARRIER.getAcquire(q);
    }

    /**
     * Release: the volatile ASLEEP store that follows orders it before the wait word for a reader of ASLEEP;
     * release makes the barrier safe to dereference for a reader that sees it before (or without) that store.
     */
    static void soSleepBarrier(DeliQueue q, Message barrier) {
        if (ALL_VOLATILE) {
            q.sleepBarrier = barrier;
        } else {
            SLEEP_BARRIER.setRelease(q, barrier);
        }
    }

    // ---- DeliQueue.wakeRefs: the tagged refcount guarding the wake resource ----

    /**
     * Acquire: teardown's wait for the count to drain; the wakers' last uses of the resource precede their
     * decrements (volatile read-modify-writes), so seeing TEARDOWN alone orders the free after them. The free's
     * own volatile store keeps this load before it anyway, so no twin can show a weaker mode.
     */
    static long laWakeRefs(DeliQueue q) {
        return ALL_VOLATILE ? q.wakeRefs : (long) WAKE_REFS.getAcquire(q);
    }

    /**
     * Opaque: the expectation of the next CAS (acquireWakeRef, teardown's TEARDOWN CAS); a waker that reads the
     * TEARDOWN bit gives up without touching anything (the bit is never cleared).
     */
    static long loWakeRefs(DeliQueue q) {
        return ALL_VOLATILE ? q.wakeRefs : (long) WAKE_REFS.getOpaque(q);
    }

    static boolean casWakeRefs(DeliQueue q, long expect, long update) {
        return WAKE_REFS.compareAndSet(q, expect, update);
    }

    /** Atomically decrements the count; returns the new value. */
    static long decrementWakeRefs(DeliQueue q) {
        return (long) WAKE_REFS.getAndAdd(q, -1L) - 1L;
    }
}
