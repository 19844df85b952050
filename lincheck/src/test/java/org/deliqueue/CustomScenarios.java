package org.deliqueue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import kotlin.Unit;
import kotlin.jvm.functions.Function1;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.jetbrains.lincheck.datastructures.DSLScenarioBuilder;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuarantee;
import org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * Scenarios written by hand, added to every model-checking run of their group: random scenarios rarely line up
 * the few actors these races need, and the model checker then explores every interleaving of them. Each names
 * the obligation (or the defect) it aims at and the seeded bugs it must catch; arguments are those of the
 * group's operations.
 */
final class CustomScenarios {
    /** Indices into {@link QueueOperations#WHENS}: {@code when} 0 (due at once), 1, and 3 (not due soon). */
    private static final int FRONT = 0;
    private static final int AT_1 = 1;
    private static final int LATER = 2;

    private CustomScenarios() {
    }

    /**
     * A hand-written scenario, named, with the seeded bugs it is written to catch: {@code DeliQueueLincheckTest}
     * checks each of those claims by running the scenario alone on each of its mutants. A scenario whose race needs
     * more switches than the model checker reaches among every shared access runs alone {@link Narrowed}.
     */
    record Aimed(String name, Function1<DSLScenarioBuilder, Unit> scenario, Set<Mutant> catches, Narrowed narrowed) {
        Aimed(String name, Function1<DSLScenarioBuilder, Unit> scenario, Mutant... catches) {
            this(name, scenario, null, catches);
        }

        Aimed(String name, Function1<DSLScenarioBuilder, Unit> scenario, Narrowed narrowed, Mutant... catches) {
            this(name, scenario, catches.length == 0 ? EnumSet.noneOf(Mutant.class) : EnumSet.copyOf(List.of(catches)),
                    narrowed);
        }
    }

    /**
     * How a scenario runs alone when its race needs three switches: the model checker explores every interleaving
     * with two switches before it tries one with three, and with a switch point at every shared access the scenario's
     * two-switch interleavings alone outnumber any budget. So the steps the race is made of run whole
     * ({@code atomic}: a switch point before each, none inside), the steps it does not depend on run without switch
     * points ({@code quiet}), and the run gets at least {@code invocations} interleavings. Each interleaving explored
     * is still one the code can take: narrowing leaves some out, it adds none, so a failure is a real one. In
     * full, with every switch point, the scenario still runs among its group's (on DeliQueue, not alone).
     *
     * @param atomic {@code Class#method} names (in org.deliqueue) run whole
     * @param quiet {@code Class#method} names ({@code Class#*}: all its methods) run without switch points
     */
    record Narrowed(List<String> atomic, List<String> quiet, int invocations) {
        ModelCheckingOptions applyTo(ModelCheckingOptions options) {
            atomic.forEach(m -> options.addGuarantee(methods(m).treatAsAtomic()));
            quiet.forEach(m -> options.addGuarantee(methods(m).ignore()));
            return options;
        }

        private static ManagedStrategyGuarantee.GuaranteeBuilder methods(String classAndMethod) {
            String[] parts = classAndMethod.split("#");
            String className = "org.deliqueue." + parts[0];
            ManagedStrategyGuarantee.MethodBuilder builder =
                    ManagedStrategyGuaranteeKt.forClasses(c -> c.equals(className));
            return parts[1].equals("*") ? builder.allMethods() : builder.methods(parts[1]);
        }
    }

