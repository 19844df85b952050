package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The conformance suite's negative controls: every mutant that {@link Mutant#detection} assigns to the conformance
 * suite is run through the whole suite (all its classes, in this JVM, through the JUnit Platform launcher) and must
 * make at least one test fail. If the suite stops catching one, this test fails.
 */
// negative control: NON_ATOMIC_PUSH, OVERFLOWING_COMPARATOR, SWEEP_SKIPS_BACKLINKS, WAKE_BY_CLOCK, QUIT_TIME_BEFORE_TOP, REMOVAL_KEEPS_PAYLOAD, PARK_KEEPS_INTERRUPT
class MutantDetectionTest {
    private static final List<Class<?>> SUITE =
            List.of(MessageQueueConformanceTest.class, HandlerLooperTest.class, ConformanceStressTest.class,
                    ClockAndFaultsTest.class);

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
                        .map(f -> f.getTestIdentifier().getLegacyReportingName()).distinct().limit(5)
                        .collect(Collectors.joining(", ")));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(QueueKind.class)
    void theRealQueuesPassTheSuiteRunTheSameWay(QueueKind kind) {
        TestExecutionSummary summary = runSuiteAgainst(kind.name());
        assertEquals(0, summary.getTotalFailureCount(), () -> kind + " failed: " + summary.getFailures());
        assertTrue(summary.getTestsSucceededCount() > 0);
    }

    private static TestExecutionSummary runSuiteAgainst(String queues) {
        String previous = System.getProperty(QueueFactories.PROPERTY);
        System.setProperty(QueueFactories.PROPERTY, queues);
        try {
            LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
            SUITE.forEach(c -> request.selectors(selectClass(c)));
            LauncherDiscoveryRequest discovery = request.build();
            Launcher launcher = LauncherFactory.create();
            SummaryGeneratingListener listener = new SummaryGeneratingListener();
            launcher.execute(discovery, listener);
            return listener.getSummary();
        } finally {
            if (previous == null) {
                System.clearProperty(QueueFactories.PROPERTY);
            } else {
                System.setProperty(QueueFactories.PROPERTY, previous);
            }
        }
    }
}
