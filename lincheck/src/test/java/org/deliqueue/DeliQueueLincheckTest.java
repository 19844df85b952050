package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lincheck on impl's DeliQueue against the legacy queue as sequential specification, in two groups of
 * operations ({@link RemovalOperations}, {@link DeliveryOperations}; {@link QueueOperations} describes both).
 *
 * <p>Obligations checked: ExactlyOnce, NoLostMessage, DeliveryOrder and Refinement (linearizability of every
 * operation, bulk removal from any thread included), PayloadReleased ({@code removeOne}'s answer), and
 * HeapStackConsistent, BackLinksConsistent and TraversalSafe (the {@code @Validate} hook after each invocation),
 * PushLockFree and CallsReturn (obstruction freedom of every operation off the Looper: run alone, each returns),
 * RemovalReturnsItsSet and NoPushAfterQuit
 * (the removal group's hand-written ownership scenarios: a removal and the quit, or two removals, covering a reserved
 * message, removals after quitSafely, then a post, the same barrier removed by two threads).
 *
 * <p>Model checking is the main verdict (sequentially consistent interleavings, every shared access a switch
 * point), over random scenarios and the hand-written ones of {@link CustomScenarios}; stress mode runs the random
 * scenarios on real threads. Depth: the system properties {@code lincheck.iterations} (scenarios) and
 * {@code lincheck.invocations} (interleavings, or runs, per scenario) size the model-checking runs of the two
 * groups, where depth pays; stress and obstruction freedom, which find nothing more with more of it, run
 * {@value #CHEAP_SHARE}x fewer scenarios (obstruction freedom also {@value #CHEAP_SHARE}x fewer interleavings). {@code make test} keeps the sizes small and {@code make lincheck}
 * raises them. Every check prints its time. The queues' logger is off ({@link QuietLogs}): java.util.logging takes
 * locks the model checker cannot schedule.
 */
// negative control: NON_ATOMIC_PUSH, DELIVER_WITHOUT_REMOVED_CAS, UNLINK_CLEARS_NEXT, SWEEP_SKIPS_BACKLINKS, SINGLE_PASS_TRAVERSAL, QUIT_TIME_BEFORE_TOP, REMOVAL_KEEPS_PAYLOAD, BULK_REMOVAL_PER_MESSAGE, UNRESERVED_DELIVERY, LOOPER_ASKS_PREDICATE, RESOLVE_TAKES_LATEST_OWNER, DESCRIPTOR_FORGETS_QUIT, QUIT_OWNS_NOTHING, BARRIER_REMOVED_TWICE, SKIP_OVER_QUIT_SENTINEL, SKIP_PUBLISHED_AFTER_FINISH, EARLIEST_OWNER_IS_LATEST, QUIT_DROP_OVERRIDES_REMOVAL, QUERY_SKIPS_RESERVATION
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
// obligation: CallsReturn
// obligation: PayloadReleased
// obligation: UserCodeOnCaller
// obligation: RemovalReturnsItsSet
// obligation: SkipsPassOnlyGone
class DeliQueueLincheckTest {
    static final int ITERATIONS = Integer.getInteger("lincheck.iterations", 15);
    static final int INVOCATIONS = Integer.getInteger("lincheck.invocations", 500);
    /** How many times fewer scenarios the cheap checks (stress, obstruction freedom) run. */
    static final int CHEAP_SHARE = 5;

    /** A group of operations: its class, its sequential specification and its hand-written scenarios. */
    enum Group {
        REMOVAL(RemovalOperations.class, RemovalOperations.Spec.class, CustomScenarios::removal),
        DELIVERY(DeliveryOperations.class, DeliveryOperations.Spec.class, CustomScenarios::delivery);

        final Class<? extends QueueOperations> operations;
        final Class<? extends QueueOperations> specification;
        final List<CustomScenarios.Aimed> scenarios;

        Group(Class<? extends QueueOperations> operations, Class<? extends QueueOperations> specification,
                Supplier<List<CustomScenarios.Aimed>> scenarios) {
            this.operations = operations;
            this.specification = specification;
            this.scenarios = scenarios.get();
        }

        /** Random scenarios (none if {@code iterations} is 0), then the group's hand-written ones. */
        ModelCheckingOptions modelChecking(int iterations, int invocations) {
            ModelCheckingOptions options = sized(new ModelCheckingOptions(), iterations, invocations);
            scenarios.forEach(a -> options.addCustomScenario(a.scenario()));
            return options;
        }

        /** The hand-written scenario {@code a} alone, {@linkplain CustomScenarios.Narrowed narrowed} if it says so. */
        ModelCheckingOptions alone(CustomScenarios.Aimed a, int invocations) {
            CustomScenarios.Narrowed narrowed = a.narrowed();
            if (narrowed == null) {
                return sized(new ModelCheckingOptions(), 0, invocations).addCustomScenario(a.scenario());
            }
            return narrowed.applyTo(sized(new ModelCheckingOptions(), 0, Math.max(invocations, narrowed.invocations())))
                    .addCustomScenario(a.scenario());
        }

        ModelCheckingOptions randomModelChecking(int iterations, int invocations) {
            return sized(new ModelCheckingOptions(), iterations, invocations);
        }

        StressOptions stress(int iterations) {
            return sized(new StressOptions(), iterations, INVOCATIONS);
        }

        private <O extends Options<O, ?>> O sized(O options, int iterations, int invocations) {
            return options.iterations(iterations).invocationsPerIteration(invocations)
                    .threads(3).actorsPerThread(3).actorsBefore(2).actorsAfter(2)
                    .sequentialSpecification(specification);
        }
    }

    static int cheap(int size) {
        return Math.max(1, size / CHEAP_SHARE);
    }

    /** Runs one check of {@code group} on the queue {@code factory} makes, and prints its time. */
    static void check(Options<?, ?> options, Group group, MessageQueue.Factory factory, String what) {
        long start = System.nanoTime();
        MessageQueue.Factory saved = QueueOperations.underTest;
        QueueOperations.underTest = factory;
        try {
            options.check(group.operations);
        } finally {
            QueueOperations.underTest = saved;
        }
        System.out.printf("lincheck %-20s %-8s %s: passed, %.1f s%n", what, group, factory,
                (System.nanoTime() - start) / 1e9);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    @QuietLogs
    void linearizableUnderModelChecking(Group group) {
        check(group.modelChecking(ITERATIONS, INVOCATIONS), group, QueueKind.DELI, "model checking");
    }

    /**
     * The narrowed scenarios, alone on DeliQueue: the interleavings their mutants fail in (the group's run above
     * checks them in full, where the budget does not reach those).
     */
    @Test
    @QuietLogs
    void narrowedScenariosPassAlone() {
        for (Group group : Group.values()) {
            for (CustomScenarios.Aimed a : group.scenarios) {
                if (a.narrowed() != null) {
                    check(group.alone(a, INVOCATIONS), group, QueueKind.DELI, "scenario " + a.name());
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    @QuietLogs
    void linearizableUnderStress(Group group) {
        check(group.stress(cheap(ITERATIONS)), group, QueueKind.DELI, "stress");
    }

    /**
     * PushLockFree, CallsReturn: no operation off the Looper waits for another thread (a CAS retry loop is fine). A lock shows
     * in almost any interleaving with contention, so depth does not pay here (and each interleaving costs about
     * three times a linearizability one): random scenarios only, {@value #CHEAP_SHARE}x fewer and shorter.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("groups")
    @QuietLogs
    void obstructionFree(Group group) {
        check(obstructionFreedom(group), group, QueueKind.DELI, "obstruction freedom");
    }

    static ModelCheckingOptions obstructionFreedom(Group group) {
        return group.randomModelChecking(cheap(ITERATIONS), cheap(INVOCATIONS)).checkObstructionFreedom(true)
                .loopIterationsBeforeThreadSwitch(LONGEST_WALK);
    }

    /**
     * Lincheck takes a loop whose iterations repeat the same steps for a spin wait once it passes this bound, and
     * the progress check reports a spin wait as an active lock. A removal's walk over the descriptors that earlier
     * removals left (no Looper drains them in the REMOVAL group) repeats the same steps per node, for as many nodes
     * as a scenario pushes: the bound is above that, so only a loop that waits on another thread reaches it.
     */
    static final int LONGEST_WALK = 64;

    static Stream<Group> groups() {
        return Arrays.stream(Group.values());
    }

    /** Negative control of the progress check: the legacy queue's monitor must be reported. */
    @Test
    @QuietLogs
    void legacyQueueIsNotObstructionFree() {
        mustFail(obstructionFreedom(Group.REMOVAL), Group.REMOVAL, QueueKind.LEGACY, "obstruction freedom");
    }

    /** The mutants a sequentially consistent interleaving of these operations can expose. */
    static Stream<Mutant> mutantsModelCheckingMustCatch() {
        return Arrays.stream(Mutant.values()).filter(m -> !MUTANTS_BEYOND_THESE_OPERATIONS.contains(m));
    }

    /**
     * Mutants these operations cannot expose, and why. {@code poll()} never sleeps, and {@code next()} (which
     * sleeps and tears down) cannot run under Lincheck: a lost or missing wake changes when the Looper runs, never
     * what a poll returns, so the wait word (LOST_WAKEUP; WAKE_BY_CLOCK, whose producer decides the wake by the
     * clock instead of the protocol's order; ASYNC_HELD_BY_BARRIER, BARRIER_REMOVAL_WITHOUT_WAKE,
     * REMOVAL_WAKE_SKIPS_TIMED_PARK and QUIT_WITHOUT_WAKE, which skip a wake that only a sleeping Looper needs),
     * parking with the interrupt status set (PARK_KEEPS_INTERRUPT), an interrupt raised again on every return from
     * next() (INTERRUPT_STICKS) or held back from the idle handlers next() runs (IDLE_HANDLERS_MISS_INTERRUPT) and the teardown refcount are the
     * business of jcstress, JPF and the conformance suite. No operation here posts from inside its predicate, so a
     * walk that asks about its own posts (ASKS_ABOUT_OWN_POSTS) behaves as DELI (UserCodeTest catches it). The comparator bug needs
     * {@code when}s near both ends of the long range (a negative one), which the conformance suite covers, and so does
     * a tie-breaker that counts a negative {@code when} as the front of the queue (NEGATIVE_WHEN_AT_FRONT); whether
     * a barrier due now leaves the queue idle (IDLE_BEHIND_DUE_BARRIER) decides only when next() runs idle
     * handlers, which no operation here calls (HandlerLooperTest catches it). REMOVAL_IGNORES_OWNER gives a message
     * to the later of two removals that overlap (the later selected it before the earlier was pushed): either order
     * of two overlapping calls is linearizable, so only what each returns against its own descriptor's push shows it
     * (ScriptedInterleavingTest, TLC's MC_REMOVAL_IGNORES_OWNER). CLAIM_FLOOR_AT_TOP (the claim's floor is the
     * top it reads, not the one it swept) and SKIP_OVER_RESERVATION (a finished removal's skip passes a reserved
     * message) move a delivery's linearization point within the Looper's poll, which overlaps every call they touch:
     * each result stays linearizable, and ScriptedInterleavingTest checks the steps themselves. A lost
     * freelist chain (FREELIST_PLAIN_PUSH; FREELIST_DRAIN_READ_THEN_CLEAR, whose window lies between two of the
     * Looper's steps inside one poll) only leaks linked tombstones, which no operation's result shows (jcstress
     * counts them; a held-out audit's run of this module at its make-test depth missed the second).
     * The memory-ordering mutants (SLEEP_RELEASE_ACQUIRE, SLEEP_BARRIER_AFTER_ASLEEP, TRAVERSE_WITHOUT_FENCE)
     * behave exactly as DELI in every sequentially consistent execution, the only ones this model checker explores
     * (jcstress's twins show them). A teardown that tags the refcount by a read and a store
     * (TEARDOWN_TAG_READ_THEN_WRITE) needs next() to tear down, which no operation here does (jcstress's
     * RefcountVsTeardown and JPF's QuitVsWaker catch it), and so does a teardown wait that an interrupt ends
     * (TEARDOWN_WAIT_ENDS_ON_INTERRUPT; no operation here interrupts either: ScriptedInterleavingTest and JPF's
     * QuitVsWaker with an interrupt catch it).
     * REMOVAL_ABORTS_ON_THROW differs only where a removal's equals throws on one message and matches another,
     * and the throwing equals here throws at every call: both designs then take nothing (ThrowingUserCodeTest
     * catches it). REMOVALS_PILE_UP and FREELIST_WAKE_AT_EXACT_SIZE skip a wake that only a Looper asleep behind
     * 64 removed nodes needs, and REMOVALS_NEVER_FINISH only makes walks longer: what they change is how much stays
     * linked and how far a walk goes, never an operation's result (DeliQueueStructureTest catches them).
     * DUE_BY_FORGETS_QUIT leaves a message quitSafely kept undelivered only when next() tears down after the stale
     * null; the Looper here only polls, never tears down, and its next poll delivers what the quit kept (JPF's
     * QuitSafelyBesideRemoval catches it). BARRIER_TOKEN_READ_THEN_WRITE needs two barriers posted at once, and
     * barriers here are posted by the Looper's group only, as Android's view system does (jcstress's and JPF's
     * BarrierTokens catch it). QUIT_DROP_KEEPS_PAYLOAD leaves the payload on messages the quit dropped, which are
     * unlinked and which no operation here reads again (the conformance suite catches it). An enqueue whose IN_USE
     * claim is a read, then a store (CLAIM_CHECK_THEN_SET), differs only when two threads enqueue the same message,
     * and every post here makes a fresh one (jcstress's SameMessageEnqueue catches it). A query that remembers only
     * the last owner node it passed (QUERY_REMEMBERS_LAST_OWNER) answers true for a message a removal took at its
     * descriptor's push only while that removal has not collected, so its call overlaps the query and either order
     * is linearizable; once the removal returns, the message is REMOVED and every walk skips it
     * (ScriptedInterleavingTest checks the answer against the push, as TLC's MC_QUERY_REMEMBERS_LAST_OWNER does).
     * A removal's selection that asks its key about what an earlier removal took at its push
     * (SELECT_ASKS_ABOUT_OWNED) returns what DELI returns (the earlier owner keeps the message); its key's extra
     * call, or throw, happens only while that earlier removal has not returned, so either order of the two is
     * linearizable (ScriptedInterleavingTest records the calls, as TLC's MC_SELECT_ASKS_ABOUT_OWNED checks
     * UserCodeOnCaller).
     */
    static final Set<Mutant> MUTANTS_BEYOND_THESE_OPERATIONS = EnumSet.of(Mutant.LOST_WAKEUP, Mutant.WAKE_BY_CLOCK,
            Mutant.ASYNC_HELD_BY_BARRIER, Mutant.BARRIER_REMOVAL_WITHOUT_WAKE, Mutant.REMOVAL_WAKE_SKIPS_TIMED_PARK,
            Mutant.QUIT_WITHOUT_WAKE, Mutant.PARK_KEEPS_INTERRUPT, Mutant.TEARDOWN_WITHOUT_WAIT,
            Mutant.OVERFLOWING_COMPARATOR, Mutant.FREELIST_PLAIN_PUSH, Mutant.FREELIST_DRAIN_READ_THEN_CLEAR,
            Mutant.SLEEP_RELEASE_ACQUIRE, Mutant.TRAVERSE_WITHOUT_FENCE, Mutant.REMOVAL_ABORTS_ON_THROW,
            Mutant.REMOVALS_PILE_UP, Mutant.FREELIST_WAKE_AT_EXACT_SIZE, Mutant.REMOVALS_NEVER_FINISH,
            Mutant.INTERRUPT_STICKS, Mutant.IDLE_HANDLERS_MISS_INTERRUPT, Mutant.ASKS_ABOUT_OWN_POSTS,
            Mutant.NEGATIVE_WHEN_AT_FRONT, Mutant.IDLE_BEHIND_DUE_BARRIER, Mutant.REMOVAL_IGNORES_OWNER,
            Mutant.CLAIM_FLOOR_AT_TOP, Mutant.SKIP_OVER_RESERVATION, Mutant.DUE_BY_FORGETS_QUIT,
            Mutant.BARRIER_TOKEN_READ_THEN_WRITE, Mutant.QUIT_DROP_KEEPS_PAYLOAD, Mutant.SLEEP_BARRIER_AFTER_ASLEEP,
            Mutant.TEARDOWN_TAG_READ_THEN_WRITE, Mutant.CLAIM_CHECK_THEN_SET,
            Mutant.QUERY_REMEMBERS_LAST_OWNER, Mutant.SELECT_ASKS_ABOUT_OWNED,
            Mutant.TEARDOWN_WAIT_ENDS_ON_INTERRUPT);

    /**
     * Each mutant must fail model checking of at least one group. A mutant that hand-written scenarios are aimed at
     * ({@link CustomScenarios.Aimed#catches}) must fail each of them, run alone: the claim is checked, and each run
     * takes seconds. Any other mutant must fail the hand-written scenarios of some group together, or else the random
     * ones at full size.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("mutantsModelCheckingMustCatch")
    @QuietLogs
    void modelCheckingCatchesMutant(Mutant mutant) {
        boolean aimed = false;
        for (Group group : Group.values()) {
            for (CustomScenarios.Aimed a : group.scenarios) {
                if (a.catches().contains(mutant)) {
                    aimed = true;
                    mustFail(group.alone(a, INVOCATIONS), group, mutant, "scenario " + a.name());
                }
            }
        }
        if (!aimed) {
            caughtByAnyScenario(mutant);
        }
    }

    private static void caughtByAnyScenario(Mutant mutant) {
        long start = System.nanoTime();
        for (boolean random : new boolean[] {false, true}) {
            for (Group group : Group.values()) {
                ModelCheckingOptions options = random ? group.randomModelChecking(ITERATIONS, INVOCATIONS)
                        : group.modelChecking(0, INVOCATIONS);
                MessageQueue.Factory saved = QueueOperations.underTest;
                QueueOperations.underTest = mutant;
                try {
                    options.check(group.operations);
                } catch (LincheckAssertionError caught) {
                    System.out.printf("lincheck model checking %-8s %s: caught by %s scenarios, %.1f s: %s%n",
                            group, mutant, random ? "random" : "hand-written", (System.nanoTime() - start) / 1e9,
                            firstLine(caught));
                    return;
                } finally {
                    QueueOperations.underTest = saved;
                }
            }
        }
        fail(mutant + " passed model checking of every group; expected a violation: " + mutant.reason);
    }

    /** Asserts that Lincheck reports {@code factory}'s queue, and prints how. */
    static void mustFail(Options<?, ?> options, Group group, MessageQueue.Factory factory, String what) {
        long start = System.nanoTime();
        MessageQueue.Factory saved = QueueOperations.underTest;
        QueueOperations.underTest = factory;
        try {
            LincheckAssertionError error = assertThrows(LincheckAssertionError.class,
                    () -> options.check(group.operations), () -> factory + " passed " + what);
            System.out.printf("lincheck %-20s %-8s %s: failed as expected, %.1f s: %s%n", what, group, factory,
                    (System.nanoTime() - start) / 1e9, firstLine(error));
        } finally {
            QueueOperations.underTest = saved;
        }
    }

    static String firstLine(Throwable t) {
        String message = String.valueOf(t.getMessage()).strip();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
