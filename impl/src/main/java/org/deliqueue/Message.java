package org.deliqueue;

/**
 * A message to deliver to a {@link Handler}: what to do ({@link #what}, {@link #arg1}, {@link #arg2},
 * {@link #obj}, or a {@link #getCallback() callback}), for whom ({@link #getTarget() target}) and when
 * ({@link #getWhen() when}, in {@link Clock} milliseconds).
 *
 * <p>Get one from {@link #obtain()} or a {@link Handler#obtainMessage()} variant. A message is <em>in use</em>
 * from the moment it is enqueued until the Looper has dispatched it or the queue has dropped it; enqueueing a
 * message in use throws {@link IllegalStateException}. After dispatch a message belongs to the queue again:
 * the {@link LegacyMessageQueue} returns it to a global pool, the {@link DeliQueue} retires it for good
 * (pooling would bring back nodes that stale traversals can still reach; see {@link DeliQueue}).
 *
 * <p>The package-private fields below the public ones are the queues' bookkeeping; which thread may touch
 * each of them is documented in {@link DeliQueue}.
 */
public final class Message {

    /**
     * Set from enqueue until dispatch or drop, and while pooled; claimed by CAS ({@link #claimUnlessInUse}) by an
     * enqueue or a recycle, so one message cannot be enqueued twice, nor recycled while it is enqueued.
     */
    static final int FLAG_IN_USE = 1;
    /** Delivered through sync barriers ({@link #setAsynchronous}). */
    static final int FLAG_ASYNCHRONOUS = 1 << 1;
    /** The tombstone: set by the one CAS that decides between delivery and removal (DeliQueue). */
    static final int FLAG_REMOVED = 1 << 2;
    /** Marks DeliQueue's quit sentinel, which is never delivered, removed or matched. */
    static final int FLAG_QUIT_SENTINEL = 1 << 3;
    /** A sync barrier ({@link MessageQueue#postSyncBarrier()}); its token: {@link #barrierToken()}. */
    static final int FLAG_BARRIER = 1 << 4;
    /** DeliQueue: the Looper has reserved this message for delivery; any thread resolves the reservation. */
    static final int FLAG_RESERVED = 1 << 5;
    /** DeliQueue: set with REMOVED by the resolution that delivers the message (not removed, not dropped). */
    static final int FLAG_DELIVERED = 1 << 6;
    /** DeliQueue: a removal descriptor, the node whose push is a removal's linearization point. */
    static final int FLAG_REMOVAL = 1 << 7;
    /** DeliQueue: a descriptor pushed above the quit sentinel; pushes of messages still fail on it. */
    static final int FLAG_QUITTING = 1 << 8;
    /**
     * DeliQueue: a removal descriptor whose removal has collected what it covers: no walk needs it as an owner
     * again, and walks jump from it to its {@link #skip}.
     */
    static final int FLAG_FINISHED = 1 << 9;

    private static final int MAX_POOL_SIZE = 50;
    private static final Object POOL_LOCK = new Object();
    /** Guarded by POOL_LOCK; volatile so that obtain() can see an empty pool without locking. */
    private static volatile Message pool;
    private static int poolSize;

    /** User-defined code identifying what this message is about. */
    public int what;
    /** Cheap integer payloads. */
    public int arg1;
    public int arg2;
    /** An arbitrary payload. */
    public Object obj;

    /** The handler that will dispatch this message; null only for sync barriers. */
    Handler target;
    /** Run instead of {@link Handler#handleMessage} when not null. */
    Runnable callback;
    /** Due time in {@link Clock} milliseconds; 0 means "front of the queue". */
    long when;

    /** IN_USE, ASYNCHRONOUS, REMOVED, QUIT_SENTINEL; racy accesses go through {@link FieldAccess}. */
    // obligation: TypeOK
    volatile int flags;

    /** Both queues: the next (older) node; DeliQueue reads it racily (see DeliQueue, "traverse"). */
    Message next;
    /** DeliQueue: position in the Treiber stack, {@code next.ticket + 1}; immutable once pushed. */
    long ticket;
    /** DeliQueue, Looper only: heap tie-breaker ({@code ticket}, or {@code -ticket} for front-of-queue). */
    long insertSeq;
    /**
     * DeliQueue, Looper only: index in the heap holding this message, or, for a removal descriptor, in the
     * Looper's set of pending removals; -1 if in neither.
     */
    int heapIndex = -1;
    /** DeliQueue, Looper only: the back-link (newer neighbour in the stack). */
    Message prev;
    /** DeliQueue: chains tombstoned messages on the freelist; written before the freelist CAS. */
    Message nextFree;
    /**
     * DeliQueue: the node that owns this message's removal (a removal descriptor, or the quit sentinel that drops
     * it); written before the REMOVED CAS by every thread that tombstones it, all of which name the same owner.
     */
    Message removedBy;
    /** DeliQueue: {@code swept} when the Looper reserved this message; written before the RESERVED CAS. */
    Message claimTop;
    /**
     * DeliQueue, a finished removal descriptor: the first node below it that was live, or an owner still needed,
     * when the removal finished (null: none). Every node in between was dead then (a removed message or a finished
     * descriptor), and dead nodes stay dead, so a walk may jump here. Written before the FINISHED CAS.
     */
    Message skip;