    /** The removal group's scenarios. */
    static List<Aimed> removal() {
        Class<?> ops = RemovalOperations.class;
        return List.of(
                // ExactlyOnce: a remover and the Looper race for the same due message (token 0.0).
                new Aimed("removerRacesDelivery", scenario(ops,
                        init -> init.add("post", 0, FRONT, 0),
                        remover -> remover.add("removeOne", 0, 0),
                        looper -> looper.add("deliver"),
                        after -> { }), Mutant.DELIVER_WITHOUT_REMOVED_CAS),
                // TraversalComplete: a query stands on b while the Looper delivers and unlinks b; a (what 0,
                // not due) lies below b, c sits on top so that b is not the top.
                new Aimed("queryStandsOnAnUnlinkedMessage", scenario(ops,
                        init -> init.add("post", 0, LATER, 0).add("post", 0, FRONT, 1).add("post", 0, LATER, 1),
                        query -> query.add("has", 0),
                        looper -> looper.add("deliver"),
                        after -> { }), Mutant.UNLINK_CLEARS_NEXT),
                // TraversalComplete, repeated pass: a match (0.0) delivered behind the query while another
                // (1.0) is pushed in front of it; one of them is pending at every instant.
                new Aimed("queryMissesAMatchPushedInFront", scenario(ops,
                        init -> init.add("post", 0, FRONT, 0).add("post", 0, LATER, 1),
                        query -> query.add("has", 0),
                        other -> other.add("post", 1, LATER, 0).add("deliver"),
                        after -> { }), Mutant.SINGLE_PASS_TRAVERSAL),
                // Atomic bulk removal against delivery (BulkRemovalOffTheLooperTest): x2, pushed last, is the
                // head; removing message by message takes x2 while the Looper delivers x1.
                new Aimed("bulkRemovalAgainstDelivery", bulkRemovalAgainstDelivery(),
                        Mutant.BULK_REMOVAL_PER_MESSAGE, Mutant.UNRESERVED_DELIVERY),
                // A removal's predicate reads a payload another removal is clearing (what 0, target still seen):
                // the equals that then runs (and throws) must not count: the message had left (make lincheck found
                // removeEqualThrowing(0) throwing though no message of what 0 was ever queued).
                new Aimed("predicateReadsAClearedPayload", scenario(ops,
                        init -> init.add("post", 1, AT_1, 1),
                        thrower -> thrower.add("removeEqualThrowing", 0),
                        other -> other.add("removeAll"),
                        after -> after.add("has", 1))),
                // UserCodeOnCaller: a removal whose key answers the opposite when asked again, against the Looper
                // delivering what it may cover; asked once per message, it takes 0.0 and 0.2 and leaves 0.1.
                new Aimed("keyThatFlips", scenario(ops,
                        init -> init.add("post", 0, FRONT, 0).add("post", 0, LATER, 0).add("post", 0, FRONT, 0),
                        remover -> remover.add("removeEqualFlipping", 0, 0),
                        looper -> looper.add("deliver"),
                        after -> after.add("has", 0)), Mutant.LOOPER_ASKS_PREDICATE),
                // Atomic bulk removal against a removal and a later push (the history Lincheck found on per-message removal, at depth): once
                // removeOne found 0.0 gone, a message pushed afterwards must survive the bulk removal.
                new Aimed("bulkRemovalAgainstRemovalThenPush", scenario(ops,
                        init -> init.add("post", 0, FRONT, 0),
                        bulk -> bulk.add("removeAll"),
                        other -> other.add("removeOne", 0, 0).add("post", 1, FRONT, 0),
                        after -> after.add("deliver"))),
                // TraversalComplete (jumps): a query walks while a removal of 0.0 finishes above 0.1 (what 1): it
                // meets the descriptor unfinished or finished, and must reach 0.1 either way.
                new Aimed("queryJumpsFromAFinishingRemoval", scenario(ops,
                        init -> init.add("post", 0, LATER, 1).add("post", 0, LATER, 0),
                        remover -> remover.add("removeWhat", 0),
                        query -> query.add("has", 1),
                        after -> after.add("has", 1)), Mutant.SKIP_PUBLISHED_AFTER_FINISH),
                // HasMessagesLinearizable: a query for what 0 meets 0.1 first; removeOne takes 0.1 (not 0.0)
                // between the query's predicate and its second read of 0.1's flags. 0.0 is pending at every instant,
                // so the query must go on to it and answer true.
                new Aimed("queryPastAMatchRemovedUnderIt", scenario(ops,
                        init -> init.add("post", 0, LATER, 0).add("post", 0, LATER, 0),
                        query -> query.add("has", 0),
                        remover -> remover.add("removeOne", 0, 1),
                        after -> after.add("has", 0)), Mutant.QUERY_FALSE_AT_REMOVED_MATCH),
                // HasMessagesLinearizable: while a query for what 0 walks past 0.0, 1.0 (what 0) is posted and then
                // 0.0 removed; the query's re-read of top finds the removal's descriptor above 1.0. A match is
                // pending at every instant, so the query must walk the new segment and answer true.
                new Aimed("queryPastAPostThenARemoval", scenario(ops,
                        init -> init.add("post", 0, LATER, 0),
                        query -> query.add("has", 0),
                        other -> other.add("post", 1, LATER, 0).add("removeOne", 0, 0),
                        after -> after.add("has", 0)), Mutant.RECHECK_TRUSTS_OWNER_ON_TOP),
                // RemovalReturnsItsSet: removeWhat(0) selects 0.0 (due at 1) and 0.2 (at 3), with 0.1 (what 1, at 3)
                // between them in the heap, and pushes its descriptor; before it collects, the Looper's poll
                // tombstones 0.0, the head of its heap, for it and stops at 0.1 (not due). Both are its own: it must
                // return 2.
                new Aimed("removalOfTwoWhileTheLooperTakesTheOlder", scenario(ops,
                        init -> init.add("post", 0, AT_1, 0).add("post", 0, LATER, 1).add("post", 0, LATER, 0)
                                .add("deliver"),
                        remover -> remover.add("removeWhat", 0),
                        looper -> looper.add("deliver"),
                        after -> after.add("has", 0)), Mutant.FLOOR_FROM_UNREMOVED_VERDICTS),
                new Aimed("removalThenQuitCoverAReservation", removalThenQuitCoverAReservation(),
                        BETWEEN_REMOVAL_AND_QUIT_STEPS, Mutant.RESOLVE_TAKES_LATEST_OWNER,
                        Mutant.QUIT_DROP_OVERRIDES_REMOVAL),
                new Aimed("twoRemovalsCoverAReservation", twoRemovalsCoverAReservation(), BETWEEN_REMOVAL_STEPS,
                        Mutant.RESOLVE_TAKES_LATEST_OWNER, Mutant.EARLIEST_OWNER_IS_LATEST),
                new Aimed("queryThenRemovalBesideAReservation", queryThenRemovalBesideAReservation(),
                        BETWEEN_RESERVE_AND_RESOLVE, Mutant.QUERY_SKIPS_RESERVATION),
                new Aimed("removalAfterQuitSafely", removalAfterQuitSafely(),
                        Mutant.QUIT_OWNS_NOTHING, Mutant.SKIP_OVER_QUIT_SENTINEL),
                new Aimed("twoRemovalsAfterQuitThenPost", twoRemovalsAfterQuitThenPost(), Mutant.DESCRIPTOR_FORGETS_QUIT),
                new Aimed("sameBarrierRemovedTwice", sameBarrierRemovedTwice(), Mutant.BARRIER_REMOVED_TWICE),
                // Refinement: quit() drops the barriers too; removing one after the quit finds nothing, whether or
                // not the Looper has swept the quit.
                new Aimed("removalOfABarrierAfterQuit", scenario(ops,
                        init -> init.add("postBarrier").add("quit"),
                        remover -> remover.add("removeBarrier", 0),
                        looper -> looper.add("deliver"),
                        after -> after.add("removeBarrier", 0)), Mutant.QUIT_KEEPS_BARRIERS));
    }

