package org.deliqueue.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.deliqueue.DeliQueue;
import org.deliqueue.Handler;
import org.deliqueue.ManualClock;
import org.deliqueue.Message;
import org.deliqueue.MessageQueue;
import org.deliqueue.Mutant;
import org.deliqueue.QueueKind;
import org.deliqueue.Steps;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Whether {@code hasMessages} may answer false on plain payload reads: a false answer is argued to linearize at the traversal's last read of
 * {@code top}, though the payload reads before it are plain. The queue holds {@code m1} ({@code what} 1, obj X);
 * the remover posts {@code m2} ({@code what} 1, obj Y), then removes what matches {@code (what 1, obj X)}: only
 * {@code m1}, and only after {@code m2} was pushed. So at every instant some message with {@code what} 1 is pending,
 * and {@code hasMessages(h, 1, null)} must answer true in every linearizable execution: a false answer is a
 * violation. The arbiter checks that {@code m2} is still there.
 *
 * <p>How DeliQueue's argument meets it: if the traversal's last read of {@code top} saw {@code m1} (no descriptor
 * yet), the load fence before it keeps the payload read of {@code m1} from seeing the removal's clear, which
 * comes after the descriptor's push; if it saw {@code m2} or the descriptor, the walk offers {@code m2}.
 *
 * <p>Twin: {@code Mutant.TRAVERSE_WITHOUT_FENCE} (weak-memory only). Without the fence a weak machine may satisfy
 * {@code m1}'s payload read after the next read of {@code top}: the read of {@code top} sees {@code m1} and the
 * payload read sees the clear. The whole of the remover's post and removal must fit between the two reordered loads,
 * so even arm64 shows it rarely, if at all; x86-64 keeps loads in order and never does (reported as skipped there).
 *
 * <p>The same question for a removal: {@code removeMessages(h, 1, null)} in place of the query selects with the
 * same traversal, and when it selects nothing it returns 0 at its last read of {@code top}, without a descriptor.
 * It must take at least one message ({@link RemovalDeli}); its twin is the same mutant, whose missing fence is in
 * the walk both share ({@link RemovalWithoutFence}).
 */
// obligation: Refinement, TraversalComplete
public final class HasMessagesVsRemoval {
    static final Object X = new Object();
    static final Object Y = new Object();

    private HasMessagesVsRemoval() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final DeliQueue q;
        final Handler h = Steps.handler();
        final Message m2 = new Message();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, new ManualClock(100));
            Message m1 = new Message();
            m1.what = 1;
            m1.obj = X;
            m1.setTarget(h);
            q.enqueueMessage(m1, 200);
            m2.what = 1;
            m2.obj = Y;
            m2.setTarget(h);
        }

        /** 1: true, as it must be; 0: false (no instant without a match exists). */
        final int query() {
            return q.hasMessages(h, 1, null) ? 1 : 0;
        }

        final void remover() {
            q.enqueueMessage(m2, 200);
            q.removeMessages(h, 1, X);
        }

        /** How many messages a removal of every {@code what} 1 takes: at least one, as some is always pending. */
        final int removal() {
            return q.removeMessages(h, 1, null);
        }

        /** 1: m2 is pending after both actors. */
        final int after() {
            return q.hasMessages(h, 1, Y) ? 1 : 0;
        }
    }

    @JCStressTest
    @State
    @Description("hasMessages vs a post then a removal on DeliQueue: some match is always pending, so the answer is true.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "true, as every linearization answers")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "false: no instant of the call had no match")
    @Outcome(id = ".*", expect = FORBIDDEN, desc = "the message posted last is gone")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void queryActor(II_Result r) {
            r.r1 = query();
        }

        @Actor
        public void removerActor() {
            remover();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = after();
        }
    }

    @JCStressTest
    @State
    @MutantTwin(value = "TRAVERSE_WITHOUT_FENCE", weakMemoryOnly = true)
    @Description("Twin on Mutant.TRAVERSE_WITHOUT_FENCE (no load fence before re-reading top): a false answer needs a "
            + "weak-memory machine to reorder two loads (never x86-64).")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "true, as every linearization answers")
    @Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant, weak memory): "
            + "false")
    @Outcome(id = ".*", expect = FORBIDDEN, desc = "the message posted last is gone")
    public static class TraverseWithoutFence extends Scenario {
        public TraverseWithoutFence() {
            super(Mutant.TRAVERSE_WITHOUT_FENCE);
        }

        @Actor
        public void queryActor(II_Result r) {
            r.r1 = query();
        }

        @Actor
        public void removerActor() {
            remover();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = after();
        }
    }

    @JCStressTest
    @State
    @Description("removeMessages vs a post then a removal on DeliQueue: some match is always pending, so it takes one.")
    @Outcome(id = "0, .*", expect = FORBIDDEN, desc = "took nothing: no instant of the call had no match")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "took m2 (m1 was taken first by the other removal)")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "took m1 before the other removal; m2 stays")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "took m1 and m2, after m2's push")
    @Outcome(id = ".*", expect = FORBIDDEN, desc = "m2 both taken and pending")
    public static class RemovalDeli extends Scenario {
        public RemovalDeli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void removalActor(II_Result r) {
            r.r1 = removal();
        }

        @Actor
        public void removerActor() {
            remover();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = after();
        }
    }

    @JCStressTest
    @State
    @MutantTwin(value = "TRAVERSE_WITHOUT_FENCE", weakMemoryOnly = true)
    @Description("Twin on Mutant.TRAVERSE_WITHOUT_FENCE for a removal's selection: taking nothing needs a weak-memory "
            + "machine to reorder two loads (never x86-64).")
    @Outcome(id = "0, .*", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant, weak memory): "
            + "took nothing")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "took m2 (m1 was taken first by the other removal)")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "took m1 before the other removal; m2 stays")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "took m1 and m2, after m2's push")
    @Outcome(id = ".*", expect = FORBIDDEN, desc = "m2 both taken and pending")
    public static class RemovalWithoutFence extends Scenario {
        public RemovalWithoutFence() {
            super(Mutant.TRAVERSE_WITHOUT_FENCE);
        }

        @Actor
        public void removalActor(II_Result r) {
            r.r1 = removal();
        }

        @Actor
        public void removerActor() {
            remover();
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = after();
        }
    }
}
