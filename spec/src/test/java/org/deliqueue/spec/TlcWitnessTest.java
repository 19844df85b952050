package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The negative controls of {@code SpecModelsTest.everyWitnessIsReached}: on this TLC, Witness.tla
 * reports what a model declares and reaches, with one worker and with two (each keeps its own register); a witness
 * that no model reaches, or reaches only while not checking its obligation, fails the check; so does an obligation
 * a model checks without a witness.
 */
class TlcWitnessTest {

    private static final Witnesses.Witness AT_TWO = new Witnesses.Witness("Bounded", "atTwo");
    private static final Witnesses.Witness AT_TEN = new Witnesses.Witness("Bounded", "atTen");
    private static final Witnesses.Witness AT_THREE = new Witnesses.Witness("Climbs", "atThree");

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void anUnreachableWitnessFailsTheCheck(int workers, @TempDir Path dir) throws Exception {
        Tlc tlc = Tlc.fromSystemProperties();
        Files.copy(tlc.specDir().resolve("Witness.tla"), dir.resolve("Witness.tla"));
        for (String f : List.of("WitnessFixture.tla", "WitnessFixture.cfg")) {
            Files.copy(Path.of("src/test/resources/witness").resolve(f), dir.resolve(f));
        }
        Tlc.Result r = new Tlc(Path.of(System.getProperty("tlc.jar")), dir)
                .tlc("WitnessFixture", "WitnessFixture", workers, 120);
        assertEquals(0, r.exit(), r.output());
        Witnesses.Run run = Witnesses.of("WitnessFixture", r.output(), dir);
        assertEquals(Set.of("Bounded", "Climbs"), run.checks());
        assertEquals(Set.of(AT_TWO, AT_TEN, AT_THREE), run.declared());
        assertEquals(Set.of(AT_TWO, AT_THREE), run.reached());
        assertEquals(List.of("witness Bounded/atTen is reached by no CI model that checks Bounded"),
                Witnesses.problems(List.of(run)));
    }

    @Test
    void aWitnessReachedWhereItsObligationIsNotCheckedDoesNotCount() {
        Witnesses.Run checks = new Witnesses.Run("A", Set.of("Bounded"), Set.of(AT_TWO), Set.of());
        Witnesses.Run reaches = new Witnesses.Run("B", Set.of("Climbs"), Set.of(AT_TWO, AT_THREE),
                Set.of(AT_TWO, AT_THREE));
        assertEquals(List.of("witness Bounded/atTwo is reached by no CI model that checks Bounded"),
                Witnesses.problems(List.of(checks, reaches)));
    }

    @Test
    void anObligationWithoutWitnessFails() {
        Witnesses.Run run = new Witnesses.Run("A", Set.of("Bounded", "Climbs"), Set.of(AT_TWO), Set.of(AT_TWO));
        assertEquals(List.of("A checks Climbs but declares no witness of it"), Witnesses.problems(List.of(run)));
    }

    @Test
    void everyWitnessReachedWhereChecked() throws IOException {
        Witnesses.Run a = new Witnesses.Run("A", Set.of("Bounded"), Set.of(AT_TWO, AT_TEN), Set.of(AT_TWO));
        Witnesses.Run b = new Witnesses.Run("B", Set.of("Bounded"), Set.of(AT_TWO, AT_TEN), Set.of(AT_TEN));
        assertEquals(List.of(), Witnesses.problems(List.of(a, b)));
        assertEquals(List.of("A"), Witnesses.reach(List.of(a, b)).get(AT_TWO));
    }
}