    // ---- ownership: which removal, or the quit, a message goes to ----

    /**
     * RemovalReturnsItsSet, ExactlyOnce, Refinement: two removals cover 0.0 while the Looper holds it reserved.
     * 0.0 is due at 1, swept by a poll at 0, then the clock moves to 1; the Looper then claims it while removeWhat(0)
     * and removeAll run. The race needs three switches: the second remover selects 0.0 and stops before its push;
     * the first selects and pushes its descriptor and stops before it collects (its collection would resolve the
     * reservation with only its own descriptor pushed); the second's push fails, it walks the new segment (the first
     * descriptor: an owner, nothing more to ask) and lands above it, still covering 0.0, and collects nothing (the
     * earlier descriptor owns 0.0); the Looper, stopped after its sweep (before its claim, or between reserving and
     * resolving), resolves the reservation with both descriptors pushed since. The earliest must get it: the first
     * remover counts it, the second does not, nothing is delivered. Given to the later one, it is counted by nobody
     * and never delivered: a lost message, its payload kept ({@code structureIsConsistent}). JPF's harness (k)
     * SecondRemover explores the same race exhaustively.
     */
    static Function1<DSLScenarioBuilder, Unit> twoRemovalsCoverAReservation() {
        return scenario(RemovalOperations.class,
                init -> init.add("post", 0, AT_1, 0).add("deliver").add("advance", 1),
                first -> first.add("removeWhat", 0),
                second -> second.add("removeAll"),
                looper -> looper.add("deliver"),
                after -> after.add("deliver"));
    }