    /** Use {@link #obtain()}; public for parity with Android, where {@code new Message()} is allowed. */
    public Message() {
    }

    /** A message from the global pool, or a new one. */
    public static Message obtain() {
        if (pool == null) {
            return new Message(); // the pool is empty whenever only DeliQueue runs: no lock on that path
        }
        synchronized (POOL_LOCK) {
            Message m = pool;
            if (m != null) {
                pool = m.next;
                m.next = null;
                m.flags = 0;
                poolSize--;
                return m;
            }
        }
        return new Message();
    }

    /** A copy of {@code orig}'s payload, target and callback (not its queue state). */
    public static Message obtain(Message orig) {
        Message m = obtain();
        m.what = orig.what;
        m.arg1 = orig.arg1;
        m.arg2 = orig.arg2;
        m.obj = orig.obj;
        m.target = orig.target;
        m.callback = orig.callback;
        return m;
    }

    public static Message obtain(Handler h) {
        Message m = obtain();
        m.target = h;
        return m;
    }

    public static Message obtain(Handler h, Runnable callback) {
        Message m = obtain(h);
        m.callback = callback;
        return m;
    }

    public static Message obtain(Handler h, int what) {
        Message m = obtain(h);
        m.what = what;
        return m;
    }

    public static Message obtain(Handler h, int what, Object obj) {
        Message m = obtain(h, what);
        m.obj = obj;
        return m;
    }

    public static Message obtain(Handler h, int what, int arg1, int arg2) {
        Message m = obtain(h, what);
        m.arg1 = arg1;
        m.arg2 = arg2;
        return m;
    }

    public static Message obtain(Handler h, int what, int arg1, int arg2, Object obj) {
        Message m = obtain(h, what, arg1, arg2);
        m.obj = obj;
        return m;
    }

    /**
     * Returns this message to the pool. It first claims the message by the CAS an enqueue claims it by, so that of a
     * recycle and an enqueue (or two recycles) racing on one message exactly one has it: a test of IN_USE followed by
     * the clearing let both through, the pool then holding a message a queue held.
     *
     * @throws IllegalStateException if the message is in use (enqueued, being dispatched, pooled or retired)
     */
    public void recycle() {
        if (!claimUnlessInUse(0)) {
            throw new IllegalStateException(this + " cannot be recycled because it is still in use.");
        }
        recycleUnchecked();
    }

    /**
     * Sets IN_USE and {@code extraFlags} by one CAS from flags without IN_USE; false if the message is in use. Of
     * several threads claiming one message at once (enqueues, recycles) exactly one gets it.
     */
    boolean claimUnlessInUse(int extraFlags) {
        for (int f = FieldAccess.lvFlags(this); (f & FLAG_IN_USE) == 0; f = FieldAccess.lvFlags(this)) {
            // obligation: ExactlyOnce
            if (FieldAccess.casFlags(this, f, f | FLAG_IN_USE | extraFlags)) {
                return true;
            }
        }
        return false;
    }

    /** Clears the message and puts it in the pool, marked in use until {@link #obtain()} hands it out. */
    void recycleUnchecked() {
        clearForReuse();
        flags = FLAG_IN_USE;
        synchronized (POOL_LOCK) {
            if (poolSize < MAX_POOL_SIZE) {
                next = pool;
                pool = this;
                poolSize++;
            }
        }
    }

    /**
     * Clears the payload of a message DeliQueue has finished with, without pooling it. Its flags keep IN_USE
     * and REMOVED forever, so it can never be enqueued again, and its {@code next} stays intact for stale
     * traversals (see DeliQueue, "unlink").
     */
    void retire() {
        what = arg1 = arg2 = 0;
        obj = null;
        target = null;
        callback = null;
    }

    private void clearForReuse() {
        retire();
        when = 0;
        next = null;
        ticket = 0;
        insertSeq = 0;
        heapIndex = -1;
        prev = null;
        nextFree = null;
        removedBy = null;
        claimTop = null;
    }

    /**
     * Copies {@code o}'s flags that are not queue state (Android copies every flag but IN_USE; here IN_USE,
     * REMOVED and the queues' other marks are all queue state, which leaves the asynchronous flag) and its payload:
     * what, arg1, arg2, obj. Not its target, callback or when, as in Android. Like Android's, it works on a message
     * in use, such as the one being handled: the payload is copied, and the asynchronous flag too unless the
     * message is in use (then it belongs to the queue, which files a pending message by it; a message being handled
     * is never read by its queue again, so only {@link #isAsynchronous()} on it can tell).
     */
    public void copyFrom(Message o) {
        setAsynchronousUnlessInUse(o.isAsynchronous());
        what = o.what;
        arg1 = o.arg1;
        arg2 = o.arg2;
        obj = o.obj;
    }

