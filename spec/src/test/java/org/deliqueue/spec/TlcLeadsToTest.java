package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The negative controls of the form in which DeliQueueProperties.tla checks its liveness obligations
 * (QuitTerminates, PushLockFree, EventualDelivery): P ~> Q as []<>(~P \/ Q) with the step property
 * HoldsUntil(P, Q). On this TLC the pair passes where Q comes, fails as a temporal property where it never does, and
 * fails as a step property where P does not hold until Q, so a P for which the equivalence does not hold can only
 * fail the check (LeadsToFixture.tla).
 */
class TlcLeadsToTest {

    private static Tlc.Result check(String property, Path dir) throws Exception {
        Files.copy(Path.of("src/test/resources/leadsto/LeadsToFixture.tla"), dir.resolve("LeadsToFixture.tla"));
        Files.writeString(dir.resolve(property + ".cfg"), String.join("\n",
                "\\* TlcLeadsToTest: LeadsToFixture checked against " + property + ".",
                "SPECIFICATION Spec                     \\* x climbs to 3 under weak fairness",
                "PROPERTY " + property + "               \\* the property under test",
                "CHECK_DEADLOCK FALSE                   \\* x = 3 ends the behaviour", ""));
        return new Tlc(Path.of(System.getProperty("tlc.jar")), dir).tlc("LeadsToFixture", property, 1, 120);
    }

    @Test
    void holdsWhereQComes(@TempDir Path dir) throws Exception {
        Tlc.Result r = check("Reached", dir);
        assertEquals(0, r.exit(), r.output());
    }

    @Test
    void failsAsATemporalPropertyWhereQNeverComes(@TempDir Path dir) throws Exception {
        Tlc.Result r = check("NeverReached", dir);
        assertEquals(13, r.exit(), r.output());
        assertTrue(r.output().contains("Temporal properties were violated"), r.output());
    }

    @Test
    void failsAsAStepPropertyWherePDoesNotHoldUntilQ(@TempDir Path dir) throws Exception {
        Tlc.Result r = check("NotStable", dir);
        assertEquals(13, r.exit(), r.output());
        assertTrue(r.violatedText() != null && r.violatedText().contains("of module LeadsToFixture"), r.output());
    }
}
