package org.deliqueue.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.deliqueue.DeliQueue;
import org.deliqueue.MessageQueue;
import org.deliqueue.Mutant;
import org.deliqueue.TracedRun;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Trace validation in {@code make test}: a sample of traced concurrent runs of DeliQueue is accepted by TLC
 * against spec/DeliQueue.tla, and the checker's negative controls: traces of impl mutants that change a protocol
 * step are rejected with a verdict naming the event no behaviour matches, and a spec mutant rejects traces of the
 * correct code. {@code make trace} runs the soak ({@link Soak}). The trace model checks the obligations below in
 * every state and step of the behaviours that match a trace, at sizes beyond the CI models' (9 or 10 messages from
 * 2 or 3 producers).
 */
// obligation: TypeOK, ExactlyOnce, NoLostMessage, HeapStackConsistent, BackLinksConsistent
// obligation: TraversalSafe, NoUseAfterTeardown, NoLostWakeup, NoPushAfterQuit, PayloadReleased
// obligation: RemovalReturnsItsSet, DeliveryOrder, TraversalComplete, HasMessagesLinearizable, Refinement
// negative control: LOST_WAKEUP, NON_ATOMIC_PUSH, QUIT_TIME_BEFORE_TOP, TEARDOWN_WITHOUT_WAIT, SINGLE_PASS_TRAVERSAL
// negative control: BULK_REMOVAL_PER_MESSAGE, UNRESERVED_DELIVERY, DELIVER_WITHOUT_REMOVED_CAS
// negative control: ASYNC_HELD_BY_BARRIER, WAKE_BY_CLOCK, QUIT_WITHOUT_WAKE
class TraceValidationTest {
    /** Traced runs in the CI sample. */
    private static final int SAMPLE = 12;
    /** Runs tried per mutant before its negative control fails (the first rejection ends the search). */
    private static final int MUTANT_RUNS = 25;
    /** Traces TLC checks at once: one per core, as the sample and the soak do. */
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    private static TraceCheck check;
    private static Path dir;

    @BeforeAll
    static void setUp() {
        check = TraceCheck.fromSystemProperties();
        dir = Path.of(System.getProperty("trace.dir", "target/traces"));
    }

    /**
     * The traced run {@code seed} of {@code factory}, written. A run of the correct code must finish; a mutant's may
     * hang (a lost wakeup strands the Looper), and its trace up to the hang is then what is checked.
     */
    private static Path trace(MessageQueue.Factory factory, String name, long seed) throws Exception {
        Path out = dir.resolve(name + "-" + seed + ".ndjson");
        int producers = seed % 4 == 0 ? 3 : 2; // three producers in one run of four
        TracedRun.Written written = Soak.run(factory, seed, producers, 1).runTo(out);
        if (!written.finished()) {
            assertTrue(factory instanceof Mutant, "a run of DeliQueue hung, " + written.hung() + " parked for good (the "
                    + "trace up to the hang: " + out + ")");
            System.out.println(name + " run " + seed + " hung, " + written.hung() + " parked for good: its trace up to "
                    + "the hang is checked");
        }
        return out;
    }

    /** How a negative control judges one trace: the verdict that should reject it. */
    private interface Judge {
        TraceCheck.Verdict of(Path trace) throws Exception;
    }

    /**
     * The first rejection among up to {@link #MUTANT_RUNS} traced runs of {@code factory}, or null when all are
     * accepted. A TLC check of a trace the spec accepts takes seconds to a minute and one core, so runs are checked
     * {@link #CORES} at a time, the next run made while they are checked; the first rejection ends the search.
     */
    private static TraceCheck.Verdict firstRejection(MessageQueue.Factory factory, String name, Judge judge)
            throws Exception {
        ExecutorService tlc = Executors.newFixedThreadPool(CORES);
        CompletionService<TraceCheck.Verdict> checked = new ExecutorCompletionService<>(tlc);
        try {
            long seed = 1;
            int inFlight = 0;
            while (inFlight > 0 || seed <= MUTANT_RUNS) {
                while (seed <= MUTANT_RUNS && inFlight < CORES) {
                    Path t = trace(factory, name, seed++);
                    checked.submit(() -> judge.of(t));
                    inFlight++;
                }
                TraceCheck.Verdict v;
                try {
                    v = checked.take().get();
                } catch (ExecutionException e) { // a failed assertion of the judge, or its exception
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw (Exception) e.getCause();
                }
                inFlight--;
                if (!v.accepted()) {
                    return v;
                }
            }
            return null;
        } finally {
            tlc.shutdownNow();
        }
    }

