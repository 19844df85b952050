package org.deliqueue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The lock-free MessageQueue of Android 17 ("DeliQueue"), rebuilt for the JVM and checked against the
 * TLA+ specification in {@code spec/DeliQueue.tla}, with removal made atomic from any thread.
 *
 * <h2>Implementation notes</h2>
 *
 * <p>Producers and the consumer (the Looper thread) never share a lock. Producers push messages onto a
 * Treiber stack [Treiber 1986] with one CAS. The Looper alone walks the part of the stack pushed since its last
 * walk, writes back-links (making the stack a doubly linked list) and moves the messages into two array
 * min-heaps it owns, ordered by {@code (when, insertSeq)}. Removal is logical: a CAS sets the message's REMOVED
 * flag (a tombstone) and the message is handed to the Looper on a lock-free freelist; the Looper later drops it
 * from its heap and unlinks it from the stack in O(1) through the back-link. Traversals walk the stack with plain
 * reads while the Looper unlinks, which is safe because an unlinked message keeps its {@code next}. Quitting pushes
 * a sentinel that makes every later push fail, and frees the Looper's wake resource only when a tagged refcount
 * shows no waker is using it. The steps, with their names in the specification:
 * <ol>
 *   <li>{@link #push} - read {@code top}; fail on a quitting top; write {@code next} and {@code ticket};
 *       CAS {@code top}, backing off for a random while after a failure. Then {@link #signalIfEarlier}. A removal's
 *       descriptor ({@link #pushDescriptor}) and the quit sentinel ({@link #quitQueue}) go through the same loop
 *       ({@link #pushNode}).
 *   <li>{@link #sweep} - Looper: walk from {@code top} down to {@link #swept}, write back-links, heap the live
 *       messages, note removal descriptors and the quit sentinel.
 *   <li>{@link #removeMatching} / {@link #drainFreelist} / {@link #unlink} - selection, descriptor,
 *       tombstones, finish, freelist, unlink.
 *   <li>{@link #traverse} - the racy traversal of queries, repeated until {@code top} is stable.
 *   <li>{@link #acquireWakeRef} / {@link #releaseWakeRef} / {@link #teardown} - the tagged refcount around
 *       {@link WakeResource}.
 *   <li>{@link #sleep} / {@link #signalIfEarlier} - the wait word.
 *   <li>{@link #takeDueOrNull} / {@link #claimForDelivery} / {@link #resolve} - delivery: reserve, then resolve.
 *   <li>{@link #quitQueue} - the quit sentinel; it takes effect when pushed.
 * </ol>
 *
 * <p><b>Nodes.</b> The stack holds three kinds of node, all {@link Message}s, told apart by their flags: messages
 * (barriers included: FLAG_BARRIER, the token in {@link Message#barrierToken}); removal descriptors (FLAG_REMOVAL,
 * their verdicts in {@link #verdictsOf}); the quit sentinel (FLAG_QUIT_SENTINEL, its mode in {@link #quitsSafely},
 * its time in {@code when}). Descriptors and the sentinel are born REMOVED: nothing delivers or removes them.
 *
 * <p><b>Tickets.</b> A push stores {@code ticket = top.ticket + 1} before its CAS. The Looper never moves
 * {@code top} down: when the node to unlink is {@code top} it stays there, tombstoned, until the next push
 * ({@link #deferredUnlink}). So tickets strictly decrease along {@code next} and never decrease at {@code top}: the
 * ticket is the node's push order at no cost to producers (no shared counter), and it is the heap's tie-breaker
 * ({@code insertSeq = ticket}, or {@code -ticket} for front-of-queue messages, which therefore come out LIFO).
 *
 * <p><b>Atomic removal: selection, descriptors and ownership.</b> A removal ({@code removeMessages} and every
 * variant, {@code removeSyncBarrier}) first <em>selects</em>: it walks the stack as a query does ({@link #traverse}),
 * asking its predicate - user code, an {@code equals} that may answer differently on each call, block, throw or
 * re-enter the queue - once about each message still in the queue, on the calling thread (not about what that
 * thread posts from inside the predicate, as the legacy queue's snapshot; else a predicate that posts whenever it is
 * asked would keep the walk going for ever). Then it pushes a
 * <em>descriptor</em> onto the same stack, above the {@code top} it walked from: a node carrying the tickets of the
 * messages it matched, born REMOVED like the quit sentinel. A push in between fails the CAS, and the removal walks
 * the new segment and tries again, so the descriptor lands only above messages that were all asked about. That
 * push is the removal's linearization point: it takes exactly the selected messages pushed before it that are
 * still in the queue. A removal that selected nothing pushes nothing and linearizes at its last, stable read of
 * {@code top}. A node that can take messages - a descriptor, or the quit sentinel for what its quit drops -
 * <em>covers</em> a message below it (for a descriptor: by ticket, data), and the earliest (lowest-ticket)
 * covering node <em>owns</em> it. Every thread that tombstones a message for an owner writes {@code removedBy =
 * owner} before its REMOVED CAS, and all of them name the same owner, because covering is data every thread reads
 * alike. The remover then walks down from its descriptor, tombstones what it owns, counts every message whose
 * {@code removedBy} is its descriptor (whoever tombstoned it), releases their payload and hands them, then the
 * descriptor, to the Looper. Queries and the Looper treat a message owned by a descriptor they have passed as gone,
 * so a removal is atomic against pushes, other removals, queries and quit: all of them are ordered by {@code top}.
 * After the quit, a removal whose selection passed the sentinel finds nothing the quit drops, so a torn-down queue
 * never accumulates descriptors no Looper will unlink. The hand-over that brings the freelist to
 * {@link #FREELIST_WAKE_SIZE} nodes wakes a sleeping Looper to unlink them, so removals behind a Looper asleep for
 * a long time keep the stack bounded ({@link #pushFreelist}). A Looper busy in a long handler unlinks nothing until
 * it returns, so before the hand-over the remover <em>finishes</em> its descriptor ({@link #finish}): it records in
 * {@code skip} where the run of dead nodes below the descriptor ends and sets FINISHED, and walks jump from a
 * finished descriptor to its {@code skip}; a debounce from another thread then costs each removal the live queue,
 * not the history of removals since the Looper last ran.
 *
 * <p><b>User code.</b> A removal's predicate runs only on the thread that called the removal, only inside the
 * call, at most once per message, and before the descriptor is published; no other thread runs it or waits for
 * it (UserCodeOnCaller). The same holds for a query's predicate. The class's other user code - handlers, idle
 * handlers, the {@link Clock}, observers - runs where {@code docs/design.md}'s table says.
 *
 * <p><b>Reserved delivery.</b> The Looper decides from its last sweep, so a descriptor pushed after that sweep is
 * unknown to it. Delivery therefore has two steps: {@link #claimForDelivery} reserves the message (RESERVED, with
 * {@code claimTop} = the top the Looper swept), then {@link #resolve} reads {@code top}: if a node pushed since
 * {@code claimTop} owns the message it goes to that owner, otherwise the message is delivered; one CAS from
 * RESERVED records the outcome. The delivery's linearization point is that read of {@code top}. Every thread that
 * meets a RESERVED message resolves it the same way before looking further (the first CAS decides), and nobody
 * treats a RESERVED message as gone before it is resolved.
 *
 * <p><b>Invariants</b> (the obligation IDs of {@code spec/DeliQueue.tla}):
 * <ul>
 *   <li>ExactlyOnce: a message leaves the queue through exactly one successful CAS of REMOVED into its flags,
 *       by a tombstone for its owner, or by the resolution that delivers it.
 *   <li>NoLostMessage: every message whose push succeeded is delivered, removed, dropped by quit, or
 *       reachable from {@code top} and, once swept, in a heap unless REMOVED.
 *   <li>DeliveryOrder: the Looper delivers the least {@code (when, insertSeq)} among due swept messages,
 *       looking only at the async heap while a live barrier heads the sync heap.
 *   <li>HeapStackConsistent: a message is in a heap only if it is swept and linked; a linked swept message that
 *       is not REMOVED is in a heap. REMOVED messages still in a heap are on their way to the freelist. A
 *       RESERVED message is not REMOVED: the resolution that hands it to an owner clears the reservation.
 *   <li>BackLinksConsistent: for each linked node {@code m} at or below {@link #swept} with
 *       {@code m.next == n != null}, {@code n.prev == m}; {@code m.prev == null} iff {@code m == swept}.
 *   <li>TraversalSafe: {@code next} always points to a node with a smaller ticket, so every walk ends;
 *       TraversalComplete: a walk visits every node that stays linked while it runs, so a removal's walk ends only
 *       when every message its removal took is tombstoned for it.
 *   <li>SkipsPassOnlyGone: a finished descriptor's {@code skip} passes only removed messages and finished
 *       descriptors (never the quit sentinel or a pending descriptor), and they never come back, so a walk that
 *       jumps there misses nothing it would have offered or needed.
 *   <li>RemovalReturnsItsSet: a removal counts, releases and returns exactly the messages its descriptor's push
 *       took, whether it or a helper (the Looper, another thread resolving a reservation) wrote the tombstone.
 *   <li>NoUseAfterTeardown: {@link WakeResource} is signalled only under a reference counted in
 *       {@link #wakeRefs} before the TEARDOWN bit was set, and freed only once that count is 0.
 *   <li>NoLostWakeup: the Looper parks only after publishing ASLEEP (and its blocking barrier) and then seeing
 *       {@code top} and {@code freelist} unchanged since its sweep; a producer decides the wake by the protocol's
 *       order against that barrier, never by the clock.
 *   <li>NoPushAfterQuit: once a quitting node is {@code top}, every push of a message fails.
 *   <li>PayloadReleased: a message tombstoned for a remover holds no payload once that removal has returned.
 *   <li>UserCodeOnCaller: a removal's predicate is evaluated only by its caller, inside the call, at most once
 *       per message, and only on a message still queued when its pass began (none an owner node it passed has
 *       taken).
 * </ul>
 * Why each racy access keeps them is the memory-ordering argument at the top of the class body.
 *
 * <p><b>Trace events.</b> With {@code -Ddeliqueue.trace=true} every step above logs, after its access, an event named
 * as its action in {@code spec/DeliQueue.tla} with the values it read and wrote ({@link Trace}), one line at the
 * step; {@code trace/} has TLC check that each logged run is a behaviour of the spec. Off, the {@code if (Trace.ON)}
 * sites are constant-folded away.
 *
 * <p><b>No pooling.</b> Messages that leave DeliQueue are retired, never pooled: a pooled message could be
 * pushed again while a stale traversal still stands on it (the traversal would follow its new {@code next} into
 * newer messages), and its REMOVED flag would be cleared under a remover's feet (upstream edge case 3). A retired
 * message keeps IN_USE and REMOVED, so enqueueing it again is rejected. Because no node is pushed twice, no
 * CAS on {@code top} or {@code freelist} suffers ABA.
 *
 * <p><b>Linearizability and progress.</b> Pushes, removals and quit linearize at their push on {@code top} (a
 * removal that selected nothing at its selection's last read of {@code top}), deliveries at the read of
 * {@code top} in {@link #resolve}. {@link #traverse} walks again over the nodes pushed
 * meanwhile until {@code top} is unchanged: a query's false answer linearizes at that last read of {@code top}, a
 * true one at the flag read that found the match. Push, removal and quit are lock-free (a CAS on {@code top} fails
 * only because another push succeeded; a removal's selection walks only what was pushed since its last try, its
 * collection is bounded by the stack below its descriptor); the Looper's steps never wait for another thread; a
 * query or a removal is lock-free but not wait-free: pushes that keep arriving faster than it walks can starve it.
 * No call off the Looper waits for another thread (CallsReturn): a removal or a query that meets a RESERVED message
 * resolves it itself rather than wait for the Looper, and a removal's finish ends its dead run at the first node
 * that is not dead, or at null.
 */
public class DeliQueue extends PaddedTop {

    /*
     * Memory ordering. All accesses of shared fields go through FieldAccess, whose method names say their mode
     * (JCTools' prefixes: lv/sv volatile, la acquire, so release, lo opaque, lp/sp plain). Each access has the
     * weakest mode this argument supports; the orderings a machine can show lost are seeded bugs with a jcstress
     * twin (named below).
     *
     * - top, freelist: CAS writes (volatile). A push writes m.next, m.ticket and every payload field before its
     *   CAS, so a thread that reads top with acquire or volatile semantics (or any next chain from it) sees them:
     *   each later push's CAS read its predecessor's CAS, a chain of synchronizes-with edges. nextFree is
     *   published the same way by the freelist CAS. Reads of top whose value only feeds a CAS or a walk (the push
     *   loop, the sweep, unlink's identity test, diagnostics) are acquire (laTop): a stale value fails the CAS,
     *   and the Looper's reads are coherent, so it never reads a top older than its last sweep. Reads of freelist
     *   that only feed the next CAS or exchange are opaque (loFreelist: no field of the node is read through
     *   them). The reads that stay volatile are the linearization points (the traversal's reads, a removal's
     *   selection's included: its descriptor's CAS expects the value it read; the delivery's read in resolve) and
     *   the Looper's half of the Dekker pair below.
     * - next: plain. After publication only the Looper writes it (splice), always replacing p.next == m by
     *   m.next. A racing traversal reads either value, both published nodes with smaller tickets, so it can
     *   neither leave the published set nor loop; the unlinked m keeps its next, so a traversal standing on it
     *   rejoins the stack (the benign race of the design article). Java forbids out-of-thin-air values for
     *   references, so no third value can be read.
     * - top: on a cache line of its own (PaddedTop): every producer CASes it, and the Looper's fields, written on
     *   every loop, would otherwise share its line (false sharing under contention).
     * - skip: plain, written by the remover before the FINISHED CAS that publishes it (volatile, like every flag
     *   CAS), read by walks after the volatile flag read that showed FINISHED. Twin: SKIP_PUBLISHED_AFTER_FINISH
     *   (an interleaving, not a reordering: jcstress WalkVsFinish, Lincheck).
     * - flags: volatile, REMOVED and RESERVED set only by CAS: the REMOVED CAS decides between owners and
     *   delivery. removedBy and claimTop are written before the CAS that publishes them and read after a volatile
     *   read of the flags. Reads stay volatile: the Looper CASes RESERVED then reads top, a remover pushes its
     *   descriptor then reads the flags, a store-load pattern. A descriptor's verdicts (its obj) are written
     *   before its push, like any payload.
     * - Payload reads of a traversal are plain and precede its flag read, so a message found live was live with
     *   that payload; payload is cleared only after REMOVED. A payload read as cleared (the message left) must
     *   also precede the traversal's next read of top, where a false answer linearizes; a plain load may be
     *   performed after a later volatile load (the JMM's roach motel, and ARM's load-load reordering), so
     *   traverse puts a load fence (VarHandle.acquireFence) before each re-read of top. Twin:
     *   TRAVERSE_WITHOUT_FENCE (jcstress HasMessagesVsRemoval; only a weak machine can show it, and only rarely:
     *   the removal must fit between the two reordered loads).
     * - waitWord against top / freelist: a Dekker pair of volatile accesses. The Looper writes sleepBarrier and
     *   ASLEEP, then reads top and freelist; a producer CASes top (a remover of a barrier: top and freelist)
     *   then reads waitWord and sleepBarrier. Volatile accesses are totally ordered, so either the Looper sees
     *   the new node or the producer sees ASLEEP and decides the wake. Release/acquire would not do: both sides
     *   need the store-load order, and x86-64's store buffer reorders a release store with a later acquire load:
     *   twin SLEEP_RELEASE_ACQUIRE (jcstress SleepVsPush, SleepVsFreelist, observed on x86-64). The Looper's
     *   AWAKE store after the sleep is release (soWaitWord): a producer still reading ASLEEP fails its CAS or
     *   wakes an awake Looper, and a push the next sweep misses is caught by the next sleep's volatile re-check.
     *   sleepBarrier is a release store (the volatile ASLEEP store after it orders it for a reader of ASLEEP) and
     *   an acquire load (the producer dereferences it).
     * - wakeRefs: CAS. Reads that only feed a CAS, or see the never-cleared TEARDOWN bit, are opaque; teardown's
     *   wait for the count to drain is acquire, so the wakers' uses of the resource (before their volatile
     *   decrements) precede the free. teardownThread is written before the TEARDOWN CAS, so a waker that sees
     *   TEARDOWN also sees whom to unpark.
     * - Looper-only fields (prev, heapIndex, insertSeq, heaps, swept) are plain.
     */

    // ---- wait word: AWAKE, or ASLEEP | (BLOCKED) | deadline << 2 ----
    static final long AWAKE = 0L;
    static final long ASLEEP = 1L;
    static final long BLOCKED = 2L;
    /**
     * The largest deadline a wait word holds (about 73 million years of uptime). A later deadline is stored as this
     * one, which therefore means "at or beyond": a producer cannot tell whether its message is earlier and wakes
     * the Looper (see {@link #signalIfEarlier}); the Looper still parks until its true deadline.
     */
    static final long MAX_DEADLINE = Long.MAX_VALUE >>> 2;

    /** The quitting tag of {@link #wakeRefs}; the other bits count wakers using the resource. */
    static final long TEARDOWN = Long.MIN_VALUE;
    /**
     * Freelist size at which a remover wakes a sleeping Looper to unlink what removals left on the stack (see
     * {@link #pushFreelist}): bounds the stack behind a sleeping Looper to the live messages plus about this many.
     */
    static final int FREELIST_WAKE_SIZE = 64;

    // ---- shared fields, accessed through FieldAccess (top, on a cache line of its own: PaddedTop) ----
    /** Tombstoned messages and finished descriptors (chained by nextFree) for the Looper to unlink. */
    volatile Message freelist;
    /** Whether the Looper runs or sleeps, and until when; see {@link #sleep}. */
    volatile long waitWord = AWAKE;
    /** The barrier the Looper sleeps behind (null if none): written before ASLEEP|BLOCKED is published. */
    volatile Message sleepBarrier;
    /** Tagged refcount of threads using {@link #wakeResource}. */
    volatile long wakeRefs;
    /** The Looper thread, once it tears down: unparked by the last waker to leave. */
    volatile Thread teardownThread;

    final WakeResource wakeResource = new WakeResource();
    final AtomicInteger nextBarrierToken = new AtomicInteger(1);
    /**
     * Walks of this queue now running on some thread with a predicate (removals, queries): while there is none, a
     * push spends one plain read on {@link #noteOwnPost}. A thread reads its own increment, the only one it needs.
     */
    final AtomicInteger asking = new AtomicInteger();
    /** The innermost walk with a predicate on the current thread (its outer ones chained by {@link Walk#outer}). */
    private final ThreadLocal<Walk> askingWalk = new ThreadLocal<>();
    /**
     * Nodes on the freelist, or about to be counted: removers add their chain's length after their freelist CAS,
     * the Looper subtracts what it drained. Only removers and the Looper write it; producers never touch it.
     */
    private final AtomicInteger freelistSize = new AtomicInteger();

    // ---- Looper-owned state ----
    /** Synchronous messages and barriers. */
    final MessageHeap syncHeap = newHeap();
    /** Asynchronous messages. */
    final MessageHeap asyncHeap = newHeap();
    /** {@code top} as of the last sweep: it and everything below it has been swept. */
    Message swept;
    /** A node to unlink that was {@code top} when it left the queue; unlinked by the next sweep. */
    Message deferredUnlink;
    /** The quit sentinel, once swept (Looper only; package-private for the seeded bugs). */
    Message quitSentinel;
    /**
     * Swept removal descriptors whose remover has not yet handed them back through the freelist: a set, in no
     * order ({@link #earliestOwner} compares tickets). A descriptor's {@code heapIndex}, unused otherwise (it is
     * never in a heap), is its index here, so that {@link #drainFreelist} takes it out in constant time: a Looper
     * back from a long handler may sweep and drain millions of them (a debounce from another thread), and a search
     * per descriptor made that quadratic.
     */
    final List<Message> pendingRemovals = new ArrayList<>();
    private boolean quitMessagesDropped;
    private boolean tornDown;
    /** next()'s clock reading, recorded with the sweep's read of {@code top} (spec: sweep_readTop at loop). */
    private long clockReadForTrace = -1;
    /** Set by {@link #takeDueOrNull}: when the Looper must look again, and the barrier that blocks, if any. */
    private long nextDeadline;
    private Message blockingBarrier;

    public DeliQueue(boolean quitAllowed, Clock clock) {
        super(quitAllowed, clock);
    }

    /** The heap implementation; the comparator mutant overrides it. */
    MessageHeap newHeap() {
        return new MessageHeap();
    }

    // =====================================================================================================
    // 1. push (any thread): one loop for messages, removal descriptors and the quit sentinel
    // =====================================================================================================

    /** Pushes the message or barrier {@code m} unless a quitting node is on top (spec: push_readTop, push_casTop). */
    boolean push(Message m) {
        if (FieldAccess.lpAsking(this) != 0) {
            noteOwnPost(m);
        }
        return pushNode(m, false, null);
    }

    /**
     * Records {@code m} with every walk of this queue that the current thread is inside (a post from inside a
     * predicate): those walks will not ask about it ({@link Walk#postedWithin}).
     */
    private void noteOwnPost(Message m) {
        for (Walk w = askingWalk.get(); w != null; w = w.outer) {
            if (w.ownPosts == null) {
                w.ownPosts = Collections.newSetFromMap(new IdentityHashMap<>());
            }
            w.ownPosts.add(m);
        }
    }

    /**
     * Begins walk {@code w} with a predicate on this thread: what the thread posts until {@link #endAsking} (from
     * inside the predicate) is not asked about by it. Else a predicate that posts whenever it is asked would never
     * let the walk end: each post moves {@code top}, and the walk must ask about what lies above the top it goes
     * on. The legacy queue asks about a snapshot taken at the call, so it never sees those posts either.
     */
    private void beginAsking(Walk w) {
        w.outer = askingWalk.get();
        askingWalk.set(w);
        asking.incrementAndGet();
    }

    /**
     * Ends what {@link #beginAsking} began. The outermost walk leaves null behind rather than removing the entry: one
     * slot per thread that has asked, whose key is weak and goes with the queue; and JPF's model of ThreadLocal fails
     * on a set after a remove on one thread (JpfSupportedCallsTest).
     */
    private void endAsking(Walk w) {
        asking.decrementAndGet();
        askingWalk.set(w.outer);
    }

    /**
     * Pushes the removal descriptor {@code d} above the {@code top} its selection {@code s} walked from, walking
     * what was pushed meanwhile after each failed CAS (spec: pushDescriptor_casTop): the removal's linearization
     * point. Above a quitting top it becomes quitting itself, so pushes keep failing.
     */
    void pushDescriptor(Message d, Selection s) {
        if (Trace.ON) Trace.nameAfterActor(d); // the spec names a descriptor after its remover
        pushNode(d, false, s);
    }

    /**
     * The push loop, one for every node: a message or barrier ({@link #push}), the quit sentinel ({@link #quitQueue}:
     * {@code quit}) and a removal's descriptor ({@link #pushDescriptor}: {@code removal} is its selection). A turn
     * reads {@code top}, readies the node for it, links the node above it ({@code next}, {@code ticket}) and CASes
     * {@code top} ({@link #casTop}). A message refuses a quitting top (NoPushAfterQuit), and so does the sentinel
     * (an earlier quit took effect), which then takes quitSafely's time: read after {@code top} on every turn, so
     * every push below the sentinel happened before that reading (quit() reads no clock: it keeps nothing). A
     * descriptor goes on the top its selection walked to, with the selection's verdicts, and becomes quitting on a
     * quitting top. A CAS fails only because another push succeeded: the loser backs off for a random while
     * ({@link FieldAccess#backOff}), which keeps many producers from taking turns at failing; a descriptor's
     * selection first asks about what was pushed.
     *
     * @return true once {@code node} is {@code top}; false if it was refused
     */
    private boolean pushNode(Message node, boolean quit, Selection removal) {
        for (int backOff = FieldAccess.MIN_BACKOFF;; backOff = FieldAccess.backOff(backOff)) {
            Message t;
            if (removal != null) {
                t = removal.seen; // every message below it has been asked about
                setVerdicts(node, removal.verdicts());
                node.flags = Message.FLAG_IN_USE | Message.FLAG_REMOVED | Message.FLAG_REMOVAL
                        | (carriesQuit(t) ? Message.FLAG_QUITTING : 0); // private until the CAS publishes it
            } else {
                t = FieldAccess.laTop(this);
                if (Trace.ON && !quit) {
                    Trace.event("push_readTop", node, "top", t, "kind", Trace.kind(node), "when", node.when);
                }
                // obligation: NoPushAfterQuit
                if (t != null && isQuitting(t)) {
                    return false;
                }
                if (quit) {
                    boolean safe = quitsSafely(node);
                    if (safe) {
                        node.when = clock.uptimeMillis(); // quitSafely's time; quit() keeps none (when stays 0)
                    }
                    if (Trace.ON) {
                        Trace.event("quit_readTop", Trace.QUITTER, "top", t, "now", node.when, "safe", safe);
                    }
                }
            }
            FieldAccess.spNext(node, t);
            // obligation: TraversalSafe, DeliveryOrder
            node.ticket = t == null ? 1 : t.ticket + 1;
            if (casTop(t, node)) {
                return true;
            }
            if (removal != null) {
                traverse(removal, removal::visit); // asks about what was pushed since, before the next try
            }
        }
    }

    /**
     * The push's CAS of {@code top} from {@code t} to {@code node} (spec: push_casTop, quit_casTop,
     * pushDescriptor_casTop). The {@code NON_ATOMIC_PUSH} mutant overrides it.
     */
    boolean casTop(Message t, Message node) {
        // obligation: NoLostMessage, PushLockFree, NoPushAfterQuit, AtomicRemoval, QuitTerminates, Refinement
        boolean pushed = FieldAccess.casTop(this, t, node);
        if (Trace.ON) {
            Trace.event(isRemoval(node) ? "pushDescriptor_casTop" : isQuitSentinel(node) ? "quit_casTop" : "push_casTop",
                    null, "exp", t, "ok", pushed);
        }
        return pushed;
    }

    /**
     * Whether a descriptor pushed on {@code t} must be quitting too: {@code t} is the quit sentinel or a descriptor
     * above it. The {@code DESCRIPTOR_FORGETS_QUIT} mutant overrides it.
     */
    boolean carriesQuit(Message t) {
        // obligation: NoPushAfterQuit
        return t != null && isQuitting(t);
    }

    @Override
    boolean enqueueClaimed(Message msg, long when) {
        msg.when = when;
        if (!push(msg)) {
            warnDroppedAfterQuit(msg);
            msg.retire();
            msg.when = 0; // never published: cleared like a recycled message, as Android's refused send leaves it
            return false;
        }
        signalIfEarlier(msg);
        return true;
    }

    /**
     * Wakes the Looper if it sleeps past the pushed message {@code m}. If the Looper is awake it will see the push
     * before it sleeps (see {@link #sleep}); if it sleeps until a deadline at or before {@code m.when} it sees the
     * push then. A saturated deadline ({@link #MAX_DEADLINE}: the true one is at or beyond it) decides nothing, so
     * the push wakes the Looper, which at worst sleeps again. Behind a barrier, only a message the barrier does not
     * hold back ({@link #heldBackByBarrier}) needs a wake.
     */
    void signalIfEarlier(Message m) {
        wakeLooper(ASLEEP, m);
    }

    /** Wakes the Looper if it sleeps with every bit of {@code mask} (ASLEEP, and BLOCKED for barrier removals). */
    void wakeIfAsleep(long mask) {
        wakeLooper(mask, null);
    }

    /**
     * The waker's side of the wait word (spec: signalIfEarlier_cas): reads it and, if the Looper sleeps with every
     * bit of {@code mask} and past the {@code pushed} message (any sleep if null), CASes it to AWAKE and wakes the
     * Looper. The CAS fails only because the Looper woke or slept again: read again and decide again.
     */
    private void wakeLooper(long mask, Message pushed) {
        for (;;) {
            long w = FieldAccess.lvWaitWord(this);
            // obligation: NoLostWakeup
            boolean wakes = (w & mask) == mask && (pushed == null || sleepsPast(w, pushed));
            if (!wakes || FieldAccess.casWaitWord(this, w, AWAKE)) {
                if (Trace.ON) {
                    Trace.event("signalIfEarlier_cas", null, "asleep", (w & ASLEEP) != 0, "deadline", w >>> 2,
                            "blocked", (w & BLOCKED) != 0, "woke", wakes);
                }
                if (wakes) {
                    wake();
                }
                return;
            }
        }
    }

    /** Whether a Looper asleep with the wait word {@code w} sleeps past {@code m}: see {@link #signalIfEarlier}. */
    private boolean sleepsPast(long w, Message m) {
        long deadline = w >>> 2;
        return (m.when < deadline || deadline >= MAX_DEADLINE) && ((w & BLOCKED) == 0 || !heldBackByBarrier(m));
    }

    /**
     * Whether the barrier the Looper sleeps behind holds back {@code m}: decided by the protocol's order, like
     * delivery itself. An asynchronous message is never held back; a synchronous one is unless it sorts before the
     * barrier ({@code (when, insertSeq)}: a front-of-queue message posted after a barrier at uptime 0 does). The
     * barrier read here may be newer than the wait word read before it; then that newer sleep re-checks
     * {@code top} and sees {@code m} itself.
     */
    boolean heldBackByBarrier(Message m) {
        Message barrier = FieldAccess.laSleepBarrier(this);
        // obligation: NoLostWakeup
        return !m.isAsynchronous() && barrier != null && !sortsBefore(m, barrier);
    }

    /** {@code (a.when, insertSeq(a)) < (b.when, insertSeq(b))}, from immutable fields of pushed nodes. */
    boolean sortsBefore(Message a, Message b) {
        int byWhen = MessageHeap.compareLongs(a.when, b.when);
        return byWhen != 0 ? byWhen < 0 : MessageHeap.compareLongs(insertSeqOf(a), insertSeqOf(b)) < 0;
    }

    /**
     * The heap tie-breaker: the ticket, negated for front-of-queue messages ({@code when == 0}: LIFO); a negative
     * {@code when} is an ordinary time (FIFO). The {@code NEGATIVE_WHEN_AT_FRONT} mutant overrides it.
     */
    long insertSeqOf(Message m) {
        return m.when == 0 ? -m.ticket : m.ticket;
    }

    // =====================================================================================================
    // 2. sweep (Looper)
    // =====================================================================================================

    /**
     * Moves every message pushed since the last sweep into its heap and links it back; notes removal descriptors
     * and the quit sentinel. Walks from the current {@code top} down to {@link #swept}, which is linked (the Looper
     * never unlinks it, see {@link #unlink}), hence reachable.
     */
    void sweep() {
        Message t = FieldAccess.laTop(this);
        if (Trace.ON) {
            Trace.event("sweep_readTop", Trace.LOOPER, "top", t, "now", clockReadForTrace);
            clockReadForTrace = -1;
        }
        Message stop = swept;
        if (t == stop) {
            return;
        }
        for (Message m = t; m != stop; ) {
            Message n = FieldAccess.lpNext(m);
            if (n != null) {
                linkBack(n, m);
            }
            boolean heaped = false;
            if (isQuitSentinel(m)) {
                quitSentinel = m;
            } else if (isRemoval(m)) {
                m.heapIndex = pendingRemovals.size();
                pendingRemovals.add(m);
            } else if (!isRemoved(m)) {
                // obligation: DeliveryOrder, HeapStackConsistent
                m.insertSeq = insertSeqOf(m);
                heapOf(m).add(m);
                heaped = true;
            }
            if (Trace.ON) Trace.event("sweep_step", Trace.LOOPER, "m", m, "next", n, "heaped", heaped);
            m = n;
        }
        if (Trace.ON) Trace.event("sweep_step", Trace.LOOPER, "m", stop, "end", true);
        swept = t;
        Message d = deferredUnlink;
        if (d != null) {
            deferredUnlink = null;
            splice(d);
        }
    }

    /** Writes the back-link {@code n.prev = m} for the step {@code m -> n}. */
    // obligation: BackLinksConsistent
    void linkBack(Message n, Message m) {
        n.prev = m;
    }

    // =====================================================================================================
    // 3. remove: selection, descriptor, tombstones, freelist, unlink
    // =====================================================================================================

    /**
     * Removes every message matching {@code p} that is in the queue when this call's descriptor is pushed (its
     * linearization point), atomically with respect to every other operation; returns how many.
     *
     * <p>{@code p} is user code (an {@code equals}, a captured token): it runs only here, on the calling thread,
     * inside this call, at most once per message, and before anything is published: the selection, a traversal
     * that asks {@code p} about each message it meets ({@link Selection#visit}). It stops at the end of the first
     * segment in which {@code p} matched, and the descriptor goes above the top it walked from
     * ({@link #pushDescriptor}); if the traversal finds {@code top} stable with nothing matched, the removal takes
     * nothing, linearized at that read. The descriptor carries the answers as data, so no other thread - the
     * Looper least of all - ever runs {@code p} or waits for it, and an answer that would differ on a second call
     * changes nothing: there is no second call. A predicate that throws counts as "no match" for that message; the
     * first throwable is rethrown once the removal is complete, so nothing it took is lost or leaked.
     */
    @Override
    int removeMatching(Predicate<Message> p) {
        Selection s = newSelection(p);
        Message descriptor = null;
        beginAsking(s);
        try {
            // obligation: UserCodeOnCaller, TraversalComplete, TraversalSafe
            if (traverse(s, s::visit)) {
                descriptor = new Message();
                pushDescriptor(descriptor, s); // asks about what was pushed meanwhile before each new try
            }
        } finally {
            endAsking(s);
        }
        int count = descriptor == null ? 0 : collect(descriptor);
        if (s.thrown != null) {
            throw DeliQueue.<RuntimeException>sneaky(s.thrown);
        }
        return count;
    }

    /** A removal's selection for {@code p}; the {@code REMOVAL_ABORTS_ON_THROW} mutant overrides it. */
    Selection newSelection(Predicate<Message> p) {
        return new Selection(p);
    }

    /**
     * A removal's selection, private to its thread: a traversal ({@link Walk}) that asks the predicate about each
     * message it meets that is neither REMOVED nor covered by an owner node passed, and keeps the tickets of the
     * messages it matched (ascending, one segment of the walk at a time) and the predicate's first throwable.
     */
    static class Selection extends Walk {
        final Predicate<Message> predicate;
        private long[] tickets = new long[8];
        private int size;
        /** Where the current segment's tickets start in {@link #tickets}. */
        private int segmentStart;
        /** The predicate's first throw on a message that was still in the queue after it: rethrown at the end. */
        Throwable thrown;
        /** The throw of the last question, until {@link #visit} knows whether its message was still queued. */
        private Throwable pending;

        Selection(Predicate<Message> predicate) {
            this.predicate = predicate;
        }

        /**
         * Asks the predicate about {@code m} unless it is REMOVED; a match adds its ticket. Never stops the walk: the
         * descriptor must go above a top whose every message was asked about.
         */
        boolean visit(Message m) {
            if (Trace.ON) Trace.event("traverse_visit", null, "m", m, "outcome", "ask");
            boolean removed = isRemoved(m);
            // obligation: UserCodeOnCaller
            boolean match = !removed && ask(m);
            if (!removed) {
                // A removal may have cleared the payload under the predicate: then the message had left, and
                // neither the answer nor a throw counts. The fence keeps the payload reads before that check.
                FieldAccess.loadFence();
                boolean left = isRemoved(m);
                match &= !left;
                if (pending != null && !left && thrown == null) {
                    thrown = pending;
                }
                pending = null;
            }
            if (Trace.ON) Trace.event("removeMatching_ask", null, "m", m, "removed", removed, "answer", match);
            if (match) {
                if (size == tickets.length) {
                    tickets = Arrays.copyOf(tickets, size * 2);
                }
                tickets[size++] = m.ticket;
            }
            return false;
        }

        /** Asks the predicate about {@code m}, once; a throw is a "no", held until {@link #visit} knows if m left. */
        boolean ask(Message m) {
            try {
                return predicate.test(m);
            } catch (Throwable t) {
                pending = t;
                return false;
            }
        }

        /** Puts the segment's tickets (a walk from top down: descending) in ascending order; stops once one matched. */
        @Override
        boolean endSegment() {
            for (int i = segmentStart, j = size - 1; i < j; i++, j--) {
                long t = tickets[i];
                tickets[i] = tickets[j];
                tickets[j] = t;
            }
            segmentStart = size;
            return size > 0;
        }

        /** The tickets matched so far, a copy a descriptor can carry (the selection may grow if its push fails). */
        long[] verdicts() {
            return Arrays.copyOf(tickets, size);
        }
    }

    /**
     * The remover's walk from its descriptor down: tombstones what the descriptor owns, counts what is owned by
     * it (tombstoned by this thread or by a helper), releases the payload of those messages and hands them, then
     * the descriptor, to the Looper with one freelist push. Runs no user code: the descriptor's tickets decide.
     * The walk ends below the lowest of them.
     */
    int collect(Message descriptor) {
        long lowest = oldestVerdict(descriptor);
        List<Message> passed = null; // owner nodes between the descriptor and the cursor: earlier than it
        Message head = descriptor;
        int count = 0;
        descriptor.nextFree = null;
        // obligation: TraversalComplete, TraversalSafe
        for (Message above = descriptor, m; ; above = m) {
            m = FieldAccess.lpNext(above);
            if (Trace.ON) Trace.event("collect_advance", null, "m", above, "next", m);
            if (m == null || m.ticket < lowest) {
                if (Trace.ON) Trace.event("collect_visit", null, "m", m, "outcome", "end");
                break;
            }
            if (isOwnerNode(m)) {
                if (Trace.ON) Trace.event("collect_visit", null, "m", m, "outcome", "owner");
                (passed == null ? passed = new ArrayList<>() : passed).add(m);
                continue;
            }
            // obligation: RemovalReturnsItsSet
            if (!covers(descriptor, m) || leftBefore(m, descriptor, passed)) {
                if (Trace.ON) Trace.event("collect_visit", null, "m", m, "outcome", "skip");
                continue; // not selected, or no longer in the queue at this removal's linearization point
            }
            if (Trace.ON) Trace.event("collect_visit", null, "m", m, "outcome", "match");
            boolean taken = takeFor(m, descriptor);
            if (Trace.ON) Trace.event("collect_takeFor", null, "m", m, "taken", taken);
            if (taken) {
                m.nextFree = head;
                head = m;
                count++;
            }
        }
        for (Message m = head; m != descriptor; m = m.nextFree) {
            releasePayload(m);
        }
        finish(descriptor);
        pushFreelist(head, descriptor, count + 1);
        if (Trace.ON) Trace.event("removeMatching_pushFreelist", null, "nodes", count + 1);
        return count;
    }

    /**
     * Marks the removal {@code d} finished, once every message it covers has left the queue (taken by it, or gone
     * before, or owned by an earlier owner, which walks meet below it): no walk needs it as an owner again. It first
     * records in {@code d.skip} where the run of dead nodes below it ends ({@link #endOfDeadRun}), and walks jump
     * there from it. So the tombstones and finished descriptors a debounce leaves behind a busy Looper (one of each
     * per event, until the Looper next drains them) cost a walk one step per run instead of one per node.
     */
    void finish(Message d) {
        // obligation: SkipsPassOnlyGone
        d.skip = endOfDeadRun(d);
        int f = FieldAccess.lvFlags(d);
        // obligation: TraversalComplete
        boolean published = FieldAccess.casFlags(d, f, f | Message.FLAG_FINISHED); // the CAS publishes d.skip
        assert published : "only its remover writes a descriptor's flags once it is pushed";
        if (Trace.ON) Trace.event("collect_finish", null, "d", d, "skip", d.skip);
    }

    /**
     * The first node below {@code d} that is not dead: a message not REMOVED (RESERVED counts as live), an owner
     * node not finished (the quit sentinel, a pending removal), or null at the bottom. Dead nodes are removed
     * messages and finished descriptors, whose own runs it jumps over. Every node with a ticket between
     * {@code d}'s and the result's is then dead, and stays so (REMOVED and FINISHED are never cleared; pushes only
     * add tickets above {@code top}), whatever the Looper unlinks meanwhile: it unlinks dead nodes only, and an
     * unlinked node keeps its {@code next}.
     */
    Message endOfDeadRun(Message d) {
        Message n = FieldAccess.lpNext(d);
        // obligation: CallsReturn
        while (n != null) {
            int f = FieldAccess.lvFlags(n);
            if ((f & Message.FLAG_FINISHED) != 0) {
                n = n.skip;
            } else if (isDeadMessage(f)) {
                n = FieldAccess.lpNext(n);
            } else {
                break;
            }
        }
        return n;
    }

    /**
     * Whether a node with these flags is a dead message: REMOVED, and not an owner node (the quit sentinel and
     * descriptors are born REMOVED, but they own what lies below them until they are done).
     */
    boolean isDeadMessage(int flags) {
        return (flags & Message.FLAG_REMOVED) != 0
                && (flags & (Message.FLAG_REMOVAL | Message.FLAG_QUIT_SENTINEL)) == 0;
    }

    /**
     * Whether {@code m} left the queue before the removal {@code descriptor} took effect: delivered, owned by
     * another removal (a later one takes only what this one does not cover, so {@code removedBy} is decisive), or
     * covered by an earlier owner node among {@code passed} (a removal or the quit, which drops it at its push).
     * The {@code REMOVAL_IGNORES_OWNER} mutant overrides it.
     */
    boolean leftBefore(Message m, Message descriptor, List<Message> passed) {
        int f = FieldAccess.lvFlags(m);
        if ((f & Message.FLAG_REMOVED) != 0
                && ((f & Message.FLAG_DELIVERED) != 0 || m.removedBy != descriptor)) {
            return true;
        }
        return passed != null && earliestOwner(passed, m) != null;
    }

    /** Rethrows {@code t} unchanged, checked or not (the caller's predicate threw it). */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /** Clears the payload of a message tombstoned for a remover: it must not keep user objects reachable. */
    void releasePayload(Message m) {
        // obligation: PayloadReleased
        m.retire();
    }

    /**
     * Tombstones {@code m} for {@code owner} unless it has left the queue (a RESERVED message is resolved first);
     * returns whether {@code owner} owns it now. Every caller names the earliest owner, so they write the same
     * {@code removedBy}.
     */
    boolean takeFor(Message m, Message owner) {
        for (;;) {
            int f = FieldAccess.lvFlags(m);
            if ((f & Message.FLAG_REMOVED) != 0) {
                return (f & Message.FLAG_DELIVERED) == 0 && m.removedBy == owner;
            }
            if ((f & Message.FLAG_RESERVED) != 0) {
                // obligation: CallsReturn
                resolve(m);
                continue;
            }
            m.removedBy = owner;
            // obligation: ExactlyOnce, Refinement
            if (FieldAccess.casFlags(m, f, f | Message.FLAG_REMOVED)) {
                return true;
            }
        }
    }

    /**
     * Pushes the chain {@code head ... tail} (linked by nextFree, {@code nodes} long) onto the freelist with one CAS,
     * then counts its nodes in {@link #freelistSize}. The push that brings the count to {@link #FREELIST_WAKE_SIZE}
     * wakes the Looper if it sleeps: its drain unlinks them, so removals behind a sleeping Looper (a debounce from
     * another thread) keep the stack bounded instead of growing until the Looper's deadline. The Dekker pair is the
     * one of a push against {@code sleep}: this CAS, then the read of the wait word; the Looper's ASLEEP write, then
     * its re-check of {@code freelist}.
     */
    void pushFreelist(Message head, Message tail, int nodes) {
        for (;;) {
            Message f = FieldAccess.loFreelist(this);
            tail.nextFree = f;
            // obligation: HeapStackConsistent
            if (FieldAccess.casFreelist(this, f, head)) {
                break;
            }
        }
        if (handOverWakes(freelistSize.addAndGet(nodes), nodes)) {
            wakeIfAsleep(ASLEEP);
        }
    }

    /**
     * Whether the hand-over of {@code nodes} nodes that brought the freelist to {@code size} wakes the Looper: the
     * one that reached or stepped over {@link #FREELIST_WAKE_SIZE}. The {@code REMOVALS_PILE_UP} and
     * {@code FREELIST_WAKE_AT_EXACT_SIZE} mutants override it.
     */
    boolean handOverWakes(int size, int nodes) {
        return size >= FREELIST_WAKE_SIZE && size - nodes < FREELIST_WAKE_SIZE;
    }

    /**
     * Drops every node of the freelist from its heap and unlinks it; a descriptor there has finished its removal
     * and is no longer pending. The sweep after taking the freelist makes every node of the chain swept: its
     * remover found it below its descriptor, which was pushed before the chain.
     */
    void drainFreelist() {
        if (FieldAccess.loFreelist(this) == null) {
            if (Trace.ON) Trace.event("drainFreelist_exchange", Trace.LOOPER, "empty", true);
            return;
        }
        // obligation: HeapStackConsistent
        Message m = takeFreelist();
        if (Trace.ON) Trace.event("drainFreelist_exchange", Trace.LOOPER, "empty", false);
        sweep();
        int drained = 0;
        // obligation: GoneNodesUnlinkedAtRest
        for (; m != null; drained++) {
            Message nextFree = m.nextFree;
            m.nextFree = null;
            if (Trace.ON) Trace.event("drainFreelist_node", Trace.LOOPER, "m", m);
            if (isRemoval(m)) {
                notPending(m); // its remover let go of its predicate: it covers what it took
                unlink(m);
            } else {
                if (m.heapIndex >= 0) {
                    heapOf(m).remove(m);
                }
                unlink(m);
                m.retire();
            }
            m = nextFree;
        }
        if (Trace.ON) Trace.event("drainFreelist_node", Trace.LOOPER, "m", null);
        freelistSize.addAndGet(-drained);
    }

    /**
     * Takes the whole freelist in one exchange: a chain a remover pushes meanwhile lands either in what this takes or
     * on the emptied list for the next drain ({@code FREELIST_DRAIN_READ_THEN_CLEAR} reads, then clears, and loses a
     * chain pushed in between: its tombstones stay linked for good).
     */
    Message takeFreelist() {
        return FieldAccess.xchgFreelist(this, null);
    }

    /** Takes the drained descriptor {@code d} out of {@link #pendingRemovals}: the last one moves to its index. */
    private void notPending(Message d) {
        int i = d.heapIndex;
        assert i >= 0 && pendingRemovals.get(i) == d : "a drained descriptor was swept, so it is pending";
        Message last = pendingRemovals.remove(pendingRemovals.size() - 1);
        if (last != d) {
            pendingRemovals.set(i, last);
            last.heapIndex = i;
        }
        d.heapIndex = -1;
    }

    /**
     * Unlinks the swept node {@code m} from the stack. A node without back-link is the newest swept one; if it is
     * still {@code top} it stays as a tombstone until the next sweep unlinks it (the Looper never moves
     * {@code top}: tickets stay monotone, and pushes never race the Looper).
     */
    void unlink(Message m) {
        if (m.prev == null) {
            // obligation: TraversalSafe, GoneNodesUnlinkedAtRest
            if (FieldAccess.laTop(this) == m) {
                assert deferredUnlink == null && swept == m;
                deferredUnlink = m;
                if (Trace.ON) Trace.event("unlink_check", Trace.LOOPER, "m", m, "then", "defer");
                return;
            }
            if (Trace.ON) Trace.event("unlink_check", Trace.LOOPER, "m", m, "then", "sweep");
            sweep(); // links the nodes pushed above m
        } else if (Trace.ON) {
            Trace.event("unlink_check", Trace.LOOPER, "m", m, "then", "splice");
        }
        splice(m);
    }

    /** {@code prev.next = next; next.prev = prev}. {@code m.next} is kept for traversals standing on m. */
    void splice(Message m) {
        Message p = m.prev;
        Message n = FieldAccess.lpNext(m);
        // obligation: TraversalComplete, BackLinksConsistent
        FieldAccess.spNext(p, n);
        if (n != null) {
            n.prev = p;
        }
        m.prev = null;
        if (Trace.ON) Trace.event("unlink_splice", Trace.LOOPER, "m", m);
    }

    // =====================================================================================================
    // ownership: which removal (or quit) a message belongs to
    // =====================================================================================================

    /** Whether {@code n} is a node that can own messages: a removal descriptor or the quit sentinel. */
    static boolean isOwnerNode(Message n) {
        return (FieldAccess.lvFlags(n) & (Message.FLAG_REMOVAL | Message.FLAG_QUIT_SENTINEL)) != 0;
    }

    /**
     * Whether the owner node {@code o} covers the message {@code m}: {@code m} was pushed before it and the
     * removal's selection matched it (its verdicts: data, no user code), or its quit drops {@code m}. The
     * {@code LOOPER_ASKS_PREDICATE} mutant overrides it.
     */
    boolean covers(Message o, Message m) {
        if (m.ticket >= o.ticket) {
            return false;
        }
        if (isQuitSentinel(o)) {
            return droppedByQuit(o, m);
        }
        // obligation: UserCodeOnCaller
        return Arrays.binarySearch(verdictsOf(o), m.ticket) >= 0;
    }

    /**
     * The earliest (lowest-ticket) node of {@code owners} that covers {@code m}, or null. The
     * {@code EARLIEST_OWNER_IS_LATEST} mutant overrides it.
     */
    Message earliestOwner(List<Message> owners, Message m) {
        Message owner = null;
        for (Message o : owners) {
            if ((owner == null || o.ticket < owner.ticket) && covers(o, m)) {
                owner = o;
            }
        }
        return owner;
    }

    // =====================================================================================================
    // 4. traverse (any thread): queries, and a removal's selection
    // =====================================================================================================

    /**
     * The racy traversal of a query: offers {@code visitor} every message pushed before the last read of
     * {@code top} that is not REMOVED and that no node it passed owns, newest first, stopping early when the visitor
     * returns true (see {@link #traverse(Walk, Predicate)}). A message removed just after its flags were read is
     * offered too, its payload perhaps cleared: the visitor reads the flags again after the payload
     * ({@link #isLive}). What the visitor itself posts is not offered ({@link #beginAsking}). The
     * {@code SINGLE_PASS_TRAVERSAL} mutant overrides it.
     *
     * @return whether the visitor stopped the walk
     */
    boolean traverse(Predicate<Message> visitor) {
        Walk w = new Walk();
        beginAsking(w); // a query's predicate is user code
        try {
            return traverse(w, visitor);
        } finally {
            endAsking(w);
        }
    }

    /**
     * A traversal's state across its segments: the owner nodes it passed, and the {@code top} it walked down from.
     * A query's walk ends when {@code top} is stable; a removal's selection also at the end of a segment in which it
     * matched ({@link Selection#endSegment}).
     */
    static class Walk {
        List<Message> owners;
        /** The last {@code top} read (null before the first): every node pushed before it has been walked. */
        Message seen;
        /** What this walk's thread posted from inside its predicate ({@link #noteOwnPost}); null if nothing. */
        Set<Message> ownPosts;
        /** The walk with a predicate this one runs inside, on the same thread (a predicate that walks again). */
        Walk outer;

        /** Called after each segment; true ends the walk there. */
        boolean endSegment() {
            return false;
        }
    }

    /**
     * The traversal loop, for queries and removals' selections: reads {@code top} (spec: traverse_readTop, then
     * traverse_recheck) and walks from it down to what {@code w} walked before (tickets above the previous
     * {@code top}'s), until {@code top} is unchanged (see the class comment) or the walk stops.
     *
     * @return true if the visitor or {@link Walk#endSegment} stopped the walk, false once {@code top} was stable
     */
    private boolean traverse(Walk w, Predicate<Message> visitor) {
        // obligation: TraversalComplete, TraversalSafe, Refinement
        for (;;) {
            Message t = FieldAccess.lvTop(this);
            if (Trace.ON) Trace.event(w.seen == null ? "traverse_readTop" : "traverse_recheck", null, "top", t);
            if (walkedAll(w, t)) {
                return false;
            }
            if (walkSegment(t, w, visitor)) {
                return true;
            }
            boolean ended = w.endSegment();
            fenceBeforeRecheck();
            w.seen = t;
            if (ended) {
                return true;
            }
        }
    }

    /**
     * One segment of a traversal: from {@code t} down to the first node at or below {@code w.seen} (by ticket),
     * passing owner nodes (remembered in {@code w}) and the messages they cover, jumping from a finished descriptor
     * to its {@code skip}, offering the others to {@code visitor}.
     *
     * @return whether the visitor stopped the walk
     */
    private boolean walkSegment(Message t, Walk w, Predicate<Message> visitor) {
        long floor = w.seen == null ? 0 : w.seen.ticket;
        Message m = t;
        // obligation: HasAnswersAtomically
        while (m != null && m.ticket > floor) {
            Message n;
            if (isFinished(m)) {
                // obligation: TraversalComplete, SkipsPassOnlyGone
                if (Trace.ON) Trace.event("traverse_visit", null, "m", m, "outcome", "jump"); // dead down to m.skip
                n = m.skip; // written before the FINISHED CAS, read after the flag read that showed it
            } else {
                if (isOwnerNode(m)) {
                    if (Trace.ON) Trace.event("traverse_visit", null, "m", m, "outcome", "owner");
                    notePassedOwner(w, m);
                } else if (isRemoved(m) || takenByPassedOwner(w, m)) {
                    // Gone: REMOVED (never cleared; tested first, so the tombstones and finished descriptors behind
                    // a busy Looper cost one flag read each), or taken by an owner passed.
                    if (Trace.ON) Trace.event("traverse_visit", null, "m", m, "outcome", "skip");
                } else if (w.ownPosts != null && postedWithin(w, m)) {
                    if (Trace.ON) Trace.event("traverse_visit", null, "m", m, "outcome", "own");
                } else if (visitor.test(m)) {
                    return true;
                }
                n = FieldAccess.lpNext(m);
            }
            if (Trace.ON) Trace.event("traverse_advance", null, "m", m, "next", n);
            m = n;
        }
        if (Trace.ON) Trace.event("traverse_visit", null, "m", m, "outcome", "stop");
        return false;
    }

    /**
     * Whether the walk has seen every node pushed before {@code t}, the {@code top} it just read: {@code t} is the
     * top its last segment began from. Whatever else is on top, an owner node included, was pushed during the walk
     * and may lie above a new match (spec: traverse_recheck). The {@code RECHECK_TRUSTS_OWNER_ON_TOP} mutant
     * overrides it.
     */
    boolean walkedAll(Walk w, Message t) {
        return t == w.seen;
    }

    /**
     * Records an owner node the walk passed: what it covers below is gone for this walk. Every owner passed counts,
     * not only the last: a match the first descriptor owns stays gone once a second owner node has been passed
     * (spec: traverse_visit). The {@code QUERY_REMEMBERS_LAST_OWNER} mutant overrides it.
     */
    void notePassedOwner(Walk w, Message owner) {
        // obligation: HasMessagesLinearizable
        (w.owners == null ? w.owners = new ArrayList<>() : w.owners).add(owner);
    }

    /**
     * Whether an owner node the walk passed took {@code m}: a removal's descriptor at its push, or the quit
     * sentinel. Then {@code m} has left the queue, and neither a query nor a removal's predicate is asked about it
     * (user code runs only on queued messages). The {@code SELECT_ASKS_ABOUT_OWNED} mutant overrides it.
     */
    boolean takenByPassedOwner(Walk w, Message m) {
        // obligation: UserCodeOnCaller, HasMessagesLinearizable
        return w.owners != null && earliestOwner(w.owners, m) != null;
    }

    /**
     * Whether {@code m} was posted by the walk's own thread from inside its predicate: then the walk passes it
     * without asking ({@link #beginAsking}). The {@code ASKS_ABOUT_OWN_POSTS} mutant overrides it.
     */
    boolean postedWithin(Walk w, Message m) {
        return w.ownPosts.contains(m);
    }

    /**
     * A payload read as cleared means its message was removed: that must precede the traversal's next read of
     * {@code top}, where a false answer (or a removal that selected nothing) linearizes (see
     * FieldAccess.loadFence). The {@code TRAVERSE_WITHOUT_FENCE} mutant overrides it.
     */
    void fenceBeforeRecheck() {
        FieldAccess.loadFence();
    }

    @Override
    boolean hasMatching(Predicate<Message> p) {
        // obligation: HasMessagesLinearizable
        return traverse(m -> {
            boolean match;
            try {
                match = p.test(m);
            } catch (Throwable e) {
                // A removal may have cleared the payload under the predicate (what 0, target null): its throw then
                // says nothing about the queue, which no longer held the message.
                FieldAccess.loadFence();
                if (!isRemoved(m)) {
                    throw DeliQueue.<RuntimeException>sneaky(e);
                }
                match = false;
            }
            if (Trace.ON) Trace.event("traverse_visit", null, "m", m, "outcome", match ? "match" : "skip");
            if (!match) {
                return false;
            }
            // The predicate's plain payload reads must be performed before the flags are read again: a payload read
            // as cleared then implies REMOVED (payload is cleared only after it), so a live answer had live payload.
            FieldAccess.loadFence();
            boolean live = isLive(m);
            if (Trace.ON) Trace.event("hasMatching_isRemoved", null, "m", m, "removed", !live);
            return live;
        });
    }

    /**
     * Whether {@code m} is still in the queue; a reservation is resolved first (it counts as present until then).
     * The {@code QUERY_SKIPS_RESERVATION} mutant overrides it.
     */
    boolean isLive(Message m) {
        int f = FieldAccess.lvFlags(m);
        if ((f & Message.FLAG_RESERVED) != 0) {
            // obligation: CallsReturn
            resolve(m);
            f = FieldAccess.lvFlags(m);
        }
        return (f & Message.FLAG_REMOVED) == 0;
    }

    // =====================================================================================================
    // 5. tagged refcount (wakers, Looper teardown)
    // =====================================================================================================

    /** Signals the wake resource under a counted reference, unless the Looper is tearing down. */
    void wake() {
        if (acquireWakeRef()) {
            try {
                signalWakeResource();
            } finally {
                releaseWakeRef();
            }
        }
    }

    /** Takes a reference to the wake resource: false if TEARDOWN is set (then the resource must not be used). */
    final boolean acquireWakeRef() {
        for (;;) {
            long c = FieldAccess.loWakeRefs(this);
            boolean tearingDown = (c & TEARDOWN) != 0;
            // obligation: NoUseAfterTeardown
            if (tearingDown || FieldAccess.casWakeRefs(this, c, c + 1)) {
                if (Trace.ON) Trace.event("wake_acquire", null, "count", c & ~TEARDOWN, "teardown", tearingDown);
                return !tearingDown;
            }
        }
    }

    /** Drops a reference; the last one out after TEARDOWN unparks the Looper waiting in {@link #teardown}. */
    final void releaseWakeRef() {
        // obligation: NoUseAfterTeardown, QuitTerminates
        long left = FieldAccess.decrementWakeRefs(this);
        if (Trace.ON) {
            Trace.event("wake_release", null, "count", (left + 1) & ~TEARDOWN, "teardown", (left & TEARDOWN) != 0);
        }
        if (left == TEARDOWN) {
            LockSupport.unpark(teardownThread);
        }
    }

    /** Uses the wake resource; callers hold a reference ({@link #acquireWakeRef}). */
    final void signalWakeResource() {
        wakeResource.signal();
        if (Trace.ON) Trace.event("wake_signal", null);
    }

    /**
     * Looper, once: sets TEARDOWN ({@link #tagTeardown}), waits until no waker holds a reference
     * ({@link #awaitWakersGone}), frees the resource. Each step is a method of its own, the step a seeded bug
     * overrides, so that a trace of the bug still records the others.
     */
    final void teardown() {
        teardownThread = Thread.currentThread();
        long c = tagTeardown();
        if (Trace.ON) Trace.event("teardown_set", null, "count", c & ~TEARDOWN, "teardown", (c & TEARDOWN) != 0);
        awaitWakersGone();
        freeWakeResource();
        if (Trace.ON) Trace.event("teardown_free", Trace.LOOPER);
    }

    /**
     * Parks until the refcount is TEARDOWN alone: the last waker out unparks the Looper ({@link #releaseWakeRef}).
     * Interrupts do not end the wait ({@link #parkUntil}).
     */
    void awaitWakersGone() {
        for (;;) {
            long c = FieldAccess.laWakeRefs(this);
            if (Trace.ON) Trace.event("teardown_check", null, "count", c & ~TEARDOWN, "teardown", (c & TEARDOWN) != 0);
            if (wakersGone(c)) {
                break;
            }
            parkUntil(this, NO_DEADLINE);
            if (Trace.ON) Trace.event("teardown_park", Trace.LOOPER);
        }
    }

    /**
     * Whether the teardown wait is over: the refcount {@code c} is TEARDOWN alone. Nothing else ends it: a park that
     * returns early (an interrupt of the Looper, or a spurious return) only makes the wait read the count again. The
     * {@code TEARDOWN_WAIT_ENDS_ON_INTERRUPT} mutant overrides it.
     */
    boolean wakersGone(long c) {
        // obligation: NoUseAfterTeardown
        return c == TEARDOWN;
    }

    /**
     * Sets TEARDOWN by CAS, leaving the count as it is: a waker that takes or drops a reference between the read
     * and the write makes the CAS fail, and the count it changed is read again. Returns the count it tagged. A read
     * then a store (the {@code TEARDOWN_TAG_READ_THEN_WRITE} mutant) would wipe out a reference taken between the
     * two, and free the resource under its waker, or bring back one dropped between them, and wait for ever.
     */
    long tagTeardown() {
        long c = FieldAccess.loWakeRefs(this);
        // obligation: NoUseAfterTeardown, QuitTerminates
        while (!FieldAccess.casWakeRefs(this, c, c | TEARDOWN)) {
            c = FieldAccess.loWakeRefs(this);
        }
        return c;
    }

    /** Frees the wake resource: the native free of upstream. */
    final void freeWakeResource() {
        wakeResource.free();
    }

    // =====================================================================================================
    // 6. wait word (Looper sleeps; see signalIfEarlier for the producer side)
    // =====================================================================================================

    /**
     * Publishes the blocking barrier and ASLEEP, re-checks {@code top} and {@code freelist}, and parks until
     * {@code deadline} unless either moved since the sweep. The re-check is the Looper's half of the Dekker pair:
     * a push that it misses sees ASLEEP and decides the wake itself. Each step is a method of its own, the step a
     * seeded bug overrides: the publication ({@link #publishSleep}, its ASLEEP store {@link #publishAsleep}), the
     * re-check ({@link #unchangedSinceSweep}, its reads {@link #recheckTop} and {@link #recheckFreelist}) and the
     * park ({@link #park}).
     *
     * @param barrier the live barrier at the head of the sync heap, or null
     */
    void sleep(long deadline, Message barrier) {
        publishSleep(barrier, asleepWord(deadline, barrier != null));
        if (Trace.ON) Trace.event("sleep_publish", Trace.LOOPER, "dl", deadline, "bar", barrier);
        if (unchangedSinceSweep()) {
            park(deadline);
            if (Trace.ON) Trace.event("sleep_park", Trace.LOOPER);
        }
        FieldAccess.soWaitWord(this, AWAKE);
        if (Trace.ON) Trace.event("sleep_awake", Trace.LOOPER);
    }

    /**
     * Publishes the sleep: the barrier it sleeps behind, then the wait word. In this order, a producer that reads
     * this wait word reads this barrier or a later sleep's ({@link #heldBackByBarrier}); stored after the word, the
     * barrier of an earlier sleep could still be read, and a message this sleep's barrier does not hold back would
     * be judged held back and left without a wake (the {@code SLEEP_BARRIER_AFTER_ASLEEP} mutant).
     */
    void publishSleep(Message barrier, long word) {
        FieldAccess.soSleepBarrier(this, barrier);
        publishAsleep(word);
    }

    /**
     * The Looper's ASLEEP store, the first half of its Dekker pair: volatile, so that the re-check's loads cannot
     * pass it. The {@code SLEEP_RELEASE_ACQUIRE} mutant overrides it.
     */
    void publishAsleep(long word) {
        FieldAccess.svWaitWord(this, word);
    }

    /**
     * The re-check after ASLEEP: whether {@code top} is still the top the Looper swept and {@code freelist} is
     * empty, so that it may park. The {@code LOST_WAKEUP} mutant overrides it.
     */
    boolean unchangedSinceSweep() {
        // obligation: NoLostWakeup
        Message t = recheckTop();
        if (Trace.ON) Trace.event("sleep_recheckTop", Trace.LOOPER, "top", t);
        if (t != swept) {
            return false;
        }
        Message f = recheckFreelist();
        if (Trace.ON) Trace.event("sleep_recheckFree", Trace.LOOPER, "empty", f == null);
        return f == null;
    }

    /** The re-check's read of {@code top}: volatile. The {@code SLEEP_RELEASE_ACQUIRE} mutant overrides it. */
    Message recheckTop() {
        return FieldAccess.lvTop(this);
    }

    /** The re-check's read of {@code freelist}: volatile. The {@code SLEEP_RELEASE_ACQUIRE} mutant overrides it. */
    Message recheckFreelist() {
        return FieldAccess.lvFreelist(this);
    }

    /**
     * Parks the Looper until {@code deadline}, its interrupt status cleared and remembered ({@link #parkUntil}).
     * The {@code PARK_KEEPS_INTERRUPT} mutant overrides it.
     */
    void park(long deadline) {
        parkUntil(this, deadline);
    }

    static long asleepWord(long deadline, boolean blocked) {
        return (Math.min(deadline, MAX_DEADLINE) << 2) | ASLEEP | (blocked ? BLOCKED : 0);
    }

    // =====================================================================================================
    // 7. deliver (Looper)
    // =====================================================================================================

    @Override
    Message nextIgnoringInterrupts() {
        wakeResource.bind(Thread.currentThread());
        boolean idleHandlersRan = false;
        for (;;) {
            if (tornDown) {
                return null;
            }
            long now = clock.uptimeMillis();
            if (Trace.ON) {
                clockReadForTrace = now;
            }
            // obligation: EventualDelivery
            Message m = takeDueOrNull(now);
            if (m != null) {
                return m;
            }
            // obligation: QuitTerminates
            if (quitSentinel != null) {
                tornDown = true;
                teardown();
                return null;
            }
            if (!idleHandlersRan && isIdleAt(now) && hasIdleHandlers()) {
                idleHandlersRan = true;
                runIdleHandlers();
                continue;
            }
            sleep(nextDeadline, blockingBarrier);
        }
    }

    @Override
    public Message poll() {
        wakeResource.bind(Thread.currentThread());
        return tornDown ? null : takeDueOrNull(clock.uptimeMillis());
    }

    /**
     * One Looper step: sweep, drain, handle quit, then deliver the first deliverable message if it is due.
     * Otherwise records in {@link #nextDeadline} and {@link #blockingBarrier} how to sleep.
     */
    Message takeDueOrNull(long now) {
        for (;;) {
            sweep();
            drainFreelist();
            if (quitSentinel != null && !quitMessagesDropped) {
                quitMessagesDropped = true;
                dropOnQuit();
            }
            if (Trace.ON) Trace.event("takeDueOrNull_dropOnQuit", Trace.LOOPER, "m", null);
            now = dueBy(now);
            Message head = firstDeliverable();
            if (head == null || head.when > now) {
                nextDeadline = head == null ? NO_DEADLINE : head.when;
                if (Trace.ON) {
                    Trace.event("takeDueOrNull_deliver", Trace.LOOPER, "m", head, "due", false, "dl", nextDeadline,
                            "bar", blockingBarrier);
                }
                return null;
            }
            // obligation: ExactlyOnce, DeliveryOrder
            heapOf(head).remove(head);
            if (Trace.ON) Trace.event("takeDueOrNull_deliver", Trace.LOOPER, "m", head, "due", true);
            if (claimForDelivery(head)) {
                unlink(head);
                return head;
            }
            dropIfQuitOwns(head);
            // Otherwise a removal owns it: its remover hands it back through the freelist.
        }
    }

    /**
     * The time takeDueOrNull judges due-ness by: {@code now}, its clock reading, or once the quit sentinel is swept
     * the quit's time if later. Everything quitSafely kept is due by the quit's time, which the clock passed before
     * the sweep saw the sentinel; a reading taken before that sweep (a claim lost to a removal sends the Looper
     * round again without a new reading) must not leave a kept message undelivered when next() then tears down.
     * The {@code DUE_BY_FORGETS_QUIT} mutant overrides it.
     */
    long dueBy(long now) {
        // obligation: Refinement
        return quitSentinel == null ? now : Math.max(now, quitSentinel.when);
    }

    /**
     * The Looper's claim: reserves {@code m} ({@code claimTop} = the top it swept), then resolves the reservation.
     * True if {@code m} is delivered; false if a remover tombstoned it first or a node pushed since the sweep owns
     * it. The {@code UNRESERVED_DELIVERY} and {@code DELIVER_WITHOUT_REMOVED_CAS} mutants override it.
     */
    boolean claimForDelivery(Message m) {
        m.claimTop = claimFloor();
        int f = FieldAccess.lvFlags(m);
        // obligation: ExactlyOnce
        while ((f & Message.FLAG_REMOVED) == 0 && !FieldAccess.casFlags(m, f, f | Message.FLAG_RESERVED)) {
            f = FieldAccess.lvFlags(m);
        }
        boolean reserved = (f & Message.FLAG_REMOVED) == 0;
        if (Trace.ON) Trace.event("takeDueOrNull_claim", Trace.LOOPER, "m", m, "reserved", reserved);
        return reserved && resolve(m);
    }

    /**
     * The claim's floor: the {@code top} of the Looper's last sweep, which its choice of message was made from; an
     * owner pushed above it is one the Looper did not know of. The {@code CLAIM_FLOOR_AT_TOP} mutant overrides it.
     */
    Message claimFloor() {
        // obligation: RemovalReturnsItsSet
        return swept;
    }

    /**
     * Resolves the Looper's reservation of {@code m} (any thread): if a node pushed after {@code m.claimTop} owns
     * {@code m} ({@link #ownerSinceClaim}), tombstones it for that owner, else marks it delivered. The first
     * resolution CAS decides; later callers read its outcome (spec: takeDueOrNull_resolve on the Looper,
     * resolve_reserved on a thread that met the reservation). The read of {@code top} in {@link #ownerSinceClaim}
     * is the delivery's linearization point: no owner had been pushed by then, and until the CAS every thread
     * counted {@code m} as present.
     *
     * @return whether {@code m} was delivered
     */
    boolean resolve(Message m) {
        Message owner = ownerSinceClaim(m);
        int outcome = Message.FLAG_REMOVED | (owner == null ? Message.FLAG_DELIVERED : 0);
        for (;;) {
            int f = FieldAccess.lvFlags(m);
            boolean reserved = (f & Message.FLAG_RESERVED) != 0;
            if (reserved && owner != null) {
                m.removedBy = owner;
            }
            if (!reserved || FieldAccess.casFlags(m, f, (f & ~Message.FLAG_RESERVED) | outcome)) {
                boolean delivered = reserved ? owner == null : (f & Message.FLAG_DELIVERED) != 0;
                if (Trace.ON) {
                    Trace.event(Trace.isLooper() ? "takeDueOrNull_resolve" : "resolve_reserved", null, "m", m,
                            "won", reserved, "delivered", delivered);
                }
                return delivered;
            }
        }
    }

    /**
     * The earliest node pushed since the Looper reserved {@code m} (a ticket above {@code m.claimTop}'s) that
     * covers {@code m}, or null: read from {@code top} down. The {@code RESOLVE_TAKES_LATEST_OWNER} mutant
     * overrides it.
     */
    Message ownerSinceClaim(Message m) {
        Message from = m.claimTop;
        long floor = from == null ? 0 : from.ticket;
        Message owner = null;
        // obligation: Refinement, ExactlyOnce
        for (Message n = FieldAccess.lvTop(this); n != null && n.ticket > floor; n = FieldAccess.lpNext(n)) {
            if (isOwnerNode(n) && covers(n, m)) {
                owner = n; // walking down: the last one met is the earliest
            }
        }
        return owner;
    }

    /**
     * A message the quit sentinel owns has no remover: the Looper unlinks and retires it. Reached when a quit
     * pushed between the Looper's sweep and its claim takes the message the claim chose, which has left its heap
     * already, so the quit's drop at the next sweep does not meet it. The {@code CLAIM_LEAVES_QUIT_DROP} mutant
     * overrides it.
     */
    void dropIfQuitOwns(Message m) {
        Message owner = m.removedBy;
        if (owner != null && isQuitSentinel(owner) && (FieldAccess.lvFlags(m) & Message.FLAG_DELIVERED) == 0) {
            unlink(m);
            retireDropped(m);
        }
    }

    /** The head of the sync heap unless it is a barrier, in which case only async messages may go. */
    private Message firstDeliverable() {
        Message sync = liveHead(syncHeap);
        Message async = liveHead(asyncHeap);
        // obligation: DeliveryOrder
        blockingBarrier = sync != null && sync.isBarrier() ? sync : null;
        if (blockingBarrier != null || sync == null) {
            return async;
        }
        return async == null || syncHeap.compare(async, sync) >= 0 ? sync : async;
    }

    /**
     * The head of {@code heap} after dropping the heads that have left the queue: tombstoned ones (their remover
     * hands them back through the freelist) and ones a removal the Looper has swept owns (tombstoned here for
     * it: a barrier removed at its descriptor's push blocks no more). Both heaps, sync and async, go through it. The
     * {@code DEAD_HEAD_SYNC_ONLY} mutant overrides it.
     */
    Message liveHead(MessageHeap heap) {
        for (Message h; (h = heap.peek()) != null; dropDeadHead(heap, h)) {
            if (!isRemoved(h)) {
                Message owner = pendingRemovals.isEmpty() ? null : earliestOwner(pendingRemovals, h);
                // A removal may have tombstoned h and cleared its payload while covers() read it: look again, so
                // that a head is live only if it was not REMOVED after its owners were tested (found by trace
                // validation: the Looper slept until the deadline of a removed message).
                if (owner == null && !isRemoved(h)) {
                    return h;
                }
                if (owner != null) {
                    takeFor(h, owner);
                }
            }
            if (Trace.ON) Trace.event("takeDueOrNull_liveHead", Trace.LOOPER, "m", h);
        }
        return null;
    }

    /**
     * Takes the dead head {@code h} out of {@code heap}, so that {@link #liveHead} meets the next one: a head left
     * in place would be met again, for ever (EventualDelivery). The {@code DEAD_BARRIER_STAYS_IN_HEAP} mutant
     * overrides it.
     */
    void dropDeadHead(MessageHeap heap, Message h) {
        // obligation: EventualDelivery
        heap.remove(h);
    }

    /**
     * Whether nothing is due at {@code now}, so the idle handlers may run: a head due now counts even when it is a
     * barrier that blocks the queue (as in Android's next()). The {@code IDLE_BEHIND_DUE_BARRIER} mutant overrides it.
     */
    boolean isIdleAt(long now) {
        Message sync = syncHeap.peek();
        Message async = asyncHeap.peek();
        return (sync == null || sync.when > now) && (async == null || async.when > now);
    }

    // =====================================================================================================
    // 8. quit
    // =====================================================================================================

    /**
     * Pushes the quit sentinel through the push loop, which for quitSafely reads the clock for the quit's time after
     * each read of {@code top}: every push below the sentinel happened before that clock reading, so a message
     * accepted with {@code when} at or before its poster's clock reading is never dropped by quitSafely. quit()
     * drops everything and reads no clock, so a clock that throws or blocks cannot stop it. The push is the quit's
     * linearization point: from then on the sentinel owns what it drops ({@link #droppedByQuit}). If an earlier
     * quit took effect it pushes nothing.
     */
    @Override
    void quitQueue(boolean safe) {
        if (pushNode(newQuitSentinel(safe), true, null)) {
            wakeIfAsleep(ASLEEP);
        }
    }

    /**
     * quit drops everything, its barriers too; quitSafely everything due after the quit's time. The
     * {@code QUIT_KEEPS_BARRIERS} mutant overrides it.
     */
    boolean droppedByQuit(Message sentinel, Message m) {
        // obligation: Refinement
        return !quitsSafely(sentinel) || m.when > sentinel.when;
    }

    /** Looper, once, when the sweep first meets the sentinel. */
    private void dropOnQuit() {
        dropFrom(syncHeap);
        dropFrom(asyncHeap);
    }

    /** Drops what the quit owns; what a removal pushed before the quit owns is tombstoned for it instead. */
    private void dropFrom(MessageHeap heap) {
        for (Message m : heap.toArray()) {
            if (isRemoved(m) || !droppedByQuit(quitSentinel, m)) {
                continue;
            }
            heap.remove(m);
            Message owner = ownerAtQuit(m);
            if (owner != quitSentinel) {
                takeFor(m, owner);
                if (Trace.ON) Trace.event("takeDueOrNull_dropOnQuit", Trace.LOOPER, "m", m);
            } else if (takeFor(m, quitSentinel)) {
                if (Trace.ON) Trace.event("takeDueOrNull_dropOnQuit", Trace.LOOPER, "m", m);
                unlink(m);
                retireDropped(m);
            }
        }
    }

    /**
     * Clears the payload, target and callback of a message the quit dropped, as a removal's are: a dropped message
     * keeps nothing reachable ({@code QUIT_DROP_KEEPS_PAYLOAD} keeps them).
     */
    void retireDropped(Message m) {
        m.retire();
    }

    /**
     * The owner of {@code m}, which the quit drops: the earliest removal the Looper has swept that covers it, if
     * that removal was pushed before the quit (it took {@code m} first), else the quit sentinel. The
     * {@code QUIT_DROP_OVERRIDES_REMOVAL} mutant overrides it.
     */
    Message ownerAtQuit(Message m) {
        Message removal = pendingRemovals.isEmpty() ? null : earliestOwner(pendingRemovals, m);
        // obligation: RemovalReturnsItsSet
        return removal != null && removal.ticket < quitSentinel.ticket ? removal : quitSentinel;
    }

    // =====================================================================================================
    // node kinds: what a removal descriptor and the quit sentinel keep in a Message's fields
    // =====================================================================================================

    /** The quit sentinel of {@code quit(safe)}: born REMOVED like a descriptor, its time set when it is pushed. */
    static Message newQuitSentinel(boolean safe) {
        Message sentinel = new Message();
        sentinel.flags = Message.FLAG_IN_USE | Message.FLAG_REMOVED | Message.FLAG_QUIT_SENTINEL;
        sentinel.arg1 = safe ? 1 : 0;
        return sentinel;
    }

    /** Whether the quit sentinel is quitSafely's (it drops only what is due after its time): kept in arg1. */
    static boolean quitsSafely(Message sentinel) {
        return sentinel.arg1 != 0;
    }

    /** The tickets a removal descriptor covers, in ascending order: kept in its obj, written before its push. */
    static long[] verdictsOf(Message descriptor) {
        return (long[]) descriptor.obj;
    }

    /**
     * The ticket of the oldest message among a removal's verdicts: its collect ends below it, since tickets fall
     * strictly along {@code next}. Whether the Looper has tombstoned a verdict for the removal already does not
     * move it: that message is still this removal's to count. The {@code COLLECT_STOPS_AT_NEWEST} and
     * {@code FLOOR_FROM_UNREMOVED_VERDICTS} mutants override it.
     */
    long oldestVerdict(Message descriptor) {
        return verdictsOf(descriptor)[0];
    }

    private static void setVerdicts(Message descriptor, long[] tickets) {
        descriptor.obj = tickets;
    }

    static boolean isRemoved(Message m) {
        return (FieldAccess.lvFlags(m) & Message.FLAG_REMOVED) != 0;
    }

    static boolean isQuitSentinel(Message m) {
        return (FieldAccess.lvFlags(m) & Message.FLAG_QUIT_SENTINEL) != 0;
    }

    static boolean isFinished(Message m) {
        return (FieldAccess.lvFlags(m) & Message.FLAG_FINISHED) != 0;
    }

    static boolean isRemoval(Message m) {
        return (FieldAccess.lvFlags(m) & Message.FLAG_REMOVAL) != 0;
    }

    /** The quit sentinel, or a descriptor pushed above it: no message may be pushed on it. */
    static boolean isQuitting(Message m) {
        return (FieldAccess.lvFlags(m) & (Message.FLAG_QUIT_SENTINEL | Message.FLAG_QUITTING)) != 0;
    }

    // =====================================================================================================
    // barriers, queries, dump
    // =====================================================================================================

    @Override
    public int postSyncBarrier() {
        long when = clock.uptimeMillis(); // first: a clock that throws costs no token
        int token = takeBarrierToken();
        Message barrier = new Message();
        barrier.makeBarrier(when, token);
        if (!push(barrier)) {
            throw new IllegalStateException("Cannot post a sync barrier: the queue is quitting.");
        }
        return token;
    }

    /**
     * A token no other barrier took, whichever threads post barriers at once: one atomic step (the
     * {@code BARRIER_TOKEN_READ_THEN_WRITE} mutant reads, then writes, and two posts can share a token). Tokens run
     * 1, 2, ..., {@code Integer.MAX_VALUE}, then 1 again: always positive, as the API promises (an increment would
     * go on to {@code Integer.MIN_VALUE}, then 0, the token no barrier has).
     */
    int takeBarrierToken() {
        for (;;) { // a failed CAS means another post took a token: lock-free
            int t = nextBarrierToken.get();
            if (nextBarrierToken.compareAndSet(t, t == Integer.MAX_VALUE ? 1 : t + 1)) {
                return t;
            }
        }
    }

    /**
     * Removes one barrier with this token: the one that sorts first (tokens wrap to 1 after 2^31 - 1, so two pending
     * barriers may share one). If a removal or the quit takes it first, looks again.
     */
    @Override
    public void removeSyncBarrier(int token) {
        for (;;) {
            Message barrier = firstBarrier(token);
            if (barrier == null) {
                throw new IllegalStateException("The specified message queue synchronization "
                        + " barrier token has not been posted or has already been removed.");
            }
            if (removeMatching(m -> m == barrier) != 0) {
                // If the Looper sleeps behind a barrier, this one may have been it.
                wakeIfAsleep(ASLEEP | BLOCKED);
                return;
            }
        }
    }

    Message firstBarrier(int token) {
        Message[] first = {null};
        traverse(m -> {
            if (m.isBarrier() && m.barrierToken() == token && isLive(m)
                    && (first[0] == null || sortsBefore(m, first[0]))) {
                first[0] = m;
            }
            return false;
        });
        return first[0];
    }

    @Override
    public boolean isIdle() {
        long now = clock.uptimeMillis();
        return !hasMatching(m -> m.when <= now);
    }

    @Override
    void recycleDispatched(Message msg) {
        msg.retire();
    }

    /**
     * Lists the pending messages newest first, as upstream does: what a query's walk offers, so not what a removal
     * or the quit already owns though the Looper has not yet swept it. Like a query it walks again what was pushed
     * while it walked (listed after the older messages) until {@code top} stays put. Racy, for diagnostics only.
     */
    @Override
    public void dump(StringBuilder out, String prefix) {
        long now = clock.uptimeMillis();
        List<Pending> pending = new ArrayList<>();
        traverse(m -> {
            pending.add(new Pending(pending.size(), m.detachedCopy()));
            return false;
        });
        for (Pending p : pending) {
            p.appendTo(out, prefix, now); // after the walk: a payload's toString may re-enter the queue
        }
        Message t = FieldAccess.laTop(this);
        out.append(prefix).append("(Total messages: ").append(pending.size()).append(", asleep=")
                .append((FieldAccess.lvWaitWord(this) & ASLEEP) != 0).append(", quitting=")
                .append(t != null && isQuitting(t)).append(")\n");
    }

    /** The heap a swept message of {@code m}'s kind goes into. */
    MessageHeap heapOf(Message m) {
        return m.isAsynchronous() ? asyncHeap : syncHeap;
    }
}
