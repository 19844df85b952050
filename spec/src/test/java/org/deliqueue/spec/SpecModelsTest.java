package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The spec's checks: SANY parses every module, the CI model passes with the manifest's state count, and every
 * mutant model makes TLC report its obligation violated (models.manifest).
 */
class SpecModelsTest {

    private static final Tlc TLC = Tlc.fromSystemProperties();

    static Stream<String> modules() throws IOException {
        try (Stream<java.nio.file.Path> s = Files.list(TLC.specDir())) {
            List<String> mods = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tla"))
                    .map(n -> n.substring(0, n.length() - 4)).sorted().toList();
            assertFalse(mods.isEmpty(), "no .tla modules in " + TLC.specDir());
            return mods.stream();
        }
    }

    static Stream<Tlc.Expectation> models() throws IOException {
        List<Tlc.Expectation> m = TLC.manifest();
        assertFalse(m.isEmpty(), "models.manifest is empty");
        return m.stream();
    }

    @ParameterizedTest(name = "SANY {0}")
    @MethodSource("modules")
    void sanyParses(String module) throws Exception {
        Tlc.Result r = TLC.sany(module, 120);
        assertEquals(0, r.exit(), "SANY failed on " + module + "\n" + r.output());
        assertFalse(r.output().contains("*** Errors"), r.output());
    }

    @ParameterizedTest(name = "TLC {0}")
    @MethodSource("models")
    void modelMatchesManifest(Tlc.Expectation e) throws Exception {
        Tlc.Result r = TLC.tlc(e.model(), e.model(), 2, 600);
        System.out.println(r.summary());
        assertNull(TLC.check(e, r));
    }

    @Test
    void everyModelFileIsInTheManifest() throws IOException {
        List<String> listed = TLC.manifest().stream().map(Tlc.Expectation::model).toList();
        try (Stream<java.nio.file.Path> s = Files.list(TLC.specDir())) {
            List<String> missing = s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("MC_") && n.endsWith(".cfg"))
                    .map(n -> n.substring(0, n.length() - 4)).filter(n -> !listed.contains(n)).toList();
            assertEquals(List.of(), missing, "mutant models missing from models.manifest");
        }
    }
}