    @Test
    void concurrentRunsOfDeliQueueAreBehavioursOfTheSpec() throws Exception {
        Set<String> matched = new TreeSet<>();
        List<String> figures = new ArrayList<>();
        // Runs are made one at a time; TLC checks them on every core meanwhile, as the soak does.
        ExecutorService tlc = Executors.newFixedThreadPool(CORES);
        List<Future<TraceCheck.Verdict>> verdicts = new ArrayList<>();
        List<Path> traces = new ArrayList<>();
        try {
            for (long seed = 1; seed <= SAMPLE; seed++) {
                Path t = trace(DeliQueue::new, "ci", seed);
                traces.add(t);
                verdicts.add(tlc.submit(() -> check.check(t)));
            }
            for (int i = 0; i < SAMPLE; i++) {
                TraceCheck.Verdict v = verdicts.get(i).get();
                figures.add(v.toString());
                assertTrue(v.accepted(), "a trace of the correct code was rejected:\n" + v);
                assertTrue(v.events() >= 50, "a CI trace is too short to exercise races: " + v);
                matched.addAll(TraceModule.read(traces.get(i)).actions());
            }
        } finally {
            tlc.shutdownNow();
        }
        figures.forEach(System.out::println);
        for (String a : List.of("push_casTop", "signalIfEarlier_cas", "wake_signal", "quit_casTop", "traverse_advance",
                "sweep_step", "takeDueOrNull_deliver", "takeDueOrNull_claim", "takeDueOrNull_resolve",
                "takeDueOrNull_dropOnQuit", "unlink_splice", "sleep_park", "teardown_free", "tick",
                "pushDescriptor_casTop", "collect_takeFor", "collect_finish", "removeMatching_pushFreelist",
                "drainFreelist_node")) {
            assertTrue(matched.contains(a), a + " was matched by no trace of the sample: " + matched);
        }
    }

    /**
     * Mutants whose bug changes a step the trace records. A sleep without re-check (LOST_WAKEUP) logs its
     * publication and then its park, which the spec's Looper cannot take before it re-checked; a teardown without
     * the wait (TEARDOWN_WITHOUT_WAIT, hook {@code awaitWakersGone}) logs its tag and then its free, which the spec's
     * Looper cannot take before a check read the count drained: every run tears down, so every trace is rejected.
     * A run a mutant hangs (a lost wakeup strands the Looper) is checked up to the hang. A log that ends before its
     * operation's last step is rejected too (TraceDeliQueue's EndedReturned): the quit without its wake
     * (QUIT_WITHOUT_WAKE) logs no wake decision, so the quitter's operation never returns in the spec, in every run,
     * and most runs hang with the Looper asleep (30 s each, then checked up to the hang). Those that rewrite a
     * whole method (quit, push, the traversal, the removal, the Looper's claim) record nothing for it, and
     * the Looper's or the poster's later events then match no step: a removal without descriptor
     * (BULK_REMOVAL_PER_MESSAGE) logs a traversal where the spec's removal reads top and pushes its descriptor; a
     * claim without reservation
     * (UNRESERVED_DELIVERY, DELIVER_WITHOUT_REMOVED_CAS) logs no claim or resolution, so the Looper's next event
     * after a delivery decision matches no step. Rejection rate measured over 20 soak runs (seeds 100-119):
     * QUIT_TIME_BEFORE_TOP 20. Not
     * here: SWEEP_SKIPS_BACKLINKS (its trace differs only when the Looper later unlinks the node whose back-link
     * the sweep skipped while that node is not {@code top}: 1 of 20 soak runs; the conformance suite and JPF catch
     * it), those the traced runs never reach (overflow: no extreme uptime; REMOVALS_PILE_UP: no run holds 64
     * removed nodes; REMOVAL_ABORTS_ON_THROW: no predicate throws; LOOPER_ASKS_PREDICATE: the traced predicates
     * answer the same each time, so asking again changes no step), UNLINK_CLEARS_NEXT (a query must stand on the
     * message being unlinked: 0 of 15 soak runs), and the wake mutants, whose decision behind a barrier is scripted below.
     */
    @ParameterizedTest
    @EnumSource(names = {"LOST_WAKEUP", "NON_ATOMIC_PUSH", "QUIT_TIME_BEFORE_TOP",
            "TEARDOWN_WITHOUT_WAIT", "SINGLE_PASS_TRAVERSAL", "BULK_REMOVAL_PER_MESSAGE", "UNRESERVED_DELIVERY",
            "DELIVER_WITHOUT_REMOVED_CAS", "QUIT_WITHOUT_WAKE"})
    void tracesOfAMutantThatChangesAProtocolStepAreRejected(Mutant mutant) throws Exception {
        TraceCheck.Verdict v = firstRejection(mutant, mutant.name(), check::check);
        assertNotNull(v, mutant + ": no trace of " + MUTANT_RUNS + " was rejected");
        System.out.println(mutant + ": " + v);
        assertTrue(v.why().contains("event"), "the verdict names no event: " + v.why());
    }

