package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The conformance suite's negative controls: every mutant that {@link Mutant#detection} assigns to the conformance
 * suite is run through the whole suite (all its classes, in this JVM, through the JUnit Platform launcher) and must
 * make at least one test fail. If the suite stops catching one, this test fails.
 */
// negative control: NON_ATOMIC_PUSH, OVERFLOWING_COMPARATOR, SWEEP_SKIPS_BACKLINKS, WAKE_BY_CLOCK, QUIT_TIME_BEFORE_TOP, REMOVAL_KEEPS_PAYLOAD, PARK_KEEPS_INTERRUPT, ASYNC_HELD_BY_BARRIER, BARRIER_REMOVAL_WITHOUT_WAKE, QUIT_WITHOUT_WAKE, REMOVAL_ABORTS_ON_THROW, LOOPER_ASKS_PREDICATE
class MutantDetectionTest {
    private static final List<Class<?>> SUITE = List.of(MessageQueueConformanceTest.class, HandlerLooperTest.class,
            ConformanceStressTest.class, ClockAndFaultsTest.class, ThrowingUserCodeTest.class, HandlerThreadTest.class,
            LooperHooksTest.class, AndroidApiTest.class, UserCodeTest.class);

    /** The mutants this suite must catch; the others are ScriptedInterleavingTest's or a model checker's. */
    static Stream<Mutant> conformanceMutants() {
        return Arrays.stream(Mutant.values()).filter(m -> m.detection == Mutant.Detection.CONFORMANCE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("conformanceMutants")
    void conformanceSuiteCatchesTheMutantsAssignedToIt(Mutant mutant) {
        TestExecutionSummary summary = runSuiteAgainst("Mutant#" + mutant.name());
        assertTrue(summary.getTestsFoundCount() > 0, "the suite found no test to run");
        assertTrue(summary.getTotalFailureCount() > 0,
                mutant + " passed the whole conformance suite (" + summary.getTestsSucceededCount()
                        + " tests); it was expected to be caught: " + mutant.reason);
        System.out.printf("%s caught by %d of %d conformance tests: %s%n", mutant,
                summary.getTotalFailureCount(), summary.getTestsFoundCount(), summary.getFailures().stream()
                        .map(f -> testName(f.getTestIdentifier())).distinct().limit(5)
                        .collect(Collectors.joining(", ")));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(QueueKind.class)
    void theRealQueuesPassTheSuiteRunTheSameWay(QueueKind kind) {
        TestExecutionSummary summary = runSuiteAgainst(kind.name());
        assertEquals(0, summary.getTotalFailureCount(), () -> kind + " failed: " + failureReport(summary));
        assertTrue(summary.getTestsSucceededCount() > 0);
    }

    /** Each failing test of {@code summary}, by class, method and display name, with what it threw. */
    static String failureReport(TestExecutionSummary summary) {
        return summary.getFailures().stream()
                .map(f -> testName(f.getTestIdentifier()) + ": " + f.getException())
                .collect(Collectors.joining("; "));
    }

    /** {@code Class#method [display name]} (the display name tells the invocations of a parameterised test apart). */
    private static String testName(TestIdentifier test) {
        String method = test.getSource()
                .filter(org.junit.platform.engine.support.descriptor.MethodSource.class::isInstance)
                .map(org.junit.platform.engine.support.descriptor.MethodSource.class::cast)
                .map(s -> s.getClassName().substring(s.getClassName().lastIndexOf('.') + 1) + "#" + s.getMethodName())
                .orElse(test.getLegacyReportingName());
        return method + " [" + test.getDisplayName() + "]";
    }

    /**
     * The report names each failing test and what it threw, so that a real queue failing under load can be told
     * apart (issue 12: it used to print {@code DefaultFailure@hash}).
     */
    @Test
    void theFailureReportNamesEachFailingTestAndWhatItThrew() {
        System.setProperty(AlwaysFails.PROPERTY, "true");
        TestExecutionSummary summary;
        try {
            summary = run(List.of(AlwaysFails.class));
        } finally {
            System.clearProperty(AlwaysFails.PROPERTY);
        }
        assertEquals(2, summary.getTotalFailureCount(), "AlwaysFails has two failing tests");
        String report = failureReport(summary);
        for (String expected : new String[] {"AlwaysFails#firstFailure", "AlwaysFails#secondFailure",
                "first reason", "second reason"}) {
            assertTrue(report.contains(expected), () -> "the report lacks '" + expected + "': " + report);
        }
    }

    /** Two failing tests for the report to name; run only through {@link #run}, which sets {@link #PROPERTY}. */
    static class AlwaysFails {
        static final String PROPERTY = "deliqueue.alwaysFails";

        @BeforeEach
        void onlyWhenRunOnPurpose() {
            assumeTrue(Boolean.getBoolean(PROPERTY), "a fixture of MutantDetectionTest, not a test of its own");
        }

        @Test
        void firstFailure() {
            fail("first reason");
        }

        @Test
        void secondFailure() {
            throw new IllegalStateException("second reason");
        }
    }

    private static TestExecutionSummary runSuiteAgainst(String queues) {
        String previous = System.getProperty(QueueFactories.PROPERTY);
        System.setProperty(QueueFactories.PROPERTY, queues);
        try {
            return run(SUITE);
        } finally {
            if (previous == null) {
                System.clearProperty(QueueFactories.PROPERTY);
            } else {
                System.setProperty(QueueFactories.PROPERTY, previous);
            }
        }
    }

    /** Runs {@code classes} through the JUnit Platform launcher, in this JVM. */
    private static TestExecutionSummary run(List<Class<?>> classes) {
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        classes.forEach(c -> request.selectors(selectClass(c)));
        LauncherDiscoveryRequest discovery = request.build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(discovery, listener);
        return listener.getSummary();
    }
}
