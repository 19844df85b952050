package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
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
import org.junit.platform.engine.discovery.MethodSelector;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The conformance suite's negative controls: every mutant that {@link Mutant#detection} assigns to the conformance
 * suite must make at least one of its tests fail (run in this JVM, through the JUnit Platform launcher). If the
 * suite stops catching one, this test fails. A class of the suite that names the mutant in its header's
 * {@code // negative control:} line claims to catch it alone: that class runs alone, and must catch it (the claim
 * is checked, and a run of one class takes a second where the whole suite takes about twenty); a mutant no class
 * claims runs through the whole suite.
 */
// negative control: NON_ATOMIC_PUSH, OVERFLOWING_COMPARATOR, SWEEP_SKIPS_BACKLINKS, WAKE_BY_CLOCK, QUIT_TIME_BEFORE_TOP, REMOVAL_KEEPS_PAYLOAD, PARK_KEEPS_INTERRUPT, ASYNC_HELD_BY_BARRIER, BARRIER_REMOVAL_WITHOUT_WAKE, QUIT_WITHOUT_WAKE, REMOVAL_ABORTS_ON_THROW, LOOPER_ASKS_PREDICATE, QUIT_OWNS_NOTHING, DESCRIPTOR_FORGETS_QUIT, SKIP_OVER_QUIT_SENTINEL, COLLECT_STOPS_AT_NEWEST
class MutantDetectionTest {
    private static final List<Class<?>> SUITE = List.of(MessageQueueConformanceTest.class, HandlerLooperTest.class,
            ConformanceStressTest.class, ClockAndFaultsTest.class, ThrowingUserCodeTest.class, HandlerThreadTest.class,
            LooperHooksTest.class, AndroidApiTest.class, UserCodeTest.class, RemovalAfterQuitTest.class);

    /** The mutants this suite must catch; the others are ScriptedInterleavingTest's or a model checker's. */
    static Stream<Mutant> conformanceMutants() {
        return Arrays.stream(Mutant.values()).filter(m -> m.detection == Mutant.Detection.CONFORMANCE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("conformanceMutants")
    void conformanceSuiteCatchesTheMutantsAssignedToIt(Mutant mutant) throws IOException {
        List<Class<?>> claimants = claimants(mutant);
        List<Class<?>> classes = claimants.isEmpty() ? SUITE : claimants;
        String previous = System.getProperty(QueueFactories.PROPERTY);
        System.setProperty(QueueFactories.PROPERTY, "Mutant#" + mutant.name());
        try {
            int ran = 0;
            for (MethodSelector method : testMethods(classes)) {
                TestExecutionSummary summary = run(LauncherDiscoveryRequestBuilder.request().selectors(method).build());
                ran += (int) summary.getTestsFoundCount();
                if (summary.getTotalFailureCount() > 0) {
                    System.out.printf("%s caught by %s, after %d tests%n", mutant, summary.getFailures().stream()
                            .map(f -> testName(f.getTestIdentifier())).findFirst().orElseThrow(), ran);
                    return;
                }
            }
            assertTrue(ran > 0, "the suite found no test to run");
            fail(mutant + " passed " + (claimants.isEmpty() ? "the whole conformance suite" : claimants
                    + ", which name it as their negative control") + " (" + ran + " tests); it was expected to be "
                    + "caught: " + mutant.reason);
        } finally {
            restore(previous);
        }
    }

    /**
     * The test methods of {@code classes}, in the order the launcher would run them: a mutant's run stops at the
     * first that fails (a mutant that stops the Looper's wake makes every later test wait out its timeout).
     */
    private static List<MethodSelector> testMethods(List<Class<?>> classes) {
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        classes.forEach(c -> request.selectors(selectClass(c)));
        TestPlan plan = LauncherFactory.create().discover(request.build());
        List<MethodSelector> methods = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            for (TestIdentifier c : plan.getChildren(root)) {
                for (TestIdentifier m : plan.getChildren(c)) {
                    m.getSource().filter(org.junit.platform.engine.support.descriptor.MethodSource.class::isInstance)
                            .map(org.junit.platform.engine.support.descriptor.MethodSource.class::cast)
                            .ifPresent(s -> methods.add(selectMethod(s.getClassName(), s.getMethodName(),
                                    s.getMethodParameterTypes())));
                }
            }
        }
        return methods;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(QueueKind.class)
    void theRealQueuesPassTheSuiteRunTheSameWay(QueueKind kind) {
        TestExecutionSummary summary = runAgainst(kind.name(), SUITE);
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
     * apart (it used to print {@code DefaultFailure@hash}).
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

    /** The classes of the suite whose header's {@code // negative control:} line names {@code mutant}. */
    static List<Class<?>> claimants(Mutant mutant) throws IOException {
        List<Class<?>> claimants = new ArrayList<>();
        for (Class<?> c : SUITE) {
            Path source = Paths.get("src/test/java", c.getName().replace('.', '/') + ".java");
            for (String line : Files.readAllLines(source)) {
                if (line.startsWith(NEGATIVE_CONTROL)
                        && Arrays.asList(line.substring(NEGATIVE_CONTROL.length()).split(",\\s*")).contains(mutant.name())) {
                    claimants.add(c);
                }
            }
        }
        return claimants;
    }

    private static final String NEGATIVE_CONTROL = "// negative control: ";

    private static TestExecutionSummary runAgainst(String queues, List<Class<?>> classes) {
        String previous = System.getProperty(QueueFactories.PROPERTY);
        System.setProperty(QueueFactories.PROPERTY, queues);
        try {
            return run(classes);
        } finally {
            restore(previous);
        }
    }

    private static void restore(String previousQueues) {
        if (previousQueues == null) {
            System.clearProperty(QueueFactories.PROPERTY);
        } else {
            System.setProperty(QueueFactories.PROPERTY, previousQueues);
        }
    }

    /** Runs {@code classes} through the JUnit Platform launcher, in this JVM. */
    private static TestExecutionSummary run(List<Class<?>> classes) {
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        classes.forEach(c -> request.selectors(selectClass(c)));
        return run(request.build());
    }

    private static TestExecutionSummary run(LauncherDiscoveryRequest discovery) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(discovery, listener);
        return listener.getSummary();
    }
}