    /**
     * {@link #twoRemovalsCoverAReservation}'s narrowing: switches only before a removal's descriptor push and its
     * collection and before the Looper's claim (reserve and resolve, whole: nothing else runs between the two on
     * DeliQueue's thread), and at the Looper's own field accesses; none in the selection's walk (it must only read
     * {@code top} before the first descriptor lands), the Looper's bookkeeping (sweep, freelist drain, heaps, the
     * quit's drop: its own data), the clock (still in the parallel part) or the wake resource's binding. With every
     * switch point, 500 interleavings of the scenario do not reach the race; narrowed, the wrong-owner bug fails
     * after fewer than 500.
     */
    static final Narrowed BETWEEN_REMOVAL_STEPS = new Narrowed(
            List.of("DeliQueue#pushDescriptor", "DeliQueue#collect", "DeliQueue#claimForDelivery"),
            List.of("DeliQueue#traverse", "DeliQueue#newSelection", "Message#<init>", "DeliQueue#sweep",
                    "DeliQueue#drainFreelist", "DeliQueue#firstDeliverable", "DeliQueue#heapOf", "MessageHeap#*",
                    "DeliQueue#dropIfQuitOwns", "ManualClock#uptimeMillis", "WakeResource#bind"),
            1_500);

    /**
     * {@link #BETWEEN_REMOVAL_STEPS} with the quit's push as one more step: the race of
     * {@link #removalThenQuitCoverAReservation} (the Looper's sweep, the descriptor's push, the sentinel's push, then
     * the Looper's claim) needs three switches too. With every switch point the search reached it within its budget
     * only by chance: it stopped reaching it when quit() stopped reading the clock and the Looper's set of pending
     * removals changed (2026-11-27), which moved switch points.
     */
    static final Narrowed BETWEEN_REMOVAL_AND_QUIT_STEPS = new Narrowed(
            List.of("DeliQueue#pushDescriptor", "DeliQueue#collect", "DeliQueue#claimForDelivery",
                    "DeliQueue#quitQueue"),
            BETWEEN_REMOVAL_STEPS.quiet(), BETWEEN_REMOVAL_STEPS.invocations());

    /**
     * Refinement (hasMessages): one thread asks for what 0, then removes what 0, while the Looper holds 0.0 reserved
     * (swept by a poll at 0, due at 1). A query that meets the reservation resolves it before it answers: 0.0 is
     * delivered (no owner was pushed since the claim), the query answers false and the removal takes nothing. A
     * query that counted the reserved 0.0 as gone without resolving it would answer false, and then the same
     * thread's removal would take 0.0 from the Looper: absent, then removed.
     */
    static Function1<DSLScenarioBuilder, Unit> queryThenRemovalBesideAReservation() {
        return scenario(RemovalOperations.class,
                init -> init.add("post", 0, AT_1, 0).add("deliver").add("advance", 1),
                asker -> asker.add("has", 0).add("removeWhat", 0),
                looper -> looper.add("deliver"),
                after -> after.add("deliver"));
    }

    /**
     * {@link #BETWEEN_REMOVAL_STEPS} with the Looper's resolve as its own step: a switch may come between the
     * reservation's CAS and its resolution, which is where another thread meets the reservation. The race needs one
     * switch, and the query that skips a reservation fails within the first 100 interleavings; 500 of them take
     * about 7 s on the 2-core machine, 1,500 took 22 s.
     */
    static final Narrowed BETWEEN_RESERVE_AND_RESOLVE = new Narrowed(
            List.of("DeliQueue#pushDescriptor", "DeliQueue#collect", "DeliQueue#resolve"),
            BETWEEN_REMOVAL_STEPS.quiet(), 500);