    /**
     * The wake decision behind a barrier, scripted (the soak reaches it only in some schedules): a post that the
     * barrier does not hold back (async, or front of queue at uptime 0: it sorts before the barrier) must wake the
     * Looper. The correct code's trace is accepted; each wake mutant's is rejected at the waker's decision, which
     * the spec makes otherwise from the same wait word.
     */
    @ParameterizedTest
    @EnumSource(names = {"ASYNC_HELD_BY_BARRIER", "WAKE_BY_CLOCK"})
    void aWakerThatDecidesOtherwiseThanTheSpecIsRejectedAtItsDecision(Mutant mutant) throws Exception {
        boolean async = mutant == Mutant.ASYNC_HELD_BY_BARRIER;
        Path correct = dir.resolve("scripted-" + (async ? "async" : "front") + ".ndjson");
        TracedRun.scriptedWakeBehindBarrier(DeliQueue::new, async, correct);
        TraceCheck.Verdict ok = check.check(correct);
        assertTrue(ok.accepted(), "the correct code's scripted run was rejected:\n" + ok);
        Path bad = dir.resolve("scripted-" + mutant + ".ndjson");
        TracedRun.scriptedWakeBehindBarrier(mutant, async, bad);
        TraceCheck.Verdict v = check.check(bad);
        System.out.println(mutant + ": " + v);
        assertFalse(v.accepted(), mutant + "'s scripted run was accepted");
        assertTrue(v.why().contains("signalIfEarlier_cas") && v.why().contains("woke |-> FALSE"),
                "the verdict should name the waker's decision not to wake: " + v.why());
    }

    /** The spec before ParkReturnsEarly: no interrupt ends a park, so an untimed one returns only with a permit. */
    static final TraceCheck.SpecMutant PARK_NEEDS_PERMIT = new TraceCheck.SpecMutant("PARK_NEEDS_PERMIT",
            "MParkUntilEarly == FALSE", "parkUntil_early <- MParkUntilEarly");

    /**
     * Interrupts in the traces are seen: a Looper interrupted while it sleeps with nothing queued logs a park that
     * ended without a permit. The trace is accepted; the spec whose untimed park needs its permit rejects it there.
     * The traced runs interrupt the Looper too ({@link TracedRun}), at random points.
     */
    @Test
    void anInterruptedSleepIsAcceptedAndRejectedByASpecWhoseParkNeedsItsPermit() throws Exception {
        Path t = dir.resolve("scripted-interrupt.ndjson");
        TracedRun.scriptedInterruptedSleep(DeliQueue::new, t);
        acceptedAndRejectedAt(t, PARK_NEEDS_PERMIT, "sleep_park");
    }

    /**
     * Checks that the correct spec accepts trace {@code t} and that {@code specMutant} rejects it with a verdict that
     * names {@code action}: the step the mutant's spec cannot take there.
     */
    private static void acceptedAndRejectedAt(Path t, TraceCheck.SpecMutant specMutant, String action)
            throws Exception {
        TraceCheck.Verdict ok = check.check(t);
        assertTrue(ok.accepted(), "the correct spec rejected the trace:\n" + ok);
        TraceCheck.Verdict v = check.check(t, specMutant);
        System.out.println("spec mutant " + specMutant.name() + ": " + v);
        assertFalse(v.accepted(), "spec mutant " + specMutant.name() + " accepted " + t);
        assertTrue(v.why().contains(action), "the verdict should name " + action + ": " + v.why());
    }

    /** A Looper that takes only REMOVED heads out of its heap: one a pending removal owns is live to it. */
    static final TraceCheck.SpecMutant HEAD_OWNERS_IGNORED = new TraceCheck.SpecMutant("HEAD_OWNERS_IGNORED",
            "MDead(h) == removed[h]", "Dead <- MDead");

