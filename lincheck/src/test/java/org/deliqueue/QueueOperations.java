package org.deliqueue;

import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.ThreadIdGen;
import org.jetbrains.lincheck.datastructures.Validate;

/**
 * The state and the operation bodies Lincheck runs on a queue; {@link RemovalOperations} and
 * {@link DeliveryOperations} pick which of them a scenario draws from, and their {@code Spec} subclasses run the
 * same operations on {@link LegacyMessageQueue}, the sequential specification.
 *
 * <p><b>Messages.</b> Each post makes a fresh message (never pooled: {@code new Message()}) with a {@code what}
 * from a small space ({@code 0} or {@code 1}), so that one removal can match several messages, and a payload
 * {@link Token} of its own: token {@code (thread, k)} for the k-th post of a thread (the thread id Lincheck
 * passes). A token identifies its message (removal of exactly one message goes by {@code obj} identity), and its
 * {@code equals} compares only the token's {@link Token#group} (the parity of {@code k}), so an equality removal
 * matches several messages, deterministically on both queues. Deliveries are reported as {@code thread.k@when}.
 *
 * <p><b>Time.</b> A {@link ManualClock} starts at 0: barriers posted before the clock moves sit at uptime 0 among
 * the front-of-queue messages. {@code advance} moves it; posts either name an absolute {@code when} (from any
 * thread) or compute it from the clock ({@code postDelayed}); the Looper judges due-ness at the time it reads.
 * {@code advance}, {@code postDelayed} and {@code quitSafely} share the non-parallel group {@value #CLOCK}: a post
 * that reads the clock and pushes later is not atomic in either queue (an advance between the two is visible), so
 * only that group's thread moves the clock while it posts, as a Handler on the thread that drives time would. The
 * same holds for DeliQueue's quitSafely, which reads the clock and then pushes its sentinel: an advance, then a
 * query that sees a message due at the new time, can come between the two, and the quit then drops that message,
 * as its clock reading says (the contract: what is due at the uptime of the call, a reading taken after every
 * accepted post; MessageQueueAbs's {@code aqtime}). The legacy queue reads the clock under its lock, at its
 * linearization point, so as a sequential specification it cannot show that; make lincheck's random scenarios
 * found it (post, then advance and has racing quitSafely, then a removal that finds the message dropped). The
 * hand-written scenario of the quit's time still races quitSafely against an advance and a post.
 *
 * <p><b>Threads.</b> The Looper's steps ({@code deliver}: one non-blocking {@link MessageQueue#poll()}; posting a
 * sync barrier, as Android's view system does on the Looper's thread) share the non-parallel group
 * {@value #LOOPER}. Everything else runs on any thread, bulk removals and barrier removals included (the delivery
 * group keeps its barrier removals on the Looper's thread, as the view system does; the removal group lets two
 * threads remove the same token at once). A barrier is named by its posting order, not by its token: the two
 * queues number tokens differently (DeliQueue from 1, the legacy queue from 0).
 */
@Param(name = "thread", gen = ThreadIdGen.class)
@Param(name = "whenIndex", gen = IntGen.class, conf = "0:2")
@Param(name = "what", gen = IntGen.class, conf = "0:1")
@Param(name = "group", gen = IntGen.class, conf = "0:1")
@Param(name = "owner", gen = IntGen.class, conf = "0:2")
@Param(name = "k", gen = IntGen.class, conf = "0:1")
@Param(name = "millis", gen = IntGen.class, conf = "1:2")
@Param(name = "delay", gen = IntGen.class, conf = "0:1")
@Param(name = "barrier", gen = IntGen.class, conf = "0:1")
public abstract class QueueOperations {
    static final String LOOPER = "looper";
    static final String CLOCK = "clock";
    /** Absolute {@code when}s: front of queue, due once the clock moved, due after two moves at most. */
    static final int[] WHENS = {0, 1, 3};
    /** {@code removeOne}'s answer when the message it removed still holds its payload (PayloadReleased). */
    static final int PAYLOAD_KEPT = -1;
    /** A removal's answer when the user's {@code equals} threw. */
    static final int USER_CODE_THREW = -2;

    private static final int MAX_THREADS = 8;
    private static final int MAX_POSTS_PER_THREAD = 16;
    /** More than a scenario's actors: no scenario posts this many barriers. */
    private static final int MAX_BARRIERS = 16;

    /**
     * The queue the operation classes test (DeliQueue, a mutant, or the legacy queue as the lock-detection
     * control); the {@code Spec} classes ignore it. Lincheck creates instances itself, so a test sets this before
     * its check and restores it after; the tests run one at a time.
     */
    static volatile MessageQueue.Factory underTest = QueueKind.DELI;

    private final Handler target = Targets.handler();
    private final ManualClock clock = new ManualClock(0);
    private final MessageQueue queue;
    /** Created up front, so that a remover can name a message another thread may be posting. */
    private final Token[][] tokens = new Token[MAX_THREADS][MAX_POSTS_PER_THREAD];
    /** Posts so far per thread; each entry is touched by its own thread only. */
    private final int[] posts = new int[MAX_THREADS];
    /** Barrier tokens in posting order; written only by the Looper group, which posts barriers. */
    private final int[] barrierTokens = new int[MAX_BARRIERS];
    /**
     * How many entries of {@link #barrierTokens} are written: each is written before this count is raised past it
     * (a volatile write), so a remover on another thread that reads the count sees the tokens below it.
     */
    private volatile int barriersPosted;

    protected QueueOperations(MessageQueue.Factory factory) {
        queue = factory.create(true, clock);
        for (int thread = 0; thread < MAX_THREADS; thread++) {
            for (int k = 0; k < MAX_POSTS_PER_THREAD; k++) {
                tokens[thread][k] = new Token(thread, k);
            }
        }
    }

