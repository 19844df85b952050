package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.stream.Stream;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lincheck on impl's DeliQueue against the legacy queue as sequential specification.
 *
 * <p>Obligations checked: ExactlyOnce, NoLostMessage, DeliveryOrder and Refinement (linearizability of every
 * operation in {@link QueueOperations}), HeapStackConsistent, BackLinksConsistent and TraversalSafe (the
 * {@code @Validate} hook after each invocation), PushLockFree (obstruction freedom of producers and removers).
 *
 * <p>Model checking is the main verdict (sequentially consistent interleavings, every shared access a switch
 * point); stress mode runs the same scenarios on real threads. Sizes come from the system properties
 * {@code lincheck.iterations} (scenarios) and {@code lincheck.invocations} (interleavings per scenario), which
 * {@code make test} keeps small and {@code make lincheck} raises. The queues' logger is off ({@link QuietLogs}):
 * java.util.logging takes locks the model checker cannot schedule.
 */
// negative control: NON_ATOMIC_PUSH, DELIVER_WITHOUT_REMOVED_CAS, UNLINK_CLEARS_NEXT, SWEEP_SKIPS_BACKLINKS, SINGLE_PASS_TRAVERSAL
// obligation: ExactlyOnce
// obligation: NoLostMessage
// obligation: DeliveryOrder
// obligation: Refinement
// obligation: HeapStackConsistent
// obligation: BackLinksConsistent
// obligation: TraversalSafe
// obligation: TraversalComplete
// obligation: NoPushAfterQuit
// obligation: PushLockFree
class DeliQueueLincheckTest {
    static final int ITERATIONS = Integer.getInteger("lincheck.iterations", 15);
    static final int INVOCATIONS = Integer.getInteger("lincheck.invocations", 500);

    static ModelCheckingOptions modelChecking() {
        return CustomScenarios.addTo(sized(new ModelCheckingOptions()));
    }

    static <O extends Options<O, ?>> O sized(O options) {
        return options.iterations(ITERATIONS).invocationsPerIteration(INVOCATIONS)
                .threads(3).actorsPerThread(3).actorsBefore(2).actorsAfter(2)
                .sequentialSpecification(LegacyQueueOperations.class);
    }

    static void check(Options<?, ?> options, Class<?> operations, String what) {
        long start = System.nanoTime();
        options.check(operations);
        System.out.printf("lincheck %-34s %s: passed, %d scenarios x up to %d invocations, %.1f s%n", what,
                operations.getSimpleName(), ITERATIONS, INVOCATIONS, (System.nanoTime() - start) / 1e9);
    }

    @Test
    @QuietLogs
    void deliQueueIsLinearizableUnderModelChecking() {
        check(modelChecking(), DeliQueueOperations.class, "model checking");
    }

    @Test
    @QuietLogs
    void deliQueueIsLinearizableUnderStress() {
        check(sized(new StressOptions()), DeliQueueOperations.class, "stress");
    }

    /** PushLockFree: no operation off the Looper waits for another thread (a CAS retry loop is fine). */
    @Test
    @QuietLogs
    void deliQueueIsObstructionFree() {
        check(modelChecking().checkObstructionFreedom(true), DeliQueueOperations.class,
                "obstruction freedom");
    }

    /** Negative control of the progress check: the legacy queue's monitor must be reported. */
    @Test
    @QuietLogs
    void legacyQueueIsNotObstructionFree() {
        LincheckAssertionError error = assertThrows(LincheckAssertionError.class, () ->
                modelChecking().checkObstructionFreedom(true).check(LegacyQueueOperations.class));
        System.out.println("lincheck obstruction freedom, LegacyQueueOperations: failed as expected: "
                + firstLine(error));
    }

    /** The mutants a sequentially consistent interleaving of these operations can expose. */
    static Stream<Mutant> mutantsModelCheckingMustCatch() {
        return Arrays.stream(Mutant.values()).filter(m -> !MUTANTS_BEYOND_THESE_OPERATIONS.contains(m));
    }

    /**
     * Mutants these operations cannot expose, and why: {@code poll()} never sleeps and {@code next()} (which
     * sleeps and tears down) cannot run under Lincheck, so the wait word and the teardown refcount are the
     * business of jcstress and JPF; the comparator bug needs {@code when}s near the ends of the long range, which
     * the conformance suite covers; a lost freelist chain only leaks linked tombstones, which no operation's
     * result shows (jcstress counts them).
     */
    static final java.util.Set<Mutant> MUTANTS_BEYOND_THESE_OPERATIONS = java.util.EnumSet.of(Mutant.LOST_WAKEUP,
            Mutant.TEARDOWN_WITHOUT_WAIT, Mutant.OVERFLOWING_COMPARATOR, Mutant.FREELIST_PLAIN_PUSH);

    @ParameterizedTest(name = "{0}")
    @MethodSource("mutantsModelCheckingMustCatch")
    @QuietLogs
    void modelCheckingCatchesMutant(Mutant mutant) {
        MutantQueueOperations.underTest = mutant;
        LincheckAssertionError error = assertThrows(LincheckAssertionError.class,
                () -> modelChecking().check(MutantQueueOperations.class),
                () -> mutant + " passed model checking; expected a violation: " + mutant.reason);
        System.out.println("lincheck model checking, " + mutant + ": caught: " + firstLine(error));
    }

    static String firstLine(Throwable t) {
        String message = String.valueOf(t.getMessage()).strip();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
