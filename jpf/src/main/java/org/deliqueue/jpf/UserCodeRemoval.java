package org.deliqueue.jpf;

import static org.deliqueue.jpf.Harness.check;

import java.util.ArrayList;
import java.util.List;
import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.JpfSteps;
import org.deliqueue.Looper;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;

/**
 * (j) A removal whose user code is an adversary, off the Looper: two due messages {@code x1} and {@code x2}
 * ({@code x2} earlier) and one not due, {@code x3}, which stays at the head of the Looper's heap; a remover calling
 * {@code removeEqualMessages(h, 1, key)}, which matches all three, while the Looper (main) polls until {@code x1} and
 * {@code x2} have left and the removal has returned. The key's {@code equals} records every call with its thread.
 *
 * <ul>
 *   <li>Mode {@code flip}: the key answers "equal" the first time it is asked about a payload and the opposite
 *       every later time (user state that changes under the queue).
 *   <li>Mode {@code block}: each call blocks until the Looper has polled once more (user code that waits for the
 *       Looper). A Looper that asks the key waits for itself: JPF reports the deadlock.
 * </ul>
 *
 * <p>Checked on every schedule: UserCodeOnCaller (every call on the remover's thread, at most one per payload);
 * ExactlyOnce and NoLostMessage (each message is delivered or counted by the removal, never both, never neither;
 * {@code x3}, never due, is the removal's).
 *
 * <p>Arguments: queue, mode. Negative control: {@code LOOPER_ASKS_PREDICATE} (the descriptor keeps the predicate
 * and every thread that asks whether it covers a message runs it again).
 */
// obligation: UserCodeOnCaller
// obligation: ExactlyOnce
// obligation: NoLostMessage
// negative control: LOOPER_ASKS_PREDICATE
public final class UserCodeRemoval {
    private UserCodeRemoval() {
    }

    /**
     * What a blocking key waits on: the Looper's next poll. A flag, not a count of polls: the Looper polls without
     * end while it waits for the removal, and a count would make every poll a new state, so that JPF's search never
     * ends (it ran out of memory).
     */
    private static final class Gate {
        private boolean awaited;

        /** The Looper has polled: a key waiting for that goes on. */
        synchronized void polled() {
            if (awaited) {
                awaited = false;
                notifyAll();
            }
        }

        /** Waits until the Looper has polled once more. */
        synchronized void awaitPoll() {
            awaited = true;
            while (awaited) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** The adversary: records each call as "thread payload"; flips or blocks as its mode says. */
    private static final class Key {
        final boolean blocking;
        final Gate gate;
        final List<String> calls = new ArrayList<>();
        final List<Object> asked = new ArrayList<>();

        Key(boolean blocking, Gate gate) {
            this.blocking = blocking;
            this.gate = gate;
        }

        @Override
        public boolean equals(Object payload) {
            boolean first;
            synchronized (this) {
                // Bounded, so that a queue that asks without end (the mutant's Looper, on every poll) still has
                // finitely many states: four calls already break UserCodeOnCaller.
                if (calls.size() < 4) {
                    calls.add(Thread.currentThread().getName() + " " + payload);
                }
                first = !asked.contains(payload);
                if (first) {
                    asked.add(payload);
                }
            }
            if (blocking) {
                gate.awaitPoll();
                return true;
            }
            return first; // every payload matches; asked again, none does
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    public static void main(String[] args) throws InterruptedException {
        boolean blocking = args.length > 1 && args[1].equals("block");
        if (args.length > 1 && !blocking && !args[1].equals("flip")) {
            throw new IllegalArgumentException("mode must be flip or block: " + args[1]);
        }
        ManualClock clock = new ManualClock(10);
        Looper.prepare(Harness.factory(args), clock);
        DeliQueue q = JpfSteps.myDeliQueue();
        Handler h = new Handler(Looper.myLooper());
        Message x1 = JpfSteps.message(h, 1, 1);
        Message x2 = JpfSteps.message(h, 1, 2);
        Message x3 = JpfSteps.message(h, 1, 3);
        x1.obj = "x1";
        x2.obj = "x2";
        x3.obj = "x3";
        check(q.enqueueMessage(x3, 100), "NoLostMessage", "enqueue refused");
        check(q.enqueueMessage(x1, 2), "NoLostMessage", "enqueue refused");
        check(q.enqueueMessage(x2, 1), "NoLostMessage", "enqueue refused");
        Gate gate = new Gate();
        Key key = new Key(blocking, gate);
        int[] removed = new int[1];
        boolean[] returned = new boolean[1];
        Thread remover = Harness.start("remover", () -> {
            removed[0] = q.removeEqualMessages(h, 1, key);
            synchronized (returned) {
                returned[0] = true;
            }
        });

        int delivered = 0;
        for (;;) {
            boolean done;
            synchronized (returned) {
                done = returned[0];
            }
            if (done && JpfSteps.isRemoved(x1) && JpfSteps.isRemoved(x2)) {
                break;
            }
            Message m = q.poll();
            gate.polled();
            if (m == x1 || m == x2) {
                delivered++;
            } else if (m == null) {
                Thread.yield(); // a scheduling point for JPF, which never preempts a loop without one
            } else {
                throw Harness.fail("ExactlyOnce", "delivered a message nobody sent: " + m);
            }
        }
        Harness.join("UserCodeOnCaller", remover);
        // obligation: UserCodeOnCaller
        synchronized (key) {
            for (String call : key.calls) {
                check(call.startsWith("remover "), "UserCodeOnCaller", "the key was asked on another thread: "
                        + call + " (all calls: " + key.calls + ")");
            }
            check(key.calls.size() <= 3, "UserCodeOnCaller", "a payload was asked about twice: " + key.calls);
        }
        // obligation: ExactlyOnce, NoLostMessage
        check(JpfSteps.isRemoved(x3), "NoLostMessage", "x3, matched and never due, was not removed");
        check(delivered + removed[0] == 3, "ExactlyOnce", "delivered " + delivered + " and removed " + removed[0]
                + " of 3 messages");
        check(q.poll() == null, "ExactlyOnce", "a message came out after both had left");
        JpfSteps.checkInvariants(q);
    }
}
