package org.deliqueue;

import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Atomic bulk removal from any thread: a removal that matches several messages, run off the Looper's
 * thread while the Looper delivers, is one atomic step. The scenario: x1 then x2 posted, both due, x2 the head;
 * {@code removeAll} races {@code deliver}. Removing message by message (before removal descriptors) takes x2 while
 * the Looper delivers x1, which no sequential order explains; with descriptors the only outcomes are the legacy
 * queue's (both removed and nothing delivered, or x2 delivered and x1 removed). Model checking explores every
 * interleaving of the scenario, stress runs it on real threads; {@code BULK_REMOVAL_PER_MESSAGE} (removal message
 * by message) and {@code UNRESERVED_DELIVERY} (delivery by one CAS, blind to a removal pushed after the Looper's
 * sweep) must be caught. The removal group of {@link DeliQueueLincheckTest} draws the same races at
 * random, with every kind of removal.
 */
// negative control: BULK_REMOVAL_PER_MESSAGE, UNRESERVED_DELIVERY
// obligation: Refinement
class BulkRemovalOffTheLooperTest {
    /** Runs of the scenario on real threads; cheap, and the race window is narrow on 2 cores. */
    private static final int STRESS_RUNS = 4 * DeliQueueLincheckTest.INVOCATIONS;

    static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions().iterations(0)
                .invocationsPerIteration(DeliQueueLincheckTest.INVOCATIONS)
                .sequentialSpecification(RemovalOperations.Spec.class)
                .addCustomScenario(CustomScenarios.bulkRemovalAgainstDelivery());
    }

    @Test
    @QuietLogs
    void atomicUnderModelChecking() {
        DeliQueueLincheckTest.check(modelChecking(), DeliQueueLincheckTest.Group.REMOVAL, QueueKind.DELI,
                "bulk removal, model checking");
    }

    @Test
    @QuietLogs
    void atomicUnderStress() {
        StressOptions stress = new StressOptions().iterations(0).invocationsPerIteration(STRESS_RUNS)
                .sequentialSpecification(RemovalOperations.Spec.class)
                .addCustomScenario(CustomScenarios.bulkRemovalAgainstDelivery());
        DeliQueueLincheckTest.check(stress, DeliQueueLincheckTest.Group.REMOVAL, QueueKind.DELI,
                "bulk removal, stress");
    }

    /**
     * Negative controls: removal message by message (no descriptor), and delivery by one CAS without the
     * reservation that lets a removal pushed after the Looper's sweep take the message.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mutant.class, names = {"BULK_REMOVAL_PER_MESSAGE", "UNRESERVED_DELIVERY"})
    @QuietLogs
    void modelCheckingCatches(Mutant mutant) {
        DeliQueueLincheckTest.mustFail(modelChecking(), DeliQueueLincheckTest.Group.REMOVAL, mutant,
                "bulk removal, model checking");
    }
}