    /**
     * A message payload: identity names one message, {@code equals} a group of them. Holds its message (written
     * before the post, so a remover that found the message through the queue sees it) to check that removal
     * released the payload.
     */
    static final class Token {
        final int thread;
        final int k;
        final int group;
        Message message;

        Token(int thread, int k) {
            this.thread = thread;
            this.k = k;
            this.group = k % 2;
        }

        /** A probe equal to every token of {@code group}, none of which is identical to it. */
        static Token probe(int group) {
            return new Token(-1, group);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Token t && t.group == group;
        }

        @Override
        public int hashCode() {
            return group;
        }

        @Override
        public String toString() {
            return thread + "." + k;
        }
    }

    /**
     * A removal argument whose equality flips between calls: the first time it is compared with a message's token
     * it answers as a probe of its group would, and every later time the opposite (a key whose state changes under
     * the queue). A queue that asks once per message and removal answers as the legacy queue; one that asks again
     * (the Looper for its heap heads, the remover's own second walk) sees the flipped answer.
     */
    static final class FlippingProbe {
        private final int group;
        private final java.util.List<Token> asked = new java.util.ArrayList<>();

        FlippingProbe(int group) {
            this.group = group;
        }

        @Override
        public synchronized boolean equals(Object o) {
            if (!(o instanceof Token t)) {
                return false;
            }
            boolean first = asked.stream().noneMatch(a -> a == t);
            asked.add(t);
            return (t.group == group) == first;
        }

        @Override
        public int hashCode() {
            return group;
        }
    }

    /** A removal argument whose {@code equals} always throws: user code failing inside the queue's walk. */
    static final Object THROWING_EQUALS = new Object() {
        @Override
        public boolean equals(Object o) {
            throw new UserCodeException();
        }

        @Override
        public int hashCode() {
            return 0;
        }
    };

    static final class UserCodeException extends RuntimeException {
        UserCodeException() {
            super("equals threw", null, false, false);
        }
    }

    // ---- producers ----

    protected final boolean post(int thread, long when, int what, boolean async) {
        Token token = tokens[thread][posts[thread]++];
        Message m = new Message();
        m.target = target;
        m.what = what;
        m.obj = token;
        m.setAsynchronous(async);
        token.message = m;
        return queue.enqueueMessage(m, when);
    }

    protected boolean postDelayed(int thread, int delay, int what) {
        return post(thread, clock.uptimeMillis() + delay, what, false);
    }

    protected void advance(int millis) {
        clock.advance(millis);
    }

    // ---- queries and removals, from any thread ----

    protected boolean has(int what) {
        return queue.hasMessages(target, what, null);
    }

    /**
     * Removes message {@code (owner, k)} by identity of its token: 1 if it was pending, else 0, or
     * {@link #PAYLOAD_KEPT} if the message it removed still references its payload once the call returned.
     */
    protected int removeOne(int owner, int k) {
        Token token = tokens[owner][k];
        int removed = queue.removeCallbacksAndMessages(target, token);
        Message m = token.message;
        return removed == 1 && (m.obj != null || m.target != null || m.callback != null) ? PAYLOAD_KEPT : removed;
    }

    protected int removeWhat(int what) {
        return queue.removeMessages(target, what, null);
    }

    protected int removeEqual(int what, int group) {
        return queue.removeEqualMessages(target, what, Token.probe(group));
    }

    /** {@code removeEqualMessages} with a {@link FlippingProbe}: user code that answers differently when asked again. */
    protected int removeEqualFlipping(int what, int group) {
        return queue.removeEqualMessages(target, what, new FlippingProbe(group));
    }

    /**
     * {@code removeEqualMessages} whose {@code equals} throws at its first call. Both queues evaluate
     * {@code target} and {@code what} first, so the call throws exactly when a message of {@code what} is
     * pending, and removes nothing: the first candidate throws before any tombstone.
     */
    protected int removeEqualThrowing(int what) {
        try {
            return queue.removeEqualMessages(target, what, THROWING_EQUALS);
        } catch (UserCodeException expected) {
            return USER_CODE_THREW;
        }
    }

    protected int removeAll() {
        return queue.removeCallbacksAndMessages(target, null);
    }

    protected final void quit(boolean safe) {
        queue.quit(safe);
    }

    // ---- the Looper ----

    /** One non-blocking step: the due message delivered, as {@code thread.k@when}, or null. */
    protected String deliver() {
        Message m = queue.poll();
        return m == null ? null : m.obj + "@" + m.getWhen();
    }

    protected boolean postBarrier() {
        try {
            int token = queue.postSyncBarrier();
            int posted = barriersPosted;
            barrierTokens[posted] = token;
            barriersPosted = posted + 1;
            return true;
        } catch (IllegalStateException quitting) {
            return false;
        }
    }

    /**
     * Removes the {@code index}-th barrier posted: true if it was queued; false if it was not posted (yet: the
     * removal then linearizes before the post that is still recording it), already removed, or dropped by quit.
     * Two threads removing the same barrier at once: exactly one gets true.
     */
    protected boolean removeBarrier(int index) {
        if (index >= barriersPosted) {
            return false;
        }
        try {
            queue.removeSyncBarrier(barrierTokens[index]);
            return true;
        } catch (IllegalStateException notQueued) {
            return false;
        }
    }

    /** After each invocation, quiescent: DeliQueue's structural obligations hold. */
    @Validate
    public void structureIsConsistent() {
        if (queue instanceof DeliQueue deli) {
            DeliQueueTesting.checkInvariants(deli);
        }
    }
}
