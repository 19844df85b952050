package org.deliqueue;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The queue a {@link Looper} drains: the contract of Android's {@code android.os.MessageQueue}, with two
 * implementations, {@link LegacyMessageQueue} (one monitor lock, the baseline and sequential oracle) and
 * {@link DeliQueue} (lock-free). Everything here holds for both; the conformance suite checks it.
 *
 * <h2>Order</h2>
 * Messages are delivered by {@code when} (signed comparison, so any {@code long} is a valid time), then in
 * enqueue order. {@code when == 0} means front of the queue: such messages come out last-in first-out, before
 * every message with {@code when > 0}. (Against messages with a negative {@code when}, which only an explicit
 * negative uptime produces, the legacy queue orders front-of-queue messages by insertion history and DeliQueue by
 * {@code (0, -enqueue order)}; no other difference in order exists.)
 *
 * <h2>Sync barriers and asynchronous messages</h2>
 * {@link #postSyncBarrier()} inserts a barrier at the current time. While a barrier is the earliest entry, only
 * asynchronous messages ({@link Message#setAsynchronous}) are delivered; synchronous messages wait until
 * {@link #removeSyncBarrier(int)}. Barrier tokens are positive in DeliQueue and start at 0 in the legacy queue.
 *
 * <h2>Idle handlers</h2>
 * During one {@link #next()} call, the first time the queue has nothing due it runs every idle handler once
 * (outside any lock). A handler returning false, or throwing, is removed; a throw is reported through
 * {@link System.Logger}.
 *
 * <h2>Quitting</h2>
 * A quit takes effect at once. After {@link #quit(boolean) quit(false)} no message is delivered; after
 * {@code quit(true)} (quitSafely) the messages accepted before the call whose {@code when} is after the uptime at
 * the call are dropped, and the others kept. Dropped messages no longer count for {@code hasMessages} or
 * {@link #isIdle()}. Enqueue then returns false and drops the message. {@link #next()} delivers what was kept and
 * returns null once nothing deliverable remains, then returns null for good, as {@link #poll()} does: a kept
 * message that a sync barrier still held back then is never delivered, even if the barrier is removed later. It
 * stays queued, as on Android: queries find it and removals take it.
 *
 * <h2>Bad input</h2>
 * A message without target: {@link IllegalArgumentException}. A message in use (already enqueued, or not yet
 * recycled): {@link IllegalStateException}, decided by one CAS so that of two threads racing to enqueue, or to enqueue
 * and {@link Message#recycle() recycle}, the same message exactly one has it; setting the target or the asynchronous
 * flag of a message in use throws it too. An unknown barrier token: {@link IllegalStateException}. Quitting a queue
 * that may not quit: {@link IllegalStateException}. A null idle handler: {@link NullPointerException}. A rejected
 * call changes nothing: every message already accepted is still delivered.
 *
 * <h2>Diagnostics</h2>
 * {@link #dump(StringBuilder, String)} is each queue's own listing; {@link #dump(Printer, String, Handler)} prints
 * it, or only one handler's messages; {@link #getMessageCount()} counts pending messages. All three are snapshots
 * (racy in DeliQueue) for diagnostics, not synchronisation.
 *
 * <h2>Threads</h2>
 * {@link #next()} and {@link #poll()} are for one consumer thread at a time (the Looper's). Everything else may
 * be called from any thread.
 */
public abstract class MessageQueue {

    /** Called when the queue has nothing due; return true to stay registered. */
    @FunctionalInterface
    public interface IdleHandler {
        boolean queueIdle();
    }

    private static final System.Logger LOG = System.getLogger(MessageQueue.class.getName());

    /** Deadline meaning "no deadline": sleep until woken. */
    static final long NO_DEADLINE = Long.MAX_VALUE;

    private final boolean quitAllowed;
    final Clock clock;
    /** An interrupt of the consumer that {@link #parkUntil} cleared; consumer thread only. */
    private boolean interruptPending;
    /** Registered idle handlers, guarded by itself; never touched on the enqueue path. */
    private final ArrayList<IdleHandler> idleHandlers = new ArrayList<>();

    MessageQueue(boolean quitAllowed, Clock clock) {
        this.quitAllowed = quitAllowed;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Makes a queue; {@link QueueKind} names the two implementations. */
    @FunctionalInterface
    public interface Factory {
        MessageQueue create(boolean quitAllowed, Clock clock);
    }

    /** The time base of this queue. */
    public final Clock clock() {
        return clock;
    }

    /**
     * Enqueues {@code msg} to be delivered at {@code when}.
     *
     * @return true if accepted; false if the queue is quitting (the message is dropped and never delivered)
     * @throws IllegalArgumentException if {@code msg} has no target
     * @throws IllegalStateException if {@code msg} is in use
     */
    public final boolean enqueueMessage(Message msg, long when) {
        if (msg.target == null) {
            throw new IllegalArgumentException("Message must have a target.");
        }
        claimForEnqueue(msg, 0);
        return enqueueClaimed(msg, when);
    }

    /**
     * The Handler's enqueue: claims {@code msg} before writing anything into it, so that a message another
     * thread has already enqueued is never modified.
     */
    final boolean enqueueFromHandler(Handler target, Message msg, long when, boolean async) {
        claimForEnqueue(msg, async ? Message.FLAG_ASYNCHRONOUS : 0);
        msg.target = target;
        return enqueueClaimed(msg, when);
    }

    /** Enqueues a message this thread has claimed (IN_USE set by {@link #claimForEnqueue}). */
    abstract boolean enqueueClaimed(Message msg, long when);

    /**
     * Blocks until a message is due and returns it, or returns null once the queue has quit and nothing
     * deliverable remains. Runs idle handlers as described above. Consumer thread only. An interrupt does not end
     * the wait; the consumer's interrupt status is set again on return ({@link #parkUntil}).
     */
    public final Message next() {
        try {
            return nextIgnoringInterrupts();
        } finally {
            restoreInterrupt();
        }
    }

    /** {@link #next()}, while {@link #parkUntil} clears and remembers the consumer's interrupts. */
    abstract Message nextIgnoringInterrupts();

    /**
     * One non-blocking step of the consumer: returns the next due message, or null if none is due now (or the
     * queue has quit). Runs no idle handler. Consumer thread only.
     */
    public abstract Message poll();

    /**
     * Posts a sync barrier at the current uptime.
     *
     * @return the token to pass to {@link #removeSyncBarrier}
     * @throws IllegalStateException if the queue is quitting
     */
    public abstract int postSyncBarrier();

    /**
     * Removes the barrier posted with {@code token}, letting synchronous messages through again.
     *
     * @throws IllegalStateException if no such barrier is in the queue
     */
    public abstract void removeSyncBarrier(int token);

    /** Whether no message (barriers included) is due now. */
    public abstract boolean isIdle();

    /**
     * Quits the queue: drops every message ({@code safe == false}) or every message due after now
     * ({@code safe == true}); see the class comment.
     *
     * @throws IllegalStateException if this queue may not quit (the main looper's), with Android's message
     *     "Main thread not allowed to quit."
     */
    public final void quit(boolean safe) {
        if (!quitAllowed) {
            throw new IllegalStateException("Main thread not allowed to quit.");
        }
        quitQueue(safe);
    }

    /** Appends one line per pending message, then a summary line, each starting with {@code prefix}. */
    public abstract void dump(StringBuilder out, String prefix);

    /** Prints {@link #dump(StringBuilder, String)}, one {@code println} per line. */
    public final void dump(Printer pw, String prefix) {
        dump(pw, prefix, null);
    }

    /**
     * As {@link #dump(Printer, String)}, listing only the pending messages of {@code h} (all when null), numbered
     * among all pending messages (barriers excluded), then {@code "(Total messages: N, matching: K)"}. Copies taken
     * as {@link #forEachPending} visits, then written and printed: neither a payload's {@code toString} (user code)
     * nor the printer runs inside the queue, where the legacy queue holds its lock.
     */
    public final void dump(Printer pw, String prefix, Handler h) {
        StringBuilder out = new StringBuilder();
        if (h == null) {
            dump(out, prefix);
        } else {
            long now = clock.uptimeMillis();
            List<Pending> matching = new ArrayList<>();
            int[] pending = new int[1];
            forEachPending(m -> {
                int n = pending[0]++;
                if (m.target == h) {
                    matching.add(new Pending(n, m.detachedCopy()));
                }
            });
            for (Pending p : matching) {
                p.appendTo(out, prefix, now);
            }
            out.append(prefix).append("(Total messages: ").append(pending[0]).append(", matching: ")
                    .append(matching.size()).append(")\n");
        }
        out.toString().lines().forEach(pw::println);
    }

    /**
     * A pending message as a dump saw it: its number among the pending, and a {@linkplain Message#detachedCopy copy}
     * of it, which no queue recycles or reuses before the dump has written it.
     */
    record Pending(int number, Message copy) {
        /** Its line of a dump ({@code copy.toString()} runs here: a payload's is user code), {@code now} being now. */
        void appendTo(StringBuilder out, String prefix, long now) {
            out.append(prefix).append("Message ").append(number).append(": ").append(copy).append(" (due in ")
                    .append(copy.when - now).append(" ms)\n");
        }
    }

    /**
     * How many messages are pending (barriers excluded). Exact while no other thread uses the queue; otherwise, in
     * DeliQueue, a count taken over a racy traversal (each message counted as its flags were when visited).
     */
    public int getMessageCount() {
        int[] count = new int[1];
        forEachPending(m -> count[0]++);
        return count[0];
    }

    /**
     * Offers {@code visitor} each pending message (barriers excluded) once, in the queue's own order, for
     * diagnostics. This default rides on {@link #hasMatching} with a predicate that never matches, skipping what it
     * is offered that is a barrier or tombstoned (DeliQueue's traversal offers those too); a queue whose pending
     * set needs more than that test overrides it. The visitor may run under the legacy queue's lock: it must not
     * call back into the queue.
     */
    void forEachPending(Consumer<Message> visitor) {
        hasMatching(m -> {
            if (!m.isBarrier() && (FieldAccess.lvFlags(m) & Message.FLAG_REMOVED) == 0) {
                visitor.accept(m);
            }
            return false;
        });
    }

    abstract void quitQueue(boolean safe);

    /** Removes every pending message (barriers excluded) matching {@code p}; returns how many it removed. */
    abstract int removeMatching(Predicate<Message> p);

    /** Whether a pending message (barriers excluded) matches {@code p}. */
    abstract boolean hasMatching(Predicate<Message> p);

    /** Gives a dispatched message back to the queue (pooled by the legacy queue, retired by DeliQueue). */
    abstract void recycleDispatched(Message msg);

    // ---- removal and queries: one predicate each, shared by both queues ----

    /** Removes messages of {@code h} with {@code what} and, unless null, the identical {@code object}. */
    public final int removeMessages(Handler h, int what, Object object) {
        return h == null ? 0 : removeMatching(m -> m.target == h && m.what == what
                && (object == null || m.obj == object));
    }

    /** As {@link #removeMessages(Handler, int, Object)}, comparing {@code object} with {@code equals}. */
    public final int removeEqualMessages(Handler h, int what, Object object) {
        return h == null ? 0 : removeMatching(m -> m.target == h && m.what == what
                && (object == null || object.equals(m.obj)));
    }

    /** Removes posts of {@code r} by {@code h} with, unless null, the identical token {@code object}. */
    public final int removeCallbacks(Handler h, Runnable r, Object object) {
        return h == null || r == null ? 0 : removeMatching(m -> m.target == h && m.callback == r
                && (object == null || m.obj == object));
    }

    /** Removes every message and post of {@code h} whose {@code obj} is {@code object} (any when null). */
    public final int removeCallbacksAndMessages(Handler h, Object object) {
        return h == null ? 0 : removeMatching(m -> m.target == h && (object == null || m.obj == object));
    }

    /** As {@link #removeCallbacksAndMessages}, comparing {@code object} with {@code equals}. */
    public final int removeCallbacksAndEqualMessages(Handler h, Object object) {
        return h == null ? 0 : removeMatching(m -> m.target == h && (object == null || object.equals(m.obj)));
    }

    public final boolean hasMessages(Handler h, int what, Object object) {
        return h != null && hasMatching(m -> m.target == h && m.what == what
                && (object == null || m.obj == object));
    }

    public final boolean hasEqualMessages(Handler h, int what, Object object) {
        return h != null && hasMatching(m -> m.target == h && m.what == what
                && (object == null || object.equals(m.obj)));
    }

    public final boolean hasCallbacks(Handler h, Runnable r, Object object) {
        return h != null && r != null && hasMatching(m -> m.target == h && m.callback == r
                && (object == null || m.obj == object));
    }

    /** Whether {@code h} has any pending message or post. */
    public final boolean hasMessages(Handler h) {
        return h != null && hasMatching(m -> m.target == h);
    }

    // ---- idle handlers ----

    /**
     * Registers {@code handler}; it runs when the queue goes idle, until it returns false.
     *
     * @throws NullPointerException if {@code handler} is null
     */
    public void addIdleHandler(IdleHandler handler) {
        Objects.requireNonNull(handler, "Can't add a null IdleHandler");
        synchronized (idleHandlers) {
            idleHandlers.add(handler);
        }
    }

    /**
     * Unregisters {@code handler} (its first registration, found by {@code equals} as on Android); nothing happens
     * if it is not registered.
     */
    public void removeIdleHandler(IdleHandler handler) {
        synchronized (idleHandlers) {
            idleHandlers.remove(handler);
        }
    }

    /**
     * Unregisters this very handler, by identity: the queue never calls a handler's {@code equals}, which could
     * throw out of {@code next()} or name another handler equal to it.
     */
    private void unregister(IdleHandler handler) {
        synchronized (idleHandlers) {
            for (int i = 0; i < idleHandlers.size(); i++) {
                if (idleHandlers.get(i) == handler) {
                    idleHandlers.remove(i);
                    return;
                }
            }
        }
    }

    final boolean hasIdleHandlers() {
        synchronized (idleHandlers) {
            return !idleHandlers.isEmpty();
        }
    }

    /**
     * Runs every registered idle handler once, outside any queue lock (consumer thread, inside {@code next()}), with
     * the interrupt status user code must see: an interrupt that {@link #parkUntil} cleared while this
     * {@code next()} waited is set again first (a handler that clears it has cleared it for good; the next park
     * clears and remembers it again). The {@code IDLE_HANDLERS_MISS_INTERRUPT} mutant overrides it.
     */
    void runIdleHandlers() {
        restoreInterrupt();
        runEachIdleHandler();
    }

    /** Runs every registered idle handler once, removing those that return false or throw. */
    final void runEachIdleHandler() {
        IdleHandler[] snapshot;
        synchronized (idleHandlers) {
            snapshot = idleHandlers.toArray(new IdleHandler[0]);
        }
        for (IdleHandler handler : snapshot) {
            boolean keep;
            try {
                keep = handler.queueIdle();
            } catch (Throwable e) { // checked exceptions too: user code can throw them undeclared
                LOG.log(System.Logger.Level.ERROR, "IdleHandler threw; it is removed", e);
                keep = false;
            }
            if (!keep) {
                unregister(handler);
            }
        }
    }

    // ---- shared checks ----

    /**
     * Claims {@code msg} for one enqueue, adding {@code extraFlags}: the IN_USE CAS lets exactly one of several
     * racing enqueues of the same message through (upstream's check-then-set does not: edge case 4). Both queues'
     * enqueues claim here. The {@code CLAIM_CHECK_THEN_SET} mutant overrides it.
     */
    void claimForEnqueue(Message msg, int extraFlags) {
        if (!msg.claimUnlessInUse(extraFlags)) {
            throw new IllegalStateException(msg + " This message is already in use.");
        }
    }

    static void warnDroppedAfterQuit(Message msg) {
        LOG.log(System.Logger.Level.WARNING, "Queue is quitting; dropped {0}", msg);
    }

    /**
     * Parks the calling thread (the consumer) until {@code deadline} ({@link #NO_DEADLINE}: until unparked), or
     * not at all if it has passed. Returns early on unpark or spuriously; callers re-check their condition.
     *
     * <p>Interrupts: the queue ignores them, as Android's epoll wait does, but never swallows them. A pending
     * interrupt would make {@link LockSupport#park} return at once, and the consumer would spin; so the status is
     * cleared here and remembered, and {@link #restoreInterrupt()} sets it again before {@code next()} returns.
     */
    final void parkUntil(Object blocker, long deadline) {
        clearInterrupt();
        if (deadline == NO_DEADLINE) {
            LockSupport.park(blocker);
            return;
        }
        long now = clock.uptimeMillis();
        if (deadline <= now) {
            return;
        }
        // Wraps below 0 only for a clock reading below 0, which the Clock contract rules out; such a reading must
        // not make the consumer spin: a wrapped wait is longer than any other, so the consumer parks until woken.
        long millis = deadline - now;
        if (millis < 0 || millis >= Long.MAX_VALUE / 1_000_000L) {
            LockSupport.park(blocker);
        } else {
            LockSupport.parkNanos(blocker, millis * 1_000_000L);
        }
    }

    /** Clears the consumer's interrupt status, remembering it for {@link #restoreInterrupt()}. */
    final void clearInterrupt() {
        if (Thread.interrupted()) {
            interruptPending = true;
        }
    }

    /** Sets the consumer's interrupt status again if {@link #parkUntil} cleared it: called as next() returns. */
    final void restoreInterrupt() {
        if (interruptPending) {
            interruptPending = false;
            Thread.currentThread().interrupt();
        }
    }
}