    /**
     * RemovalReturnsItsSet, Refinement: a removal, then the quit, cover 0.0 while the Looper holds it reserved.
     * 0.1, never due, tells the order: a removal that took 0.1 preceded the quit and must have taken 0.0 as well,
     * unless 0.0 was delivered first. 0.0 given to the quit sentinel instead loses it from the removal's count.
     */
    static Function1<DSLScenarioBuilder, Unit> removalThenQuitCoverAReservation() {
        return scenario(RemovalOperations.class,
                init -> init.add("post", 0, FRONT, 0).add("post", 0, LATER, 0),
                remover -> remover.add("removeWhat", 0),
                quitter -> quitter.add("quit"),
                looper -> looper.add("deliver"),
                after -> after.add("deliver"));
    }

    /**
     * Refinement (quitSafely): the quit keeps 0.0 (due at its time) and drops 0.1 (due later) at its push; a
     * removal after it matches both while the Looper may not yet have swept the sentinel. It takes 0.0 alone (or
     * nothing, once 0.0 was delivered): 0.1 left the queue with the quit.
     */
    static Function1<DSLScenarioBuilder, Unit> removalAfterQuitSafely() {
        return scenario(RemovalOperations.class,
                init -> init.add("post", 0, FRONT, 0).add("post", 0, LATER, 0),
                quitter -> quitter.add("quitSafely").add("removeWhat", 0),
                looper -> looper.add("deliver"),
                after -> after.add("has", 0));
    }

    /**
     * NoPushAfterQuit: after quitSafely kept 0.0 and 0.1, two removals each take one, so two descriptors land
     * above the sentinel, the second on the first; every one of them must read as quitting, and the post after
     * them must fail.
     */
    static Function1<DSLScenarioBuilder, Unit> twoRemovalsAfterQuitThenPost() {
        return scenario(RemovalOperations.class,
                init -> init.add("post", 0, FRONT, 0).add("post", 0, FRONT, 1).add("quitSafely"),
                first -> first.add("removeWhat", 0),
                second -> second.add("removeWhat", 1),
                after -> after.add("post", 1, FRONT, 0).add("deliver"));
    }

    /**
     * Refinement (removeSyncBarrier): two threads remove the same barrier token at once, while the Looper polls
     * for 0.0 behind the barrier: exactly one removal succeeds, the other finds the token gone (the legacy queue
     * throws; so must DeliQueue), and 0.0 is delivered once, after the barrier left.
     */
    static Function1<DSLScenarioBuilder, Unit> sameBarrierRemovedTwice() {
        return scenario(RemovalOperations.class,
                init -> init.add("postBarrier").add("post", 0, AT_1, 0).add("advance", 1),
                first -> first.add("removeBarrier", 0),
                second -> second.add("removeBarrier", 0),
                looper -> looper.add("deliver"),
                after -> after.add("deliver"));
    }

    /** x1 then x2, both due (front of queue, so x2 comes out first); removeAll off the Looper races deliver. */
    static Function1<DSLScenarioBuilder, Unit> bulkRemovalAgainstDelivery() {
        return scenario(RemovalOperations.class,
                init -> init.add("post", 0, FRONT, 0).add("post", 0, FRONT, 1),
                remover -> remover.add("removeAll"),
                looper -> looper.add("deliver"),
                after -> after.add("deliver"));
    }

