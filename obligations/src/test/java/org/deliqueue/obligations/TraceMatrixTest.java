package org.deliqueue.obligations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trace must hold in this repository; and each way of breaking it (its negative controls, on a copy of the
 * traced files) must be reported.
 */
class TraceMatrixTest {
    private static final Path ROOT = Path.of(System.getProperty("repo.root", "..")).toAbsolutePath().normalize();

    @Test
    void everyObligationHasACodeSiteAndACheckerAndEveryCitationResolves() throws IOException {
        TraceMatrix m = TraceMatrix.load(ROOT);
        assertEquals(List.of(), m.problems(), "the obligation trace is broken");
        assertTrue(m.obligations().size() >= 14, "obligations found: " + m.obligations());
    }

    @Test
    void aCitationOfAnUnknownObligationIsReported(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        edit(root.resolve("impl/src/main/java/org/deliqueue/DeliQueue.java"), "// obligation: NoPushAfterQuit",
                "// obligation: NoPushAfterQiut");
        assertReported(root, "unknown obligation 'NoPushAfterQiut'");
    }

    @Test
    void anObligationWithoutCodeSiteIsReported(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        Path queue = root.resolve("impl/src/main/java/org/deliqueue/DeliQueue.java");
        Files.writeString(queue, Files.readString(queue).replaceAll("// obligation: PushLockFree\\n", "")
                .replace("PushLockFree, ", "").replace(", PushLockFree", ""));
        assertReported(root, "PushLockFree (spec/DeliQueueProperties.tla:");
    }

    @Test
    void specCitingCodeThatNoLongerExistsIsReported(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        Path queue = root.resolve("impl/src/main/java/org/deliqueue/DeliQueue.java");
        Files.writeString(queue, Files.readString(queue).replace("deferredUnlink", "postponedUnlink"));
        assertReported(root, "cites DeliQueue.deferredUnlink, which is not in");
    }

