package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The negative control of {@code ciModelsTakeEveryAction}: the coverage check names an action that no model took,
 * counts an action taken by any one model as taken, and refuses an empty report (coverage that failed to parse).
 */
class TlcCoverageTest {

    @Test
    void anActionNoModelTookIsNamed() {
        List<Map<String, Long>> coverage = List.of(Map.of("push_casTop", 12L, "sleep_park", 0L),
                Map.of("push_casTop", 3L, "sleep_park", 0L, "tick", 7L));
        assertEquals(List.of("sleep_park"), Tlc.reportCoverage(coverage, quiet()));
    }

    @Test
    void anActionTakenByOneModelIsCovered() {
        List<Map<String, Long>> coverage = List.of(Map.of("sleep_park", 0L), Map.of("sleep_park", 4L));
        assertEquals(List.of(), Tlc.reportCoverage(coverage, quiet()));
    }

    @Test
    void noCoverageAtAllFails() {
        assertEquals(List.of("(no coverage reported)"), Tlc.reportCoverage(List.of(Map.of()), quiet()));
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