    public long getWhen() {
        return when;
    }

    public Handler getTarget() {
        return target;
    }

    /**
     * Sets the handler this message is for. Set it before enqueueing: a queued message's target is its queue's (the
     * legacy queue takes a message without target for a barrier, DeliQueue would dispatch to null). Like a write of
     * {@link #what} or {@link #obj}, it must not race another thread's enqueue of this message.
     *
     * @throws IllegalStateException if the message is in use
     */
    public void setTarget(Handler target) {
        if (isInUse()) {
            throw new IllegalStateException(this + " is in use; set its target before enqueueing it.");
        }
        this.target = target;
    }

    public Runnable getCallback() {
        return callback;
    }

    /** Sends this message to its target handler. */
    public void sendToTarget() {
        if (target == null) {
            throw new IllegalArgumentException("Message must have a target.");
        }
        target.sendMessage(this);
    }

    public boolean isAsynchronous() {
        return (flags & FLAG_ASYNCHRONOUS) != 0;
    }

    /**
     * Makes this message asynchronous: it is not held back by sync barriers. Set it before enqueueing.
     *
     * @throws IllegalStateException if the message is in use
     */
    public void setAsynchronous(boolean async) {
        if (!setAsynchronousUnlessInUse(async)) {
            throw new IllegalStateException(this + " is in use; set its flags before enqueueing it.");
        }
    }

    /** Sets or clears the asynchronous flag unless the message is in use; returns whether it was not in use. */
    private boolean setAsynchronousUnlessInUse(boolean async) {
        for (int f = FieldAccess.lvFlags(this); (f & FLAG_IN_USE) == 0; f = FieldAccess.lvFlags(this)) {
            int update = async ? f | FLAG_ASYNCHRONOUS : f & ~FLAG_ASYNCHRONOUS;
            // One CAS from the flags checked: an enqueue's IN_USE claim in between makes it fail, never erased.
            if (update == f || FieldAccess.casFlags(this, f, update)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A copy of what {@link #toString} shows (payload, target, callback, when, the asynchronous and barrier flags),
     * in no queue, for a dump to write once it has left the queue: the queue may recycle or retire this message
     * meanwhile. Its fields are read once each; in DeliQueue, racily, as {@link #toString} reads them.
     */
    Message detachedCopy() {
        Message c = new Message();
        c.what = what;
        c.arg1 = arg1;
        c.arg2 = arg2;
        c.obj = obj;
        c.target = target;
        c.callback = callback;
        c.when = when;
        c.flags = flags & (FLAG_ASYNCHRONOUS | FLAG_BARRIER);
        return c;
    }

    /** Whether the message is enqueued, being dispatched, pooled or retired. */
    public boolean isInUse() {
        return (flags & FLAG_IN_USE) != 0;
    }

    /** Makes this fresh message a sync barrier posted at {@code when} with {@code token} (both queues). */
    void makeBarrier(long when, int token) {
        flags = FLAG_IN_USE | FLAG_BARRIER;
        this.when = when;
        arg1 = token;
    }

    /** A sync barrier's token, kept in {@link #arg1} as on Android. */
    int barrierToken() {
        return arg1;
    }

    /**
     * A sync barrier: a message without target, flagged when posted (a flag, not {@code target == null}, because
     * DeliQueue clears the target of a removed message while the Looper may still hold it in its heap).
     */
    boolean isBarrier() {
        return (flags & FLAG_BARRIER) != 0;
    }

    /**
     * Reads each field once: a message being dumped can be retired (its target and callback cleared) by the Looper
     * at any moment, so a field tested non-null and read again could be null the second time.
     */
    @Override
    public String toString() {
        Handler h = target;
        Runnable r = callback;
        Object o = obj;
        int a1 = arg1;
        int a2 = arg2;
        StringBuilder b = new StringBuilder("{ when=").append(when);
        if (isBarrier()) {
            b.append(" barrier=").append(a1);
        } else if (h == null) {
            b.append(" retired");
        } else {
            if (r != null) {
                b.append(" callback=").append(r.getClass().getName());
            } else {
                b.append(" what=").append(what);
            }
            if (a1 != 0) {
                b.append(" arg1=").append(a1);
            }
            if (a2 != 0) {
                b.append(" arg2=").append(a2);
            }
            if (o != null) {
                b.append(" obj=").append(o);
            }
            b.append(" target=").append(h.getClass().getName());
        }
        if (isAsynchronous()) {
            b.append(" async");
        }
        return b.append(" }").toString();
    }
}
