package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The spec's checks, as {@code make test} runs them: SANY parses every module; every model of
 * {@code manifest.json} (the CI models and the mutants, not the long ones) gives the manifest's verdict: a CI model
 * passes with its distinct states and depth, a mutant makes TLC report its obligation violated, by name; and the CI
 * models together take every action of DeliQueue.tla (TLC's per-action coverage, summed); and every witness of
 * every obligation is reached by a CI model that checks that obligation.
 *
 * <p>Every TLC run is written to {@code spec/target/tlc-junit.xml} ({@link TlcJUnit}). The models are checked
 * side by side, one TLC run per core with one worker each, longest first ({@link Tlc#runAll}); each test waits for
 * its model's run. With one worker a passing model's depth is checked exactly ({@link Tlc#check(Tlc.Expectation,
 * Tlc.Result, int)}); {@code -Dtlc.workers=N} runs one model per N cores with N workers each.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SpecModelsTest {

    private static final Tlc TLC = Tlc.fromSystemProperties();
    private static final int WORKERS = Integer.getInteger("tlc.workers", 1);
    /** Coverage of each passing CI model run so far. */
    private static final List<Map<String, Long>> COVERAGE = Collections.synchronizedList(new ArrayList<>());
    private static final List<String> CI_MODELS_RUN = Collections.synchronizedList(new ArrayList<>());
    /** The witnesses each passing CI model declared and reached. */
    private static final List<Witnesses.Run> WITNESSES = Collections.synchronizedList(new ArrayList<>());
    private static Tlc.Result sanyAll;
    /** Every TLC run of this class, written as JUnit XML at the end. */
    private static final List<TlcJUnit.Run> RUNS = Collections.synchronizedList(new ArrayList<>());

    static Stream<String> modules() throws IOException {
        // MCTrace extends TraceLog, generated per trace: trace/'s TraceValidationTest parses and checks it.
        List<String> mods = Manifest.modules(TLC.specDir()).stream().filter(n -> !n.equals("MCTrace")).toList();
        assertFalse(mods.isEmpty(), "no .tla modules in " + TLC.specDir());
        return mods.stream();
    }

    /** Every TLC run of {@link #models()}, started by the first test that needs one. */
    private static Map<Tlc.Expectation, Future<Tlc.Result>> runs;

    static Stream<Tlc.Expectation> models() throws IOException {
        List<Tlc.Expectation> m = TLC.manifest().stream().filter(e -> !e.expect().equals("long")).toList();
        assertFalse(m.isEmpty(), "manifest.json lists no model");
        return m.stream();
    }

    private static synchronized Future<Tlc.Result> runOf(Tlc.Expectation e) throws IOException {
        if (runs == null) {
            runs = TLC.runAll(models().toList(), WORKERS, Tlc.parallel(WORKERS), Tlc.timeoutSeconds());
        }
        return runs.get(e);
    }

    /** SANY once over every module (one JVM); a module is named alone only when that run fails. */
    @ParameterizedTest(name = "SANY {0}")
    @MethodSource("modules")
    @Order(1)
    void sanyParses(String module) throws Exception {
        synchronized (SpecModelsTest.class) {
            if (sanyAll == null) {
                sanyAll = TLC.sany(modules().toList(), 300);
            }
        }
        if (sanyAll.exit() == 0 && !sanyAll.output().contains("*** Errors")) {
            return;
        }
        Tlc.Result r = TLC.sany(module, 120);
        assertEquals(0, r.exit(), "SANY failed on " + module + "\n" + r.output());
        assertFalse(r.output().contains("*** Errors"), r.output());
    }

    @ParameterizedTest(name = "TLC {0}")
    @MethodSource("models")
    @Order(2)
    void modelMatchesManifest(Tlc.Expectation e) throws Exception {
        Tlc.Result r = runOf(e).get();
        String why = TLC.check(e, r, WORKERS);
        RUNS.add(new TlcJUnit.Run(r, e, why));
        System.out.println(r.summary() + (e.mutant() ? "  " + TLC.violated(r) : "") + (why == null ? "  OK" : ""));
        if (!e.mutant()) {
            COVERAGE.add(r.coverage());
            CI_MODELS_RUN.add(e.model());
            WITNESSES.add(Witnesses.of(e.model(), r.output(), TLC.specDir()));
        }
        assertNull(why);
    }

    /** TLC's runs as JUnit XML, one test case per model run, beside jcstress's and JPF's reports. */
    @AfterAll
    static void writeJUnitXml() throws IOException {
        TlcJUnit.write(TLC.specDir().resolve("target/tlc-junit.xml"), "tlc", List.copyOf(RUNS), TLC.specDir());
    }

    /** The CI models together take every action of DeliQueue.tla: no action is specified but never checked. */
    @Test
    @Order(3)
    void ciModelsTakeEveryAction() throws IOException {
        long ci = TLC.manifest().stream().filter(e -> e.expect().equals("pass")).count();
        assertEquals(ci, CI_MODELS_RUN.size(), "coverage needs every CI model run first; ran " + CI_MODELS_RUN);
        List<String> never = Tlc.reportCoverage(COVERAGE, System.out);
        assertEquals(List.of(), never, "actions of DeliQueue never taken by the CI models");
    }

    /**
     * No obligation passes vacuously: each of its witnesses is reached by a CI model that checks it, and
     * every obligation a CI model checks has a witness ({@link Witnesses}; negative controls in TlcWitnessTest).
     */
    @Test
    @Order(3)
    void everyWitnessIsReached() throws IOException {
        long ci = TLC.manifest().stream().filter(e -> e.expect().equals("pass")).count();
        assertEquals(ci, WITNESSES.size(), "the witnesses need every CI model run first");
        assertEquals(List.of(), Witnesses.report(List.copyOf(WITNESSES), System.out),
                "obligations that pass vacuously in the CI models");
    }

    /** docs/kill-table.md's spec section is the one generated from the manifest and this run's witnesses. */
    @Test
    @Order(4)
    void killTableIsCurrent() throws IOException {
        assertEquals(TLC.manifest().stream().filter(e -> e.expect().equals("pass")).count(), WITNESSES.size(),
                "the kill table needs every CI model run first");
        String generated = KillTable.section(TLC.specDir(), TLC.manifest(), Witnesses.reach(List.copyOf(WITNESSES)));
        Path out = TLC.specDir().resolve("target/kill-table-spec.md");
        Files.writeString(out, generated);
        String doc = Files.readString(TLC.specDir().resolveSibling("docs/kill-table.md"));
        String current = KillTable.sectionOf(doc);
        assertEquals(generated.strip(), current == null ? null : current.strip(),
                "docs/kill-table.md, section " + KillTable.HEADING + ", is not the generated one: copy " + out);
    }

    @Test
    @Order(0)
    void everyModelFileIsInTheManifest() throws IOException {
        List<String> listed = TLC.manifest().stream().map(Tlc.Expectation::path).toList();
        List<String> missing = new ArrayList<>();
        for (String dir : List.of(Manifest.MODELS, Manifest.MUTANTS)) {
            try (Stream<Path> s = Files.list(TLC.specDir().resolve(dir))) {
                s.map(p -> dir + "/" + p.getFileName()).filter(n -> n.endsWith(".cfg")).filter(n -> !listed.contains(n))
                        .filter(n -> !List.of("models/MCDist.cfg", "models/MCSim.cfg").contains(n)) // tlc-dist, tlc-sim
                        .sorted().forEach(missing::add);
            }
        }
        assertEquals(List.of(), missing, "models missing from manifest.json");
        for (Tlc.Expectation e : TLC.manifest()) {
            assertTrue(Files.exists(TLC.specDir().resolve(e.path())), "manifest.json names " + e.path() + ": no such file");
            assertEquals(e.model().startsWith("MC_") ? Manifest.MUTANTS : Manifest.MODELS,
                    e.path().substring(0, e.path().indexOf('/')), e.model() + ": a mutant lives in mutants/, a model in models/");
        }
    }

    /** spec/'s top holds only protocol, abstract and library modules: models, mutants and trace validation have their folders. */
    @Test
    @Order(0)
    void topHoldsNoModel() throws IOException {
        try (Stream<Path> s = Files.list(TLC.specDir())) {
            List<String> models = s.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("MC") || n.startsWith("Trace") || n.endsWith(".cfg")).sorted().toList();
            assertEquals(List.of(), models, "models at the top of spec/");
        }
    }

    /**
     * The witness report runs where witnesses count and nowhere else: every CI model's cfg names it, with the plural
     * keyword (the obligation trace reads each name of an {@code INVARIANT} line as an obligation), no long model's
     * or mutant's does. make tlc reads the witnesses of the CI models only; in MCRemoval the report, evaluating at
     * every state the witnesses this model never reaches, took about 40% of TLC's time; and a run resumed from a
     * checkpoint could not read its register (TLC sets it at the first initial state, which a resumed run skips).
     */
    @Test
    @Order(0)
    void theWitnessReportRunsInEveryCiModelAndNowhereElse() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (Tlc.Expectation e : TLC.manifest()) {
            boolean ci = e.expect().equals("pass");
            List<String> naming = Files.readAllLines(TLC.specDir().resolve(e.path())).stream()
                    .map(l -> l.replaceFirst("\\\\\\*.*", "").strip()) // less its comment
                    .filter(l -> l.matches("INVARIANTS?\\s.*\\bStateWitnessReport\\b.*")).toList();
            if (ci != !naming.isEmpty()) {
                wrong.add(e.model() + (ci ? ", a CI model, does not name" : ", not a CI model, names")
                        + " StateWitnessReport in " + e.path());
            }
            naming.stream().filter(l -> !l.startsWith("INVARIANTS"))
                    .forEach(l -> wrong.add(e.model() + ": the report as an obligation (INVARIANT, not INVARIANTS)"));
        }
        assertEquals(List.of(), wrong);
    }

    /** Each .cfg is named like its .tla, and every line of it carries a comment (a model explains its bounds). */
    @Test
    @Order(0)
    void everyCfgIsNamedLikeItsModuleAndCommented() throws IOException {
        try (Stream<Path> s = Files.walk(TLC.specDir())) {
            for (Path cfg : s.filter(p -> p.toString().endsWith(".cfg") && !p.startsWith(TLC.specDir().resolve("target")))
                    .sorted().toList()) {
                String name = cfg.getFileName().toString().replaceAll("\\.cfg$", "");
                assertTrue(Files.exists(cfg.resolveSibling(name + ".tla")), cfg + " has no " + name + ".tla");
                for (String line : Files.readAllLines(cfg)) {
                    String t = line.strip();
                    assertTrue(t.isEmpty() || t.equals("CONSTANTS") || t.contains("\\*"),
                            cfg.getFileName() + ": a line without a comment: " + line);
                }
            }
        }
    }
}