    /** The delivery group's scenarios. */
    static List<Aimed> delivery() {
        Class<?> ops = DeliveryOperations.class;
        return List.of(
                // ExactlyOnce, NoLostMessage: two pushes race; both are delivered, front-of-queue LIFO.
                new Aimed("twoPushesRace", scenario(ops,
                        init -> { },
                        first -> first.add("post", 0, FRONT, 0),
                        second -> second.add("post", 1, FRONT, 0),
                        after -> after.add("deliver").add("deliver").add("deliver")), Mutant.NON_ATOMIC_PUSH),
                // quitSafely's time: a post accepted before the quit, due by the clock of
                // its post, must not be dropped.
                new Aimed("postBeforeQuitSafelysClock", scenario(ops,
                        init -> { },
                        quitter -> quitter.add("quitSafely"),
                        poster -> poster.add("advance", 1).add("post", 1, AT_1, 0),
                        after -> after.add("deliver")), Mutant.QUIT_TIME_BEFORE_TOP),
                // Uptime 0 (the part poll sees): a front-of-queue post at uptime 0 sorts
                // before a barrier posted at uptime 0 and is delivered past it.
                new Aimed("frontOfQueuePastABarrierAtUptimeZero", scenario(ops,
                        init -> init.add("postBarrier"),
                        poster -> poster.add("post", 0, FRONT, 0),
                        looper -> looper.add("deliver"),
                        after -> after.add("deliver"))),
                // GoneNodesUnlinkedAtRest: quit() pushed between the Looper's sweep and its claim owns the message
                // the claim chose, which has left its heap: the Looper must unlink and retire it there.
                new Aimed("quitTakesTheClaimedMessage", scenario(ops,
                        init -> init.add("post", 0, FRONT, 0),
                        quitter -> quitter.add("quit"),
                        looper -> looper.add("deliver"),
                        after -> after.add("deliver")), Mutant.CLAIM_LEAVES_QUIT_DROP),
                // DeliveryOrder, RemovalReturnsItsSet: removeOne pushes its descriptor over 0.0 (async, due) and
                // pauses before it collects; the Looper's query then answers false (the descriptor owns 0.0), and its
                // poll must tombstone 0.0 for the removal, not deliver it: delivered after that false, 0.0 would
                // have left the queue twice.
                new Aimed("asyncMessageASweptRemovalOwns", scenario(ops,
                        init -> init.add("postAsync", 0, FRONT, 0),
                        remover -> remover.add("removeOne", 0, 0),
                        looper -> looper.add("has", 0).add("deliver"),
                        after -> after.add("deliver")), Mutant.DEAD_HEAD_SYNC_ONLY),
                // EventualDelivery: removeBarrier's descriptor owns the barrier ahead of 0.0 (due); a Looper that
                // sweeps the descriptor before the removal collects tombstones the barrier for it at the head of its
                // heap, takes it out and delivers 0.0. A dead barrier left in the heap is met again for ever: the
                // Looper spins, and Lincheck reports the hang.
                new Aimed("barrierRemovedUnderThePoll", scenario(ops,
                        init -> init.add("postBarrier").add("post", 0, AT_1, 0).add("advance", 1),
                        remover -> remover.add("removeBarrier", 0),
                        looper -> looper.add("deliver"),
                        after -> after.add("deliver")), Mutant.DEAD_BARRIER_STAYS_IN_HEAP));
    }

    /** The actors of one thread, by operation name. */
    static final class Actors {
        private final Class<?> operations;
        private final DSLThreadScenario thread;

        private Actors(Class<?> operations, DSLThreadScenario thread) {
            this.operations = operations;
            this.thread = thread;
        }

        Actors add(String operation, Object... args) {
            Method method = Arrays.stream(operations.getMethods())
                    .filter(m -> m.getName().equals(operation) && m.isAnnotationPresent(Operation.class))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no operation " + operation));
            KFunction<?> function = ReflectJvmMapping.getKotlinFunction(method);
            thread.actor(function, args);
            return this;
        }
    }

    @FunctionalInterface
    interface Part {
        void add(Actors actors);
    }

    /** An initial part, two parallel threads, and a part after them. */
    static Function1<DSLScenarioBuilder, Unit> scenario(Class<?> operations, Part initial, Part first,
            Part second, Part after) {
        return scenario(operations, initial, List.of(first, second), after);
    }

    /** An initial part, three parallel threads, and a part after them. */
    static Function1<DSLScenarioBuilder, Unit> scenario(Class<?> operations, Part initial, Part first,
            Part second, Part third, Part after) {
        return scenario(operations, initial, List.of(first, second, third), after);
    }

    private static Function1<DSLScenarioBuilder, Unit> scenario(Class<?> operations, Part initial,
            List<Part> threads, Part after) {
        return builder -> {
            builder.initial(thread(operations, initial));
            builder.parallel(parallel -> {
                for (Part part : threads) {
                    parallel.thread(thread(operations, part));
                }
                return Unit.INSTANCE;
            });
            builder.post(thread(operations, after));
            return Unit.INSTANCE;
        };
    }

    private static Function1<DSLThreadScenario, Unit> thread(Class<?> operations, Part part) {
        return thread -> {
            part.add(new Actors(operations, thread));
            return Unit.INSTANCE;
        };
    }
}
