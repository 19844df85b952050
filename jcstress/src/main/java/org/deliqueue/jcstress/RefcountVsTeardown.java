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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Step 5 (the tagged refcount): a waker ({@code acquireWakeRef}, {@code signalWakeResource},
 * {@code releaseWakeRef}, i.e. {@code wake()} with its decision visible) against the Looper's {@code teardown()}.
 * {@code WakeResource} throws IllegalStateException on a signal after free and on a free during a signal; that
 * exception is the outcome. Both actors terminate: the Looper parks only until the waker's release, which
 * unparks it.
 *
 * <p>{@link HeldAcrossTheTag}: a slow waker, which holds its reference until teardown has set its tag and only
 * then signals and lets go. Its reference, when taken, races teardown's tagging of the count (where a tag set by a
 * read and a store, {@code TEARDOWN_TAG_READ_THEN_WRITE}, wipes it out), never its wait; so the release never
 * races the tag, where that mutant would bring back a dropped reference and make teardown wait for ever (that half
 * is JPF's {@code QuitVsWaker}).
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
        /** Whether the waker holds its reference until teardown has set its tag. */
        final boolean heldAcrossTheTag;

        Scenario(MessageQueue.Factory kind) {
            this(kind, false);
        }

        Scenario(MessageQueue.Factory kind, boolean heldAcrossTheTag) {
            q = Steps.deli(kind, new ManualClock(0));
            this.heldAcrossTheTag = heldAcrossTheTag;
        }

        final void waker(III_Result r) {
            if (!Steps.acquireWakeRef(q)) {
                r.r1 = 0;
                return;
            }
            try {
                while (heldAcrossTheTag && !Steps.teardownTagged(q)) {
                    Thread.onSpinWait();
                }
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
    @Description("A waker holding its reference across teardown's tag on DeliQueue: it signals a live resource, "
            + "and teardown frees it once the reference is dropped.")
    @Outcome(id = {"0, 0, 1", "1, 0, 1"}, expect = ACCEPTABLE, desc = "waker saw TEARDOWN, or signalled while teardown waited")
    @Outcome(id = {"2, .*", ".*, 2, .*"}, expect = FORBIDDEN, desc = "use after teardown")
    @Outcome(expect = FORBIDDEN, desc = "teardown did not free the resource")
    public static class HeldAcrossTheTag extends Scenario {
        public HeldAcrossTheTag() {
            super(QueueKind.DELI, true);
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
    @MutantTwin("TEARDOWN_TAG_READ_THEN_WRITE")
    @Description("Twin on Mutant.TEARDOWN_TAG_READ_THEN_WRITE: a reference taken between teardown's read and its "
            + "store is wiped out, and a use after teardown must be observed.")
    @Outcome(id = {"0, 0, 1", "1, 0, 1"}, expect = ACCEPTABLE, desc = "no race this time")
    @Outcome(id = {"2, .*", ".*, 2, .*"}, expect = ACCEPTABLE_INTERESTING, desc = "VIOLATION (expected on the mutant): use after teardown")
    @Outcome(expect = FORBIDDEN, desc = "unexpected outcome")
    public static class TeardownTagReadThenWrite extends Scenario {
        public TeardownTagReadThenWrite() {
            super(Mutant.TEARDOWN_TAG_READ_THEN_WRITE, true);
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
}
