package org.deliqueue.jpf;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every JPF harness as an ordinary Java program, many times, on the real DeliQueue: the same scenario and the
 * same assertions, under whatever schedules the JVM and a random start-up jitter produce. This keeps the harnesses
 * compiling and passing where JPF is absent ({@code make test}); it is no model check (JPF's runs are, under
 * {@code make jpf}). Mutants are not run here: a lost wakeup would only show as a timeout.
 *
 * <p>Each harness runs for {@link #SECONDS_PER_HARNESS} seconds (at least {@link #MIN_RUNS} runs), each run on a
 * fresh thread (the harness prepares a Looper on it) with a time limit: a run that does not finish fails.
 */
class HarnessesOnPlainJvmTest {
    static final long SECONDS_PER_HARNESS = 2;
    static final int MIN_RUNS = 20;
    static final long RUN_LIMIT_MS = 15_000;
    static final int MUTANT_RUNS = 400;
    static final long MUTANT_RUN_LIMIT_MS = 2_000;

    interface Main {
        void run(String[] args) throws Exception;
    }

    static Stream<Arguments> harnesses() {
        return Stream.of(
                Arguments.of("ProducersLooper", (Main) ProducersLooper::main, new String[] {"DELI", "3"}),
                Arguments.of("RemoverVsDelivery", (Main) RemoverVsDelivery::main, new String[] {"DELI", "3"}),
                Arguments.of("TraversalRacingUnlink", (Main) TraversalRacingUnlink::main, new String[] {"DELI", "3"}),
                Arguments.of("QuitVsWaker", (Main) QuitVsWaker::main, new String[] {"DELI"}),
                Arguments.of("QuitVsWaker with a producer", (Main) QuitVsWaker::main,
                        new String[] {"DELI", "producer"}),
                Arguments.of("QuitVsWaker with an interrupt", (Main) QuitVsWaker::main,
                        new String[] {"DELI", "interrupt"}),
                Arguments.of("SleepRacingPush", (Main) SleepRacingPush::main, new String[] {"DELI", "3"}),
                Arguments.of("BulkRemovalVsDelivery atomic", (Main) BulkRemovalVsDelivery::main,
                        new String[] {"DELI", "atomic"}),
                Arguments.of("BulkRemovalVsDelivery throw", (Main) BulkRemovalVsDelivery::main,
                        new String[] {"DELI", "throw"}),
                Arguments.of("UserCodeRemoval flip", (Main) UserCodeRemoval::main, new String[] {"DELI", "flip"}),
                Arguments.of("UserCodeRemoval block", (Main) UserCodeRemoval::main, new String[] {"DELI", "block"}),
                Arguments.of("SleepBehindBarrier async", (Main) SleepBehindBarrier::main, new String[] {"DELI", "async"}),
                Arguments.of("SleepBehindBarrier front", (Main) SleepBehindBarrier::main, new String[] {"DELI", "front"}),
                Arguments.of("SleepBehindBarrier remove", (Main) SleepBehindBarrier::main,
                        new String[] {"DELI", "remove"}),
                Arguments.of("SecondRemover message", (Main) SecondRemover::main, new String[] {"DELI", "message"}),
                Arguments.of("SecondRemover barrier", (Main) SecondRemover::main, new String[] {"DELI", "barrier"}),
                Arguments.of("RemovalVsQuit quit", (Main) RemovalVsQuit::main, new String[] {"DELI", "quit"}),
                Arguments.of("RemovalVsQuit safely", (Main) RemovalVsQuit::main, new String[] {"DELI", "safely"}),
                Arguments.of("InterruptedLooper", (Main) InterruptedLooper::main, new String[] {"DELI"}),
                Arguments.of("QuitSafelyVsTick", (Main) QuitSafelyVsTick::main, new String[] {"DELI", "10"}),
                Arguments.of("QuitSafelyVsTick at uptime 0", (Main) QuitSafelyVsTick::main, new String[] {"DELI", "0"}),
                Arguments.of("QuitSafelyBesideRemoval", (Main) QuitSafelyBesideRemoval::main, new String[] {"DELI"}),
                Arguments.of("BarrierTokens", (Main) BarrierTokens::main, new String[] {"DELI"}));
    }

    @BeforeAll
    static void plainJvm() {
        Harness.plainJvm = true;
    }

    @AfterAll
    static void back() {
        Harness.plainJvm = false;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harnesses")
    void passesOnDeliQueue(String name, Main main, String[] args) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS_PER_HARNESS);
        int runs = 0;
        while (runs < MIN_RUNS || System.nanoTime() < until) {
            runOnce(name, main, args, runs);
            runs++;
        }
        assertTrue(runs >= MIN_RUNS);
    }

    /**
     * Negative controls on the plain JVM, for the harnesses whose bad schedule a real run hits often enough: the
     * wake mutants (a run in which the Looper sleeps behind the barrier, or before the quit, before the other
     * thread acts never ends)
     * the removal that keeps the payload of what it took before its user code threw, and the Looper that runs a
     * removal's user code (BULK_REMOVAL_PER_MESSAGE's window is too narrow for
     * chance: 0 of 40 runs; JPF and Lincheck catch it). JPF explores the bad schedule every time; here it comes by chance, so up to
     * {@link #MUTANT_RUNS} runs, each bounded by {@link #MUTANT_RUN_LIMIT_MS} (a healthy run takes milliseconds).
     * Caught: a run that fails on the named obligation, or a run that never ends when that obligation is
     * NoLostWakeup or QuitTerminates (a quit that never wakes the Looper asleep before it), or whose key blocks.
     * The removals after quitSafely of (l): two descriptors that do not both read as quitting let the post in on
     * every run; a removal that ignores what the quit dropped takes it in the runs where it walks before the Looper
     * sweeps the sentinel (about one in three).
     */
    @ParameterizedTest(name = "{0} {2} catches {1}")
    @CsvSource({
        "SleepBehindBarrier, ASYNC_HELD_BY_BARRIER, async, NoLostWakeup",
        "SleepBehindBarrier, WAKE_BY_CLOCK, front, NoLostWakeup",
        "SleepBehindBarrier, BARRIER_REMOVAL_WITHOUT_WAKE, remove, NoLostWakeup",
        "BulkRemovalVsDelivery, REMOVAL_KEEPS_PAYLOAD, throw, PayloadReleased",
        "UserCodeRemoval, LOOPER_ASKS_PREDICATE, flip, UserCodeOnCaller|ExactlyOnce|NoLostMessage",
        "UserCodeRemoval, LOOPER_ASKS_PREDICATE, block, UserCodeOnCaller",
        "QuitVsWaker, QUIT_WITHOUT_WAKE, quit, QuitTerminates",
        "InterruptedLooper, PARK_KEEPS_INTERRUPT, interrupt, InterruptsIgnored",
        "RemovalVsQuit, DESCRIPTOR_FORGETS_QUIT, safely, NoPushAfterQuit",
        "RemovalVsQuit, QUIT_OWNS_NOTHING, safely, Refinement"})
    void catchesItsMutant(String harness, String mutant, String mode, String obligations)
            throws InterruptedException {
        Main main = switch (harness) {
            case "SleepBehindBarrier" -> SleepBehindBarrier::main;
            case "BulkRemovalVsDelivery" -> BulkRemovalVsDelivery::main;
            case "QuitVsWaker" -> QuitVsWaker::main;
            case "InterruptedLooper" -> InterruptedLooper::main;
            case "UserCodeRemoval" -> UserCodeRemoval::main;
            case "RemovalVsQuit" -> RemovalVsQuit::main;
            default -> throw new IllegalArgumentException(harness);
        };
        // A hang is the violation for a wake never given, and for a Looper that runs a blocking key (it waits on
        // itself).
        boolean hangIsTheViolation = obligations.equals("NoLostWakeup") || obligations.equals("QuitTerminates")
                || mode.equals("block");
        for (int run = 0; run < MUTANT_RUNS; run++) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    main.run(new String[] {mutant, mode});
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, harness + "-" + mutant + "-" + run);
            t.setDaemon(true); // a caught wake mutant leaves its Looper parked for ever
            t.start();
            t.join(MUTANT_RUN_LIMIT_MS);
            if (t.isAlive() && hangIsTheViolation) {
                return; // caught: the Looper was never woken
            }
            Throwable f = failure.get();
            if (f != null && String.valueOf(f.getMessage()).matches("(?s).*(" + obligations + ") violated.*")) {
                return;
            }
            if (t.isAlive() || f != null) {
                throw new AssertionError(mutant + " failed otherwise than on " + obligations, f);
            }
        }
        fail(mutant + " (" + harness + " " + mode + ") was not caught in " + MUTANT_RUNS + " runs");
    }

    private static void runOnce(String name, Main main, String[] args, int run) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                main.run(args.clone());
            } catch (Throwable e) {
                failure.set(e);
            }
        }, name + "-run-" + run);
        t.setDaemon(true);
        t.start();
        t.join(RUN_LIMIT_MS);
        if (t.isAlive()) {
            fail(name + " run " + run + " did not finish within " + RUN_LIMIT_MS + " ms (a lost wakeup or a hang)");
        }
        if (failure.get() != null) {
            throw new AssertionError(name + " run " + run + " failed: " + failure.get(), failure.get());
        }
    }
}