    @Test
    void anObligationWithoutCheckerIsReported(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        try (Stream<Path> models = Files.walk(root.resolve("spec")).filter(p -> p.toString().endsWith(".cfg"))) {
            for (Path cfg : models.toList()) {
                Files.writeString(cfg, Files.readString(cfg).replace("PROPERTY QuitTerminates", "\\* PROPERTY QuitTerminates"));
            }
        }
        for (String dir : TraceMatrix.CHECKER_ROOTS) {
            try (Stream<Path> files = Files.walk(root.resolve(dir)).filter(p -> p.toString().endsWith(".java"))) {
                for (Path f : files.toList()) {
                    Files.writeString(f, Files.readString(f).replace("// obligation: QuitTerminates\n", ""));
                }
            } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException missing) {
                // a checker module that does not exist in this checkout
            }
        }
        assertReported(root, "QuitTerminates (spec/DeliQueueProperties.tla:");
    }

    @Test
    void aNegativeControlNamingAnUnknownSeededBugIsReported(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        edit(root.resolve("impl/src/test/java/org/deliqueue/ScriptedInterleavingTest.java"),
                "// negative control: UNLINK_CLEARS_NEXT", "// negative control: UNLINK_CLEARS_NXT");
        assertReported(root, "unknown seeded bug 'UNLINK_CLEARS_NXT'");
    }

    @Test
    void aSeededBugViolatingAnUnknownObligationIsReported(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        edit(root.resolve(TraceMatrix.MUTANTS), "DRAIN_KEEPS_DESCRIPTORS(Detection.STRUCTURE, \"GoneNodesUnlinkedAtRest\"",
                "DRAIN_KEEPS_DESCRIPTORS(Detection.STRUCTURE, \"GoneNodesUnlinked\"");
        assertReported(root, "seeded bug DRAIN_KEEPS_DESCRIPTORS (" + TraceMatrix.MUTANTS
                + ") violates unknown obligation 'GoneNodesUnlinked'");
    }

    @Test
    void theSummaryListsEachSeededBugUnderTheObligationsItViolates() throws IOException {
        String page = TraceMatrix.load(ROOT).markdown("at commit `test`");
        String row = page.lines().filter(l -> l.startsWith("| [`GoneNodesUnlinkedAtRest`]")).findFirst().orElseThrow();
        assertTrue(row.contains("TLC MC_DRAIN_SKIPS_NEWEST: ") && row.contains("`DRAIN_KEEPS_DESCRIPTORS`: ")
                && row.contains("DeliQueueStructureTest "), row);
        String order = page.lines().filter(l -> l.startsWith("| [`DeliveryOrder`]")).findFirst().orElseThrow();
        assertFalse(order.contains("DRAIN_KEEPS_DESCRIPTORS"), order);
    }

    @Test
    void aSiteProductionCodeNeverReachesIsRefused(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        // helper() is called, but only by a method nothing calls: neither is code that runs.
        writeSource(root, "DeadCode", """
                final class DeadCode {
                    static int neverCalled() {
                        return helper();
                    }

                    static int helper() {
                        // obligation: ExactlyOnce
                        return 1;
                    }
                }
                """);
        assertReported(root, "is in DeadCode.helper, which production code never calls");
    }

    @Test
    void aSiteThePublicApiReachesIsAccepted(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        writeSource(root, "LiveCode", """
                public final class LiveCode {
                    public static int entry() {
                        return helper();
                    }

                    static int helper() {
                        // obligation: ExactlyOnce
                        return 1;
                    }
                }
                """);
        assertNotReported(root, "LiveCode");
    }

    @Test
    void aFieldDeclarationIsASiteOfTheTypeInvariantAlone(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        writeSource(root, "FieldSites", """
                final class FieldSites {
                    // obligation: ExactlyOnce
                    static int counted;
                    // obligation: TypeOK
                    static volatile int typed;
                }
                """);
        assertReported(root, "is the declaration of field FieldSites.counted");
        assertNotReported(root, "FieldSites.typed");
    }

    @Test
    void theMatrixTellsAFailureFromASkipAndFromACheckThatDidNotRunHere(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        Path surefire = Files.createDirectories(root.resolve("impl/target/surefire-reports"));
        Files.writeString(surefire.resolve("TEST-org.deliqueue.UserCodeTest.xml"), """
                <testsuite name="org.deliqueue.UserCodeTest" tests="3" failures="1">
                <testcase name="equalsRunsOnTheCaller(Factory)[1]" classname="org.deliqueue.UserCodeTest"/>
                <testcase name="equalsRunsOnTheCaller(Factory)[2]" classname="org.deliqueue.UserCodeTest">
                  <failure message="ran on the Looper"/>
                </testcase>
                <testcase name="removalCountsWhatItTook" classname="org.deliqueue.UserCodeTest"/>
                </testsuite>
                """);
        Files.createDirectories(root.resolve("jpf/target"));
        Files.writeString(root.resolve(CheckResults.JPF), """
                <testsuite name="jpf" tests="1" skipped="1">
                  <testcase classname="jpf.UserCodeRemoval" name="DELI,flip listener on" time="0">
                    <skipped message="SKIPPED (nothing checked): no Java PathFinder found"/>
                  </testcase>
                </testsuite>
                """);
        String page = TraceMatrix.load(root).markdown("at commit `test`");
        assertContains(page, "`UserCodeTest#equalsRunsOnTheCaller`: **FAIL** (1 of 2 runs failed)");
        assertContains(page, "`UserCodeTest#removalCountsWhatItTook`: pass");
        assertContains(page, "`UserCodeRemoval DELI,flip listener on`: skipped");
        assertContains(page, "skipped (SKIPPED (nothing checked): no Java PathFinder found)");
        assertContains(page, "not run here (no case in `spec/target/tlc-junit.xml`)");
    }

    @Test
    void theMatrixStatesEachObligationFromTheSpec() throws IOException {
        TraceMatrix m = TraceMatrix.load(ROOT);
        String page = m.markdown("at commit `test`");
        for (TraceMatrix.Obligation o : m.obligations()) {
            assertContains(page, "## `" + o.id() + "`\n\n" + o.statement() + ".");
            assertContains(page, "```tla\n" + o.definition() + "\n```");
        }
    }

    private static void assertReported(Path root, String expected) throws IOException {
        List<String> problems = TraceMatrix.load(root).problems();
        assertTrue(problems.stream().anyMatch(p -> p.contains(expected)),
                "expected a problem containing '" + expected + "', got " + problems);
    }

    private static void assertNotReported(Path root, String unexpected) throws IOException {
        List<String> problems = TraceMatrix.load(root).problems();
        assertTrue(problems.stream().noneMatch(p -> p.contains(unexpected)),
                "expected no problem containing '" + unexpected + "', got " + problems);
    }

    private static void assertContains(String page, String expected) {
        assertTrue(page.contains(expected), "docs/obligations.md lacks: " + expected);
    }

    /** Adds class {@code name} (its body, package-less) to the copy's production sources. */
    private static void writeSource(Path root, String name, String body) throws IOException {
        Files.writeString(root.resolve(TraceMatrix.CODE).resolve("org/deliqueue/" + name + ".java"),
                "package org.deliqueue;\n\n" + body);
    }

    private static void edit(Path file, String from, String to) throws IOException {
        String text = Files.readString(file);
        assertTrue(text.contains(from), file + " lacks " + from);
        Files.writeString(file, text.replace(from, to));
    }

    /** Copies what the trace reads: the spec, the manifest, the CI model, impl's sources and the checkers. */
    private static Path copyOfTracedFiles(Path copy) throws IOException {
        for (String dir : Stream.concat(Stream.of("spec", TraceMatrix.CODE, "impl/src/mutants"),
                        TraceMatrix.CHECKER_ROOTS.stream())
                .toList()) {
            Path from = ROOT.resolve(dir);
            if (!Files.isDirectory(from)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(from)) {
                for (Path f : files.filter(Files::isRegularFile)
                        .filter(p -> !ROOT.relativize(p).toString().contains("/target/")).toList()) {
                    Path to = copy.resolve(ROOT.relativize(f).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(f, to);
                }
            }
        }
        return copy;
    }
}
