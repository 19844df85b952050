package org.deliqueue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The lock-free MessageQueue of Android 17 ("DeliQueue"), rebuilt for the JVM and checked against the
 * TLA+ specification in {@code spec/DeliQueue.tla}.
 *
 * <h2>Implementation notes</h2>
 *
 * <p>Producers and the consumer (the Looper thread) never share a lock. Producers push messages onto a
 * Treiber stack [Treiber 1986] with one CAS. The Looper alone walks the part of the stack pushed since its last
 * walk, writes back-links (making the stack a doubly linked list) and moves the messages into two array
 * min-heaps it owns, ordered by {@code (when, insertSeq)}. Removal by other threads is logical: a CAS sets the
 * message's REMOVED flag (a tombstone) and the message is handed to the Looper on a lock-free freelist; the Looper
 * later drops it from its heap and unlinks it from the stack in O(1) through the back-link. Traversals by
 * {@code removeMessages} / {@code hasMessages} walk the stack with plain reads while the Looper unlinks, which is
 * safe because an unlinked message keeps its {@code next}. Quitting pushes a sentinel that makes every later push
 * fail, and frees the Looper's wake resource only when a tagged refcount shows no waker is using it. The steps,
 * with their names in the specification:
 * <ol>
 *   <li>{@link #push} - read {@code top}; fail on the quit sentinel; write {@code next} and {@code ticket};
 *       CAS {@code top}. Then {@link #signalIfEarlier}.
 *   <li>{@link #sweep} - Looper: walk from {@code top} down to {@link #swept}, write back-links, heap the live.
 *   <li>{@link #removeMatching} / {@link #drainFreelist} / {@link #unlink} - tombstone, freelist, unlink.
 *   <li>{@link #traverse} - the racy traversal, repeated until {@code top} is stable.
 *   <li>{@link #acquireWakeRef} / {@link #releaseWakeRef} / {@link #teardown} - the tagged refcount around
 *       {@link WakeResource}.
 *   <li>{@link #sleep} / {@link #signalIfEarlier} - the wait word.
 *   <li>{@link #takeDueOrNull} - delivery, decided by the REMOVED CAS.
 *   <li>{@link #quitQueue} - the quit sentinel; it takes effect when pushed ({@link #droppedByQuit}).
 * </ol>
 *
 * <p><b>Tickets.</b> A push stores {@code ticket = top.ticket + 1} before its CAS. The Looper never moves
 * {@code top} down: when the message to unlink is {@code top} it stays there, tombstoned, until the next push
 * ({@link #deferredUnlink}). So tickets strictly decrease along {@code next} and never decrease at {@code top}: the
 * ticket is the message's enqueue order at no cost to producers (no shared counter), traversals bound their
 * passes by it, and it is the heap's tie-breaker ({@code insertSeq = ticket}, or {@code -ticket} for
 * front-of-queue messages, which therefore come out LIFO).
 *
 * <p><b>Invariants</b> (the obligation IDs of {@code spec/DeliQueue.tla}):
 * <ul>
 *   <li>ExactlyOnce: a message leaves the queue through exactly one successful CAS of REMOVED into its flags,
 *       by a remover ({@link #removeMatching}) or by the Looper delivering or dropping it.
 *   <li>NoLostMessage: every message whose push succeeded is delivered, removed, dropped by quit, or
 *       reachable from {@code top} and, once swept, in a heap unless REMOVED.
 *   <li>DeliveryOrder: the Looper delivers the least {@code (when, insertSeq)} among due swept messages,
 *       looking only at the async heap while a barrier heads the sync heap.
 *   <li>HeapStackConsistent: a message is in a heap only if it is swept and linked; a linked swept message that
 *       is not REMOVED is in a heap. REMOVED messages still in a heap are on their way to the freelist.
 *   <li>BackLinksConsistent: for each linked message {@code m} at or below {@link #swept} with
 *       {@code m.next == n != null}, {@code n.prev == m}; {@code m.prev == null} iff {@code m == swept}.
 *   <li>TraversalSafe: {@code next} always points to a message with a smaller ticket, so every walk ends;
 *       TraversalComplete: a walk visits every message that stays linked while it runs.
 *   <li>NoUseAfterTeardown: {@link WakeResource} is signalled only under a reference counted in
 *       {@link #wakeRefs} before the TEARDOWN bit was set, and freed only once that count is 0.
 *   <li>NoLostWakeup: the Looper parks only after publishing ASLEEP in {@link #waitWord} and then seeing
 *       {@code top} and {@code freelist} unchanged since its sweep.
 *   <li>NoPushAfterQuit: once the quit sentinel is {@code top}, it stays {@code top} and every push fails.
 * </ul>
 *
 * <p><b>Memory ordering.</b> All accesses of shared fields go through {@link FieldAccess}.
 * <ul>
 *   <li>{@code top}, {@code freelist}: volatile reads, CAS writes. A push writes {@code m.next},
 *       {@code m.ticket} and every payload field before its CAS, so a thread that reads {@code top} (or any
 *       {@code next} chain from it) sees them: each later push's CAS read its predecessor's CAS, a chain of
 *       synchronizes-with edges. {@code nextFree} is published the same way by the freelist CAS.
 *   <li>{@code next}: plain. After publication only the Looper writes it ({@link #splice}), always replacing
 *       {@code p.next == m} by {@code m.next}. A racing traversal reads either value, both published messages
 *       with smaller tickets, so it can neither leave the published set nor loop; the unlinked {@code m} keeps
 *       its {@code next}, so a traversal standing on it rejoins the stack (the benign race of the design
 *       article). Java forbids out-of-thin-air values for references, so no third value can be read.
 *   <li>{@code flags}: volatile, REMOVED set only by CAS: the CAS is the linearization point of the removal or
 *       the delivery it decides. A traversal reads a message's payload before its flags, so a message found live
 *       was live with that payload; payload is cleared ({@link Message#retire()}) only after REMOVED.
 *   <li>{@code waitWord} against {@code top} / {@code freelist}: a Dekker pair of volatile accesses. The Looper
 *       writes ASLEEP then reads {@code top} and {@code freelist}; a producer CASes {@code top} (a remover of a
 *       barrier, {@code freelist}) then reads {@code waitWord}. Volatile accesses are totally ordered, so either
 *       the Looper sees the new message or the producer sees ASLEEP and decides the wake. Release/acquire would
 *       not do: both sides need the store-load order.
 *   <li>{@code wakeRefs}: volatile, CAS. {@link #teardownThread} is written before the TEARDOWN CAS, so a waker
 *       that sees TEARDOWN also sees whom to unpark.
 *   <li>Looper-only fields ({@code prev}, {@code heapIndex}, {@code insertSeq}, heaps, {@link #swept}) are plain.
 * </ul>
 *
 * <p><b>No pooling.</b> Messages that leave DeliQueue are retired, never pooled: a pooled message could be
 * pushed again while a stale traversal still stands on it (the traversal would follow its new {@code next} into
 * newer messages), and its REMOVED flag would be cleared under a remover's feet (upstream edge case 3). A retired
 * message keeps IN_USE and REMOVED, so enqueueing it again is rejected. Because no message is pushed twice, no
 * CAS on {@code top} or {@code freelist} suffers ABA.
 *
 * <p><b>Linearizability.</b> One walk from one read of {@code top} does not make {@code hasMessages}
 * linearizable: a matching message can be delivered behind the walk while another is pushed in front of it, and
 * the walk answers false though a match was pending at every instant. {@link #traverse} therefore walks again over
 * the messages pushed meanwhile until {@code top} is unchanged: a false answer linearizes at that last read of
 * {@code top}, a true one at the flag read that found the match. {@code removeMessages} tombstones each message
 * with its own CAS; on the Looper thread it is linearizable at its last CAS, but on another thread a removal that
 * matches several messages can interleave with deliveries (docs/design.md gives the trace, which upstream shares).
 */
public class DeliQueue extends MessageQueue {

    // ---- wait word: AWAKE, or ASLEEP | (BLOCKED) | deadline << 2 ----
    static final long AWAKE = 0L;
    static final long ASLEEP = 1L;
    static final long BLOCKED = 2L;
    /** Deadlines at or beyond this (about 73 million years of uptime) mean "until woken". */
    static final long MAX_DEADLINE = Long.MAX_VALUE >>> 2;

    /** The quitting tag of {@link #wakeRefs}; the other bits count wakers using the resource. */
    static final long TEARDOWN = Long.MIN_VALUE;

    // ---- shared fields, accessed through FieldAccess ----
    /** The Treiber stack of all messages not yet unlinked, newest first. */
    // obligation: TypeOK
    volatile Message top;
    /** Tombstoned messages (chained by nextFree) for the Looper to drop and unlink. */
    volatile Message freelist;
    /** Whether the Looper runs or sleeps, and until when; see {@link #sleep}. */
    volatile long waitWord = AWAKE;
    /** Tagged refcount of threads using {@link #wakeResource}. */
    volatile long wakeRefs;
    /** The Looper thread, once it tears down: unparked by the last waker to leave. */
    volatile Thread teardownThread;

    private final WakeResource wakeResource = new WakeResource();
    private final AtomicInteger nextBarrierToken = new AtomicInteger(1);

    // ---- Looper-owned state ----
    /** Synchronous messages and barriers. */
    private final MessageHeap syncHeap = newHeap();
    /** Asynchronous messages. */
    private final MessageHeap asyncHeap = newHeap();
    /** {@code top} as of the last sweep: it and everything below it has been swept. */
    Message swept;
    /** A message to unlink that was {@code top} when it left the queue; unlinked by the next sweep. */
    private Message deferredUnlink;
    /** The quit sentinel, once swept. */
    private Message quitSentinel;
    private boolean quitMessagesDropped;
    private boolean tornDown;
    /** Set by {@link #takeDueOrNull}: when the Looper must look again, and whether a barrier blocks. */
    private long nextDeadline;
    private boolean blockedByBarrier;

    public DeliQueue(boolean quitAllowed, Clock clock) {
        super(quitAllowed, clock);
    }

    /** The heap implementation; the comparator mutant overrides it. */
    MessageHeap newHeap() {
        return new MessageHeap();
    }

    // =====================================================================================================
    // 1. push (any thread)
    // =====================================================================================================

    /**
     * Pushes {@code m} onto the stack, unless the quit sentinel is on top. Lock-free: a CAS fails only because
     * another push succeeded.
     */
    boolean push(Message m) {
        for (;;) {
            Message t = FieldAccess.lvTop(this);
            // obligation: NoPushAfterQuit
            if (t != null && isQuitSentinel(t)) {
                return false;
            }
            FieldAccess.spNext(m, t);
            // obligation: TraversalSafe, DeliveryOrder
            m.ticket = t == null ? 1 : t.ticket + 1;
            // obligation: NoLostMessage, PushLockFree, Refinement
            if (FieldAccess.casTop(this, t, m)) {
                return true;
            }
        }
    }

    @Override
    boolean enqueueClaimed(Message msg, long when) {
        msg.when = when;
        boolean async = msg.isAsynchronous();
        if (!push(msg)) {
            warnDroppedAfterQuit(msg);
            msg.retire();
            return false;
        }
        signalIfEarlier(when, async);
        return true;
    }

    /**
     * Wakes the Looper if it sleeps past {@code when}. If the Looper is awake it will see the push before it
     * sleeps (see {@link #sleep}); if it sleeps until a deadline at or before {@code when} it sees the push then.
     * A synchronous message behind a blocking barrier matters only if it sorts before the barrier, which needs
     * {@code when} before the barrier's time and hence before now.
     */
    void signalIfEarlier(long when, boolean async) {
        for (;;) {
            long w = FieldAccess.lvWaitWord(this);
            // obligation: NoLostWakeup
            if ((w & ASLEEP) == 0 || when >= (w >>> 2)) {
                return;
            }
            if ((w & BLOCKED) != 0 && !async && when >= clock.uptimeMillis()) {
                return;
            }
            if (FieldAccess.casWaitWord(this, w, AWAKE)) {
                wake();
                return;
            }
        }
    }

    // =====================================================================================================
    // 2. sweep (Looper)
    // =====================================================================================================

    /**
     * Moves every message pushed since the last sweep into its heap and links it back. Walks from the current
     * {@code top} down to {@link #swept}, which is linked (the Looper never unlinks it, see {@link #unlink}),
     * hence reachable.
     */
    void sweep() {
        Message t = FieldAccess.lvTop(this);
        Message stop = swept;
        if (t == stop) {
            return;
        }
        for (Message m = t; m != stop; ) {
            Message n = FieldAccess.lpNext(m);
            if (n != null) {
                linkBack(n, m);
            }
            if (isQuitSentinel(m)) {
                quitSentinel = m;
            } else if (!isRemoved(m)) {
                // obligation: DeliveryOrder, HeapStackConsistent
                m.insertSeq = m.when == 0 ? -m.ticket : m.ticket;
                heapOf(m).add(m);
            }
            m = n;
        }
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
    // 3. tombstone, drain, unlink
    // =====================================================================================================

    /** The REMOVED CAS: true for exactly one caller per message. */
    static boolean markRemoved(Message m) {
        for (int f = FieldAccess.lvFlags(m); (f & Message.FLAG_REMOVED) == 0; f = FieldAccess.lvFlags(m)) {
            // obligation: ExactlyOnce, Refinement
            if (FieldAccess.casFlags(m, f, f | Message.FLAG_REMOVED)) {
                return true;
            }
        }
        return false;
    }

    /** Pushes the chain {@code head ... tail} (linked by nextFree) onto the freelist with one CAS. */
    void pushFreelist(Message head, Message tail) {
        for (;;) {
            Message f = FieldAccess.lvFreelist(this);
            tail.nextFree = f;
            // obligation: HeapStackConsistent
            if (FieldAccess.casFreelist(this, f, head)) {
                return;
            }
        }
    }

    /**
     * Drops every tombstoned message from its heap and unlinks it. The sweep after taking the freelist makes
     * every message of the chain swept: its remover found it from {@code top} before pushing it on the freelist.
     */
    void drainFreelist() {
        if (FieldAccess.lvFreelist(this) == null) {
            return;
        }
        // obligation: HeapStackConsistent
        Message m = FieldAccess.xchgFreelist(this, null);
        sweep();
        while (m != null) {
            Message nextFree = m.nextFree;
            m.nextFree = null;
            if (m.heapIndex >= 0) {
                heapOf(m).remove(m);
            }
            unlink(m);
            m.retire();
            m = nextFree;
        }
    }

    /**
     * Unlinks the swept message {@code m} from the stack. A message without back-link is the newest swept one;
     * if it is still {@code top} it stays as a tombstone until the next sweep unlinks it (the Looper never moves
     * {@code top}: tickets stay monotone, and pushes never race the Looper).
     */
    void unlink(Message m) {
        if (m.prev == null) {
            // obligation: TraversalSafe
            if (FieldAccess.lvTop(this) == m) {
                assert deferredUnlink == null && swept == m;
                deferredUnlink = m;
                return;
            }
            sweep(); // links the messages pushed above m
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
    }

    // =====================================================================================================
    // 4. traverse (any thread)
    // =====================================================================================================

    /**
     * The racy traversal: offers {@code visitor} every message pushed before the last read of {@code top}, newest
     * first, stopping early when the visitor returns true. Walks from {@code top}, then over what was pushed
     * meanwhile (tickets above the previous {@code top}'s), until {@code top} is stable (see the class comment).
     * Removed and unlinked messages are offered too (the visitor checks flags after payload); messages a quit has
     * dropped are not, since the quit took effect when its sentinel was pushed, above them.
     *
     * @return whether the visitor stopped the walk
     */
    boolean traverse(Predicate<Message> visitor) {
        Message quit = null;
        // obligation: TraversalComplete, TraversalSafe, Refinement
        for (Message seen = null, t; (t = FieldAccess.lvTop(this)) != seen; seen = t) {
            long floor = seen == null ? 0 : seen.ticket;
            for (Message m = t; m != null && m.ticket > floor; m = FieldAccess.lpNext(m)) {
                if (isQuitSentinel(m)) {
                    quit = m;
                } else if ((quit == null || !droppedByQuit(quit, m)) && visitor.test(m)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Tombstones every live message matching {@code p}, then hands them to the Looper in one freelist push. Each
     * tombstone is atomic; the whole removal is atomic only on the Looper thread (see the class comment).
     */
    @Override
    int removeMatching(Predicate<Message> p) {
        Tombstones removed = new Tombstones(p);
        traverse(removed);
        if (removed.head != null) {
            pushFreelist(removed.head, removed.tail);
        }
        return removed.count;
    }

    /** Collects the messages whose REMOVED CAS this remover wins, chained by nextFree. */
    private static final class Tombstones implements Predicate<Message> {
        private final Predicate<Message> matches;
        Message head;
        Message tail;
        int count;

        Tombstones(Predicate<Message> matches) {
            this.matches = matches;
        }

        @Override
        public boolean test(Message m) {
            if (matches.test(m) && markRemoved(m)) {
                m.nextFree = head;
                if (tail == null) {
                    tail = m;
                }
                head = m;
                count++;
            }
            return false;
        }
    }

    @Override
    boolean hasMatching(Predicate<Message> p) {
        return traverse(m -> p.test(m) && !isRemoved(m));
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
            long c = FieldAccess.lvWakeRefs(this);
            if ((c & TEARDOWN) != 0) {
                return false;
            }
            // obligation: NoUseAfterTeardown
            if (FieldAccess.casWakeRefs(this, c, c + 1)) {
                return true;
            }
        }
    }

    /** Drops a reference; the last one out after TEARDOWN unparks the Looper waiting in {@link #teardown}. */
    final void releaseWakeRef() {
        // obligation: NoUseAfterTeardown, QuitTerminates
        if (FieldAccess.decrementWakeRefs(this) == TEARDOWN) {
            LockSupport.unpark(teardownThread);
        }
    }

    /** Uses the wake resource; callers hold a reference ({@link #acquireWakeRef}). */
    final void signalWakeResource() {
        wakeResource.signal();
    }

    /** Looper, once: sets TEARDOWN, waits until no waker holds a reference, frees the resource. */
    void teardown() {
        teardownThread = Thread.currentThread();
        for (long c = FieldAccess.lvWakeRefs(this); !FieldAccess.casWakeRefs(this, c, c | TEARDOWN); ) {
            c = FieldAccess.lvWakeRefs(this);
        }
        // obligation: NoUseAfterTeardown
        while (FieldAccess.lvWakeRefs(this) != TEARDOWN) {
            LockSupport.park(this);
        }
        freeWakeResource();
    }

    /** Frees the wake resource: the native free of upstream. */
    final void freeWakeResource() {
        wakeResource.free();
    }

    /** Whether the wake resource has been freed (the Looper has torn down). */
    final boolean isTornDown() {
        return wakeResource.isFreed();
    }

    // =====================================================================================================
    // 6. wait word (Looper sleeps; see signalIfEarlier for the producer side)
    // =====================================================================================================

    /**
     * Publishes ASLEEP, re-checks {@code top} and {@code freelist}, and parks until {@code deadline} unless either
     * moved since the sweep. The re-check is the Looper's half of the Dekker pair: a push that it misses sees
     * ASLEEP and decides the wake itself.
     */
    void sleep(long deadline, boolean blocked) {
        FieldAccess.svWaitWord(this, asleepWord(deadline, blocked));
        // obligation: NoLostWakeup
        if (FieldAccess.lvTop(this) == swept && FieldAccess.lvFreelist(this) == null) {
            parkUntil(this, deadline >= MAX_DEADLINE ? NO_DEADLINE : deadline);
        }
        FieldAccess.svWaitWord(this, AWAKE);
    }

    static long asleepWord(long deadline, boolean blocked) {
        return (Math.min(deadline, MAX_DEADLINE) << 2) | ASLEEP | (blocked ? BLOCKED : 0);
    }

    // =====================================================================================================
    // 7. deliver (Looper)
    // =====================================================================================================

    @Override
    public Message next() {
        wakeResource.bind(Thread.currentThread());
        boolean idleHandlersRan = false;
        for (;;) {
            if (tornDown) {
                return null;
            }
            long now = clock.uptimeMillis();
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
            sleep(nextDeadline, blockedByBarrier);
        }
    }

    @Override
    public Message poll() {
        wakeResource.bind(Thread.currentThread());
        return tornDown ? null : takeDueOrNull(clock.uptimeMillis());
    }

    /**
     * One Looper step: sweep, drain, handle quit, then deliver the first deliverable message if it is due.
     * Otherwise records in {@link #nextDeadline} and {@link #blockedByBarrier} how to sleep.
     */
    Message takeDueOrNull(long now) {
        for (;;) {
            sweep();
            drainFreelist();
            if (quitSentinel != null && !quitMessagesDropped) {
                quitMessagesDropped = true;
                dropOnQuit();
            }
            if (quitSentinel != null) {
                // Everything kept is due by the quit's time, which the clock passed before this sweep saw the
                // sentinel: a `now` read earlier must not leave it undelivered when next() then tears down.
                now = Math.max(now, quitSentinel.when);
            }
            Message head = firstDeliverable();
            if (head == null || head.when > now) {
                nextDeadline = head == null ? NO_DEADLINE : head.when;
                return null;
            }
            // obligation: ExactlyOnce, DeliveryOrder
            heapOf(head).remove(head);
            if (claimForDelivery(head)) {
                unlink(head);
                return head;
            }
            // A remover won the CAS: it will put the message on the freelist, whose drain unlinks it.
        }
    }

    /** The delivery side of ExactlyOnce; the {@code DELIVER_WITHOUT_REMOVED_CAS} mutant overrides it. */
    boolean claimForDelivery(Message m) {
        return markRemoved(m);
    }

    /** The head of the sync heap unless it is a barrier, in which case only async messages may go. */
    private Message firstDeliverable() {
        Message sync = syncHeap.peek();
        Message async = asyncHeap.peek();
        // obligation: DeliveryOrder
        blockedByBarrier = sync != null && sync.isBarrier();
        if (blockedByBarrier || sync == null) {
            return async;
        }
        return async == null || syncHeap.compare(async, sync) >= 0 ? sync : async;
    }

    private boolean isIdleAt(long now) {
        Message sync = syncHeap.peek();
        Message async = asyncHeap.peek();
        return (sync == null || sync.when > now) && (async == null || async.when > now);
    }

    // =====================================================================================================
    // 8. quit
    // =====================================================================================================

    /**
     * Pushes the quit sentinel, which records the mode ({@code arg1}: 1 for quitSafely) and the uptime of the call
     * ({@code when}). Its push is the quit's linearization point: from then on every message it drops is dead
     * for traversals ({@link #droppedByQuit}) and the Looper drops it at its next sweep.
     */
    @Override
    void quitQueue(boolean safe) {
        Message sentinel = new Message();
        sentinel.flags = Message.FLAG_IN_USE | Message.FLAG_REMOVED | Message.FLAG_QUIT_SENTINEL;
        sentinel.arg1 = safe ? 1 : 0;
        sentinel.when = clock.uptimeMillis();
        // obligation: NoPushAfterQuit, QuitTerminates, Refinement
        if (push(sentinel)) {
            signalIfEarlier(Long.MIN_VALUE, true);
        }
    }

    /** quit drops everything; quitSafely everything due after the uptime of the call. */
    static boolean droppedByQuit(Message sentinel, Message m) {
        // obligation: Refinement
        return sentinel.arg1 == 0 || m.when > sentinel.when;
    }

    /** Looper, once, when the sweep first meets the sentinel. */
    private void dropOnQuit() {
        dropFrom(syncHeap);
        dropFrom(asyncHeap);
    }

    private void dropFrom(MessageHeap heap) {
        for (Message m : heap.toArray()) {
            if (droppedByQuit(quitSentinel, m)) {
                heap.remove(m);
                if (markRemoved(m)) {
                    unlink(m);
                    m.retire();
                }
            }
        }
    }

    // =====================================================================================================
    // barriers, queries, dump
    // =====================================================================================================

    @Override
    public int postSyncBarrier() {
        int token = nextBarrierToken.getAndIncrement();
        Message barrier = new Message();
        barrier.flags = Message.FLAG_IN_USE;
        barrier.when = clock.uptimeMillis();
        barrier.arg1 = token;
        if (!push(barrier)) {
            throw new IllegalStateException("Cannot post a sync barrier: the queue is quitting.");
        }
        return token;
    }

    @Override
    public void removeSyncBarrier(int token) {
        int removed = removeMatching(m -> m.target == null && !isQuitSentinel(m) && m.arg1 == token);
        if (removed == 0) {
            throw new IllegalStateException("The specified message queue synchronization "
                    + " barrier token has not been posted or has already been removed.");
        }
        // If the Looper sleeps behind a barrier, this one may have been it.
        for (;;) {
            long w = FieldAccess.lvWaitWord(this);
            if ((w & (ASLEEP | BLOCKED)) != (ASLEEP | BLOCKED)) {
                return;
            }
            if (FieldAccess.casWaitWord(this, w, AWAKE)) {
                wake();
                return;
            }
        }
    }

    @Override
    public boolean isIdle() {
        long now = clock.uptimeMillis();
        return !hasMatching(m -> !isQuitSentinel(m) && m.when <= now);
    }

    @Override
    void recycleDispatched(Message msg) {
        msg.retire();
    }

    /** Lists live messages in stack order (newest first), as upstream does; racy, for diagnostics only. */
    @Override
    public void dump(StringBuilder out, String prefix) {
        long now = clock.uptimeMillis();
        int n = 0;
        boolean quitting = false;
        for (Message m = FieldAccess.lvTop(this); m != null; m = FieldAccess.lpNext(m)) {
            if (isQuitSentinel(m)) {
                quitting = true;
            } else if (!isRemoved(m)) {
                out.append(prefix).append("Message ").append(n++).append(": ").append(m)
                        .append(" (due in ").append(m.when - now).append(" ms)\n");
            }
        }
        out.append(prefix).append("(Total messages: ").append(n).append(", asleep=")
                .append((FieldAccess.lvWaitWord(this) & ASLEEP) != 0).append(", quitting=").append(quitting)
                .append(")\n");
    }

    /**
     * Checks the structural obligations while no other thread uses the queue (tests, checkers' validation
     * hooks): TraversalSafe (tickets decrease along {@code next}), BackLinksConsistent and HeapStackConsistent.
     *
     * @throws IllegalStateException naming the broken obligation
     */
    void checkInvariants() {
        java.util.Set<Message> linked = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        boolean belowSwept = false; // swept == null: nothing swept yet
        for (Message m = FieldAccess.lvTop(this), up = null; m != null; up = m, m = FieldAccess.lpNext(m)) {
            check(up == null || m.ticket < up.ticket, "TraversalSafe", "ticket does not decrease at " + m);
            belowSwept |= m == swept;
            if (belowSwept) {
                check(m.prev == up || (m == swept && m.prev == null), "BackLinksConsistent", "prev of " + m);
                check(isRemoved(m) || m.heapIndex >= 0, "HeapStackConsistent", "live swept message not in a heap: " + m);
            } else {
                check(m.heapIndex < 0, "HeapStackConsistent", "unswept message in a heap: " + m);
            }
            linked.add(m);
        }
        check(swept == null || linked.contains(swept), "BackLinksConsistent", "swept message is not linked");
        for (MessageHeap heap : new MessageHeap[] {syncHeap, asyncHeap}) {
            Message[] entries = heap.toArray();
            for (int i = 0; i < entries.length; i++) {
                Message m = entries[i];
                check(m.heapIndex == i && heapOf(m) == heap, "HeapStackConsistent", "heap index of " + m);
                check(linked.contains(m), "HeapStackConsistent", "heap holds an unlinked message: " + m);
                check(i == 0 || heap.compare(entries[(i - 1) / 2], m) < 0, "DeliveryOrder", "heap order at " + m);
            }
        }
    }

    private static void check(boolean ok, String obligation, String what) {
        if (!ok) {
            throw new IllegalStateException(obligation + " violated: " + what);
        }
    }

    // ---- helpers ----

    private MessageHeap heapOf(Message m) {
        return m.isAsynchronous() ? asyncHeap : syncHeap;
    }

    static boolean isRemoved(Message m) {
        return (FieldAccess.lvFlags(m) & Message.FLAG_REMOVED) != 0;
    }

    static boolean isQuitSentinel(Message m) {
        return (FieldAccess.lvFlags(m) & Message.FLAG_QUIT_SENTINEL) != 0;
    }
}
