package org.deliqueue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * The pre-Android-17 MessageQueue: one monitor lock over a singly linked list sorted by {@code when}.
 * It is the performance baseline of {@code bench/} and the sequential oracle of the checkers.
 *
 * <p>Insertion walks the list (O(N)); the head is the next message, except that a sync barrier at the head
 * makes {@code next()} look further for the first asynchronous message. The consumer sleeps outside the lock;
 * producers wake it only when {@link #blocked} says it is (or is about to be) asleep and their message changes
 * what it waits for. The wake is a {@link LockSupport#unpark} permit, which a later park consumes, so a wake
 * that arrives between releasing the lock and parking is not lost (Android uses an eventfd for the same
 * reason).
 */
public final class LegacyMessageQueue extends MessageQueue {

    /** Head of the sorted list; guarded by this. */
    private Message messages;
    /** Whether the consumer is blocked (or about to block) waiting; guarded by this. */
    private boolean blocked;
    /** Guarded by this. */
    private boolean quitting;
    /**
     * next() has returned null after the quit: from then on next() and poll() return null, as DeliQueue's after its
     * teardown and Android's after dispose(), even if a barrier removed since releases what it held. Guarded by this.
     */
    private boolean disposed;
    /** Guarded by this. Starts at 0, as Android's legacy queue. */
    private int nextBarrierToken;
    /** The thread that last called next(); the target of wakes. */
    private volatile Thread consumer;

    public LegacyMessageQueue(boolean quitAllowed, Clock clock) {
        super(quitAllowed, clock);
    }

    @Override
    boolean enqueueClaimed(Message msg, long when) {
        if (insertUnlessQuitting(msg, when)) {
            return true;
        }
        warnDroppedAfterQuit(msg); // outside the lock: the warning writes the message, a payload's toString
        msg.recycleUnchecked();
        return false;
    }

    /** Inserts {@code msg} at {@code when}, waking the consumer if needed; false if the queue is quitting. */
    private boolean insertUnlessQuitting(Message msg, long when) {
        synchronized (this) {
            if (quitting) {
                return false;
            }
            msg.when = when;
            Message p = messages;
            boolean needWake;
            if (p == null || when == 0 || when < p.when) {
                // New head: wake the consumer if it is blocked.
                msg.next = p;
                messages = msg;
                needWake = blocked;
            } else {
                // Inserted in the middle: only an async message behind a barrier head changes what the
                // consumer waits for, and only if it is the first async message.
                needWake = blocked && p.target == null && msg.isAsynchronous();
                Message prev;
                for (;;) {
                    prev = p;
                    p = p.next;
                    if (p == null || when < p.when) {
                        break;
                    }
                    if (needWake && p.isAsynchronous()) {
                        needWake = false;
                    }
                }
                msg.next = p;
                prev.next = msg;
            }
            if (needWake) {
                wake();
            }
        }
        return true;
    }

    private void wake() {
        Thread t = consumer;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    Message nextIgnoringInterrupts() {
        consumer = Thread.currentThread();
        boolean idleHandlersRan = false;
        long deadline = -1; // -1: do not sleep before looking
        for (;;) {
            if (deadline != -1) {
                parkUntil(this, deadline);
            }
            synchronized (this) {
                if (disposed) {
                    return null;
                }
                long now = clock.uptimeMillis();
                Message msg = takeDueOrNull(now);
                if (msg != null) {
                    blocked = false;
                    return msg;
                }
                if (quitting) {
                    disposed = true;
                    return null;
                }
                Message first = firstDeliverable();
                deadline = first == null ? NO_DEADLINE : first.when;
                boolean idle = messages == null || now < messages.when;
                if (idleHandlersRan || !idle || !hasIdleHandlers()) {
                    // Decided under the lock: a producer that enqueues after this sees blocked and wakes us.
                    blocked = true;
                    continue;
                }
            }
            idleHandlersRan = true;
            runIdleHandlers();
            deadline = -1; // an idle handler may have posted something: look again at once
        }
    }

    @Override
    public Message poll() {
        consumer = Thread.currentThread();
        synchronized (this) {
            return disposed ? null : takeDueOrNull(clock.uptimeMillis());
        }
    }

    /** The next deliverable message: the head, or the first async message behind a barrier head. */
    private Message firstDeliverable() {
        Message msg = messages;
        if (msg != null && msg.target == null) {
            do {
                msg = msg.next;
            } while (msg != null && !msg.isAsynchronous());
        }
        return msg;
    }

    /** Unlinks and returns the first deliverable message if it is due; guarded by this. */
    private Message takeDueOrNull(long now) {
        Message prev = null;
        Message msg = messages;
        if (msg != null && msg.target == null) {
            do {
                prev = msg;
                msg = msg.next;
            } while (msg != null && !msg.isAsynchronous());
        }
        if (msg == null || now < msg.when) {
            return null;
        }
        if (prev != null) {
            prev.next = msg.next;
        } else {
            messages = msg.next;
        }
        msg.next = null;
        return msg;
    }

    @Override
    public int postSyncBarrier() {
        synchronized (this) {
            if (quitting) {
                throw new IllegalStateException("Cannot post a sync barrier: the queue is quitting.");
            }
            long when = clock.uptimeMillis();
            int token = nextBarrierToken++;
            Message barrier = Message.obtain();
            barrier.makeBarrier(when, token);
            Message prev = null;
            Message p = messages;
            if (when != 0) {
                while (p != null && p.when <= when) {
                    prev = p;
                    p = p.next;
                }
            }
            barrier.next = p;
            if (prev != null) {
                prev.next = barrier;
            } else {
                messages = barrier;
            }
            return token;
        }
    }

    @Override
    public void removeSyncBarrier(int token) {
        synchronized (this) {
            Message prev = null;
            Message p = messages;
            while (p != null && (p.target != null || p.barrierToken() != token)) {
                prev = p;
                p = p.next;
            }
            if (p == null) {
                throw new IllegalStateException("The specified message queue synchronization "
                        + " barrier token has not been posted or has already been removed.");
            }
            boolean needWake;
            if (prev != null) {
                prev.next = p.next;
                needWake = false;
            } else {
                messages = p.next;
                needWake = messages == null || messages.target != null;
            }
            p.recycleUnchecked();
            if (needWake && !quitting) {
                wake();
            }
        }
    }

    @Override
    public boolean isIdle() {
        synchronized (this) {
            return messages == null || clock.uptimeMillis() < messages.when;
        }
    }

    @Override
    void quitQueue(boolean safe) {
        synchronized (this) {
            if (quitting) {
                return;
            }
            long now = safe ? clock.uptimeMillis() : 0; // before anything changes: a clock that throws quits nothing
            quitting = true;
            if (safe) {
                removeAllFutureMessages(now);
            } else {
                removeAllMessages();
            }
            wake();
        }
    }

    private void removeAllMessages() {
        for (Message p = messages; p != null; ) {
            Message n = p.next;
            p.recycleUnchecked();
            p = n;
        }
        messages = null;
    }

    /** Drops every message due after {@code now}; the list is sorted, so they form its tail. */
    private void removeAllFutureMessages(long now) {
        Message p = messages;
        if (p == null) {
            return;
        }
        if (p.when > now) {
            removeAllMessages();
            return;
        }
        for (Message n = p.next; n != null; p = n, n = n.next) {
            if (n.when > now) {
                p.next = null;
                for (Message m = n; m != null; ) {
                    Message after = m.next;
                    m.recycleUnchecked();
                    m = after;
                }
                return;
            }
        }
    }

    @Override
    int removeMatching(Predicate<Message> matches) {
        synchronized (this) {
            // The predicate is user code and this monitor is reentrant: an equals() may post, query or remove on
            // this queue while the walk stands in the list. So it is asked about a snapshot first, and what it
            // matched is unlinked afterwards if still queued. A message the predicate's own posts added is not
            // asked about (it arrived during the call).
            Message[] snapshot = snapshot();
            Set<Message> matched = Collections.newSetFromMap(new IdentityHashMap<>());
            Throwable thrown = null;
            for (Message m : snapshot) {
                try {
                    if (m.target != null && matches.test(m)) {
                        matched.add(m);
                    }
                } catch (Throwable t) { // as Android's walk: stop at the first throw, keep what matched before it
                    thrown = t;
                    break;
                }
            }
            int removed = 0;
            Message prev = null;
            for (Message p = messages; p != null; ) {
                Message n = p.next;
                if (matched.contains(p)) {
                    if (prev == null) {
                        messages = n;
                    } else {
                        prev.next = n;
                    }
                    p.recycleUnchecked();
                    removed++;
                } else {
                    prev = p;
                }
                p = n;
            }
            if (thrown != null) {
                throw LegacyMessageQueue.<RuntimeException>sneaky(thrown);
            }
            return removed;
        }
    }

    /** Rethrows {@code t} unchanged, checked or not (the caller's predicate threw it). */
    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    @Override
    boolean hasMatching(Predicate<Message> matches) {
        synchronized (this) {
            for (Message p : snapshot()) { // the predicate may change the list (see removeMatching)
                if (p.target != null && matches.test(p)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The queued messages in order; caller holds the lock. */
    private Message[] snapshot() {
        int n = 0;
        for (Message p = messages; p != null; p = p.next) {
            n++;
        }
        Message[] all = new Message[n];
        int i = 0;
        for (Message p = messages; p != null; p = p.next) {
            all[i++] = p;
        }
        return all;
    }

    @Override
    void recycleDispatched(Message msg) {
        msg.recycleUnchecked();
    }

    /**
     * Copies of the pending messages taken under the lock, written after it: a payload's {@code toString} (user code)
     * that blocks, or removes the message it describes, neither holds up the Looper nor cuts the walk (Android's dump
     * writes under its lock).
     */
    @Override
    public void dump(StringBuilder out, String prefix) {
        long now;
        List<Pending> pending = new ArrayList<>();
        boolean wasBlocked;
        boolean wasQuitting;
        synchronized (this) {
            now = clock.uptimeMillis();
            for (Message p = messages; p != null; p = p.next) {
                pending.add(new Pending(pending.size(), p.detachedCopy()));
            }
            wasBlocked = blocked;
            wasQuitting = quitting;
        }
        for (Pending p : pending) {
            p.appendTo(out, prefix, now);
        }
        out.append(prefix).append("(Total messages: ").append(pending.size()).append(", blocked=").append(wasBlocked)
                .append(", quitting=").append(wasQuitting).append(")\n");
    }
}
