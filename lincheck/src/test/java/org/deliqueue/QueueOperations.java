package org.deliqueue;

import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;

/**
 * The operations Lincheck runs on a queue, and (over {@link LegacyMessageQueue}) their sequential specification.
 *
 * <p>Producers ({@code post}, {@code postAsync}, {@code postAtFront}), queries ({@code has}) and removal of one
 * message ({@code removeOne}) run on any thread. The Looper's own operations share the non-parallel group
 * {@value #LOOPER}, so one thread at a time plays the Looper: {@code deliver} (one non-blocking step at a fixed
 * time), {@code removeAllOnLooper}, and sync barriers (posted and removed by the Looper's thread, as Android's
 * view system does). {@code quitSafely} may come from anywhere.
 *
 * <p>Each posted message gets a {@code what} no other post shares ({@code 10 * thread + k}, from the thread id
 * Lincheck passes), so {@code removeOne} matches at most one message: a removal of several messages off the
 * Looper's thread is not atomic (docs/design.md) and has its own test, {@code BulkRemovalOffTheLooperTest}.
 * Messages are built with {@code new Message()}: the pool is empty whenever only DeliQueue runs, and
 * {@link Message#obtain()} then takes no lock either.
 *
 * <p>The clock stands still at {@link #NOW}: {@code when} 0 (front of queue), 5 and 10 are due, 20 is not.
 */
@Param(name = "thread", gen = ThreadIdGen.class)
@Param(name = "whenIndex", gen = IntGen.class, conf = "0:2")
@Param(name = "owner", gen = IntGen.class, conf = "0:2")
@Param(name = "k", gen = IntGen.class, conf = "0:1")
public abstract class QueueOperations {
    static final String LOOPER = "looper";
    static final long NOW = 10;
    private static final int[] WHENS = {5, 10, 20};

    private final Handler target = Targets.handler();
    private final MessageQueue queue;
    /** Posts so far per thread, for unique {@code what}s. */
    private final int[] posts = new int[10];
    /** Barrier tokens in posting order; touched only by the Looper group. */
    private final List<Integer> barriers = new ArrayList<>();

    protected QueueOperations(MessageQueue.Factory factory) {
        queue = factory.create(true, new ManualClock(NOW));
    }

    private boolean enqueue(int thread, long when, boolean async) {
        Message m = new Message();
        m.target = target;
        m.what = 10 * thread + posts[thread]++;
        m.arg1 = (int) when;
        m.setAsynchronous(async);
        return queue.enqueueMessage(m, when);
    }

    @Operation(params = {"thread", "whenIndex"})
    public boolean post(int thread, int whenIndex) {
        return enqueue(thread, WHENS[whenIndex], false);
    }

    @Operation(params = {"thread", "whenIndex"})
    public boolean postAsync(int thread, int whenIndex) {
        return enqueue(thread, WHENS[whenIndex], true);
    }

    @Operation(params = {"thread"})
    public boolean postAtFront(int thread) {
        return enqueue(thread, 0, false);
    }

    /** Whether the k-th message posted by thread {@code owner} is pending. */
    @Operation(params = {"owner", "k"})
    public boolean has(int owner, int k) {
        return queue.hasMessages(target, 10 * owner + k, null);
    }

    /** Removes the k-th message posted by thread {@code owner}; returns 1 if it was pending, else 0. */
    @Operation(params = {"owner", "k"})
    public int removeOne(int owner, int k) {
        return queue.removeMessages(target, 10 * owner + k, null);
    }

    /** The Looper's step: the due message it delivers, as {@code what@when}, or null. */
    @Operation(nonParallelGroup = LOOPER)
    public String deliver() {
        Message m = queue.poll();
        return m == null ? null : m.what + "@" + m.arg1;
    }

    /** The Looper's thread cancels everything of the handler (atomic there: nothing delivers meanwhile). */
    @Operation(nonParallelGroup = LOOPER)
    public void removeAllOnLooper() {
        removeAll();
    }

    protected final void removeAll() {
        queue.removeCallbacksAndMessages(target, null);
    }

    @Operation(nonParallelGroup = LOOPER)
    public boolean postBarrier() {
        try {
            barriers.add(queue.postSyncBarrier());
            return true;
        } catch (IllegalStateException quitting) {
            return false;
        }
    }

    /** Removes the oldest barrier still posted; false if none or if quit dropped it. */
    @Operation(nonParallelGroup = LOOPER)
    public boolean removeBarrier() {
        if (barriers.isEmpty()) {
            return false;
        }
        try {
            queue.removeSyncBarrier(barriers.remove(0));
            return true;
        } catch (IllegalStateException droppedByQuit) {
            return false;
        }
    }

    @Operation
    public void quitSafely() {
        queue.quit(true);
    }

    /** After each invocation, quiescent: DeliQueue's structural obligations hold. */
    @Validate
    public void structureIsConsistent() {
        if (queue instanceof DeliQueue deli) {
            deli.checkInvariants();
        }
    }
}
