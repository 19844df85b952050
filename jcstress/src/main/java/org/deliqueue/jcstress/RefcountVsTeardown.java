package org.deliqueue.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.deliqueue.DeliQueue;
import org.deliqueue.ManualClock;
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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Step 5 (the tagged refcount): a waker ({@code acquireWakeRef}, {@code signalWakeResource},
 * {@code releaseWakeRef}, i.e. {@code wake()} with its decision visible) against the Looper's {@code teardown()}.
 * {@code WakeResource} throws IllegalStateException on a signal after free and on a free during a signal; that
 * exception is the outcome. Both actors terminate: the Looper parks only until the waker's release, which
 * unparks it.
 *
 * <p>{@link HeldAcrossTheTag} and its twin: the tag alone ({@code tagTeardown}, then teardown's check whether the
 * count has drained), against a waker that takes a reference and holds it until that check is done. Whatever the
 * order, teardown must not find the count drained while the waker holds a reference. Neither actor waits for
 * anything the other may never do, so a broken tag cannot hang the test: a tag set by a read and a store
 * ({@code TEARDOWN_TAG_READ_THEN_WRITE}) wipes out a reference taken between the two, and teardown finds the count
 * drained under it. (In the full scenario that mutant could hang teardown: the wiped-out reference's release then
 * takes the count below the tag. Its other half, a reference dropped between the read and the store and brought
 * back, is JPF's {@code QuitVsWaker}.)
 *
 * <p>Result: r1 = waker (0: saw TEARDOWN, did not touch the resource; 1: signalled; 2: use after free),
 * r2 = Looper (0: teardown completed; 2: freed while a signal was in progress), r3 = resource freed at the end (1).
 */
// obligation: NoUseAfterTeardown
// obligation: QuitTerminates
public final class RefcountVsTeardown {
    static final int USE_AFTER_FREE = 2;

    private RefcountVsTeardown() {
    }

    /** The scenario, written once; the jcstress tests below are thin actors over it. */
    public abstract static class Scenario {
        final DeliQueue q;

        Scenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, new ManualClock(0));
        }

        final void waker(III_Result r) {
            if (!Steps.acquireWakeRef(q)) {
                r.r1 = 0;
                return;
            }
            try {
                Steps.signalWakeResource(q);
                r.r1 = 1;
            } catch (IllegalStateException useAfterFree) {
                r.r1 = USE_AFTER_FREE;
            } finally {
                Steps.releaseWakeRef(q);
            }
        }

        final void looper(III_Result r) {
            try {
                Steps.teardown(q);
                r.r2 = 0;
            } catch (IllegalStateException freedInUse) {
                r.r2 = USE_AFTER_FREE;
            }
        }

        final void arbiter(III_Result r) {
            r.r3 = Steps.isTornDown(q) ? 1 : 0;
        }
    }

    /** The tag alone against a waker holding its reference until teardown has checked the count. */
    public abstract static class TagScenario {
        final DeliQueue q;
        /** Set by the Looper once it has checked the count: until then the waker holds its reference. */
        volatile boolean checked;

        TagScenario(MessageQueue.Factory kind) {
            q = Steps.deli(kind, new ManualClock(0));
        }

        /** r1 = 0: the waker saw TEARDOWN; 1: it held a reference across teardown's check. */
        final void waker(II_Result r) {
            if (!Steps.acquireWakeRef(q)) {
                r.r1 = 0;
                return;
            }
            while (!checked) {
                Thread.onSpinWait();
            }
            r.r1 = 1;
            Steps.releaseWakeRef(q);
        }

        /** r2 = 1: teardown, its tag set, finds the count drained (it would free the resource now); 0: it waits. */
        final void looper(II_Result r) {
            Steps.tagTeardown(q);
            r.r2 = Steps.wakeRefsDrained(q) ? 1 : 0;
            checked = true;
        }
    }

    @JCStressTest
    @State
    @Description("Waker vs teardown on DeliQueue: the wake resource is never used after (or freed during) teardown.")
    @Outcome(id = {"0, 0, 1", "1, 0, 1"}, expect = ACCEPTABLE, desc = "waker saw TEARDOWN, or signalled before the free")
    @Outcome(id = {"2, .*", ".*, 2, .*"}, expect = FORBIDDEN, desc = "use after teardown")
    @Outcome(expect = FORBIDDEN, desc = "teardown did not free the resource")
    public static class Deli extends Scenario {
        public Deli() {
            super(QueueKind.DELI);
        }

        @Actor
        public void wakerActor(III_Result r) {
            waker(r);
        }

        @Actor
        public void looperActor(III_Result r) {
            looper(r);
        }

        @Arbiter
        public void check(III_Result r) {
            arbiter(r);
        }
    }

    @JCStressTest
    @State
    @MutantTwin("TEARDOWN_WITHOUT_WAIT")
    @Description("Twin on Mutant.TEARDOWN_WITHOUT_WAIT: a use after teardown must be observed (x86-64 shows it).")
    @Outcome(id = {"0, 0, 1", "1, 0, 1"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = {"2, .*", ".*, 2, .*"}, expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): use after teardown")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class TeardownWithoutWait extends Scenario {
        public TeardownWithoutWait() {
            super(Mutant.TEARDOWN_WITHOUT_WAIT);
        }

        @Actor
        public void wakerActor(III_Result r) {
            waker(r);
        }

        @Actor
        public void looperActor(III_Result r) {
            looper(r);
        }

        @Arbiter
        public void check(III_Result r) {
            arbiter(r);
        }
    }
    @JCStressTest
    @State
    @Description("Teardown's tag vs a waker holding its reference across teardown's check on DeliQueue: teardown "
            + "never finds the count drained under a reference.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the waker saw TEARDOWN; teardown finds the count drained")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the waker holds a reference; teardown waits for it")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "teardown would free the resource under a waker's reference")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class HeldAcrossTheTag extends TagScenario {
        public HeldAcrossTheTag() {
            super(QueueKind.DELI);
        }

        @Actor
        public void wakerActor(II_Result r) {
            waker(r);
        }

        @Actor
        public void looperActor(II_Result r) {
            looper(r);
        }
    }

    @JCStressTest
    @State
    @MutantTwin("TEARDOWN_TAG_READ_THEN_WRITE")
    @Description("Twin on Mutant.TEARDOWN_TAG_READ_THEN_WRITE: a reference taken between teardown's read and its "
            + "store is wiped out, and teardown finding the count drained under it must be observed.")
    @Outcome(id = {"0, 1", "1, 0"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = "1, 1", expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): teardown "
            + "would free the resource under a waker's reference")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class TeardownTagReadThenWrite extends TagScenario {
        public TeardownTagReadThenWrite() {
            super(Mutant.TEARDOWN_TAG_READ_THEN_WRITE);
        }

        @Actor
        public void wakerActor(II_Result r) {
            waker(r);
        }

        @Actor
        public void looperActor(II_Result r) {
            looper(r);
        }
    }
}
