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
 * A walk jumping from a finished removal descriptor. The queue holds {@code keep} ({@code what} 1) and above it
 * {@code gone} ({@code what} 0); the remover takes {@code gone}: it pushes its descriptor, tombstones {@code gone},
 * then finishes: it writes where the dead run below the descriptor ends ({@code keep}) into {@code skip} and
 * publishes it with the FINISHED CAS. A query for {@code what} 1 walks from {@code top} at the same time: whether
 * it meets the descriptor unfinished (and steps on by {@code next}) or finished (and jumps by {@code skip}), it
 * must reach {@code keep}, which is pending throughout. The FINISHED flag is read volatile and {@code skip} after it:
 * a walk that sees the flag sees the skip written before the CAS.
 *
 * <p>Twin: {@code Mutant.SKIP_PUBLISHED_AFTER_FINISH}, which CASes FINISHED first and writes {@code skip} after: a
 * walk between the two jumps to a {@code skip} still null and answers false. An interleaving, not a reordering:
 * every machine can show it, but the window is a few loads wide and the query must start its walk inside it. The
 * actors left to drift showed it about once in 190,000 samples on 2 cores (0 to 10 times in a fast run, too rare
 * to require); lined up by a {@link Meeting} before they walk, about once in 70 (8,191 in 536,342 and 11,529 in
 * 784,422 samples in two fast runs), so the twin is required. Lincheck's model checker, which schedules the
 * interleaving, catches it every time.
 */
// obligation: TraversalComplete, Refinement, SkipsPassOnlyGone
public final class WalkVsFinish {
    private WalkVsFinish() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final DeliQueue q;
        final Handler h = Steps.handler();
        /** The query and the removal meet here before they walk, so that the walk meets the removal finishing. */
        final Meeting meeting = new Meeting();

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, new ManualClock(100));
            Message keep = new Message();
            keep.what = 1;
            keep.setTarget(h);
            q.enqueueMessage(keep, 200);
            Message gone = new Message();
            gone.what = 0;
            gone.setTarget(h);
            q.enqueueMessage(gone, 200);
        }

        /** 1: true, as it must be; 0: false. */
        final int query() {
            meeting.arrive();
            return q.hasMessages(h, 1, null) ? 1 : 0;
        }

        final void remover() {
            meeting.arrive();
            q.removeMessages(h, 0, null);
        }

        /** 1: {@code keep} is pending after both actors. */
        final int after() {
            return q.hasMessages(h, 1, null) ? 1 : 0;
        }
    }

    @JCStressTest
    @State
    @Description("hasMessages walking past a removal that finishes: the message below its dead run is found.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "true, as every linearization answers")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "false: the walk jumped past a pending message")
    @Outcome(id = ".*", expect = FORBIDDEN, desc = "the pending message is gone")
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
    @MutantTwin("SKIP_PUBLISHED_AFTER_FINISH")
    @Description("Twin on Mutant.SKIP_PUBLISHED_AFTER_FINISH (FINISHED published before skip is written): a walk "
            + "between the two writes jumps to null.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "true, as every linearization answers")
    @Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): false")
    @Outcome(id = ".*", expect = FORBIDDEN, desc = "the pending message is gone")
    public static class SkipPublishedAfterFinish extends Scenario {
        public SkipPublishedAfterFinish() {
            super(Mutant.SKIP_PUBLISHED_AFTER_FINISH);
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
}