    /**
     * The Looper takes a dead head for the pending removal that owns it (scripted: the soak's runs reach it only in
     * some schedules). The trace holds the step and is accepted; the spec whose Looper ignores a head's pending
     * owner rejects it there.
     */
    @Test
    void aHeadTakenForItsPendingRemovalIsAcceptedAndRejectedByASpecThatIgnoresTheOwner() throws Exception {
        Path t = dir.resolve("scripted-swept-head.ndjson");
        TracedRun.scriptedRemovalTakesItsSweptHead(t);
        assertTrue(Files.readString(t).contains("\"a\":\"takeDueOrNull_liveHead\",\"t\":\"Looper\",\"m\":\"m1\""),
                "the Looper did not take m1 as a dead head");
        acceptedAndRejectedAt(t, HEAD_OWNERS_IGNORED, "takeDueOrNull_liveHead");
    }

    /** A resolution that always delivers: an owner pushed after the claim is ignored. */
    static final TraceCheck.SpecMutant RESOLUTION_IGNORES_OWNERS = new TraceCheck.SpecMutant(
            "RESOLUTION_IGNORES_OWNERS", "MResolveOwners(m) == {}", "ResolveOwners <- MResolveOwners");

    /**
     * A removal meets the Looper's reservation and resolves it for itself (scripted: the soak's runs meet a
     * reservation only in some schedules). The trace holds that resolution and is accepted; the spec whose
     * resolution ignores owners pushed after the claim rejects it there.
     */
    @Test
    void aReservationResolvedForARemovalIsAcceptedAndRejectedByASpecThatAlwaysDelivers() throws Exception {
        Path t = dir.resolve("scripted-resolve.ndjson");
        TracedRun.scriptedRemovalResolvesTheLoopersClaim(t);
        assertTrue(Files.readString(t).contains(
                "\"a\":\"resolve_reserved\",\"t\":\"x1\",\"m\":\"m1\",\"won\":true,\"delivered\":false"),
                "the removal did not resolve the Looper's reservation of m1 for itself");
        acceptedAndRejectedAt(t, RESOLUTION_IGNORES_OWNERS, "resolve_reserved");
    }

    /** MC_SLEEP_RECORDS_HEAD's bug: the spec's Looper records the sync head as its blocking barrier. */
    static final TraceCheck.SpecMutant SLEEP_RECORDS_HEAD = new TraceCheck.SpecMutant("SLEEP_RECORDS_HEAD",
            "MBlockingBarrier(H) == IF SyncSide(H) # {} THEN MinOf(SyncSide(H)) ELSE Nil",
            "BlockingBarrier <- MBlockingBarrier");

    @Test
    void aSpecMutantRejectsTracesOfTheCorrectCode() throws Exception {
        TraceCheck.Verdict v = firstRejection(DeliQueue::new, "spec-mutant", t -> {
            assertTrue(check.check(t).accepted(), "rejected by the correct spec: " + t);
            return check.check(t, SLEEP_RECORDS_HEAD);
        });
        assertNotNull(v, "the spec mutant accepted " + MUTANT_RUNS + " traces");
        System.out.println("spec mutant SLEEP_RECORDS_HEAD: " + v);
        assertTrue(v.why().contains("takeDueOrNull_deliver") || v.why().contains("sleep_publish"),
                "the verdict should name the Looper's decision to sleep: " + v.why());
    }

    @Test
    void aTraceWithAnEventNoStepCanMatchIsRejectedAndTheEventNamed() throws Exception {
        Path t = trace(DeliQueue::new, "tampered", 1);
        List<String> lines = new ArrayList<>(java.nio.file.Files.readAllLines(t));
        int i = 0;
        while (!lines.get(i).contains("\"a\":\"push_casTop\"") || !lines.get(i).contains("\"ok\":true")) {
            i++;
        }
        lines.set(i, lines.get(i).replace("\"ok\":true", "\"ok\":false")); // a CAS that won, logged as lost
        Path tampered = t.resolveSibling("tampered-cas.ndjson");
        java.nio.file.Files.write(tampered, lines);
        TraceCheck.Verdict v = check.check(tampered);
        assertFalse(v.accepted(), "a tampered trace was accepted");
        assertTrue(v.why().contains("push_casTop") || v.why().contains("push_readTop"), v.why());
        assertEquals(TraceModule.read(tampered).events(), v.events());
    }
}
