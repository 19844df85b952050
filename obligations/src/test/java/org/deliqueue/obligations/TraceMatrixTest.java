package org.deliqueue.obligations;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertReported(root, "PushLockFree (spec/DeliQueue.tla:");
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
        edit(root.resolve("spec/MC.cfg"), "PROPERTY QuitTerminates", "\\* PROPERTY QuitTerminates");
        for (String dir : TraceMatrix.CHECKER_ROOTS) {
            try (Stream<Path> files = Files.walk(root.resolve(dir)).filter(p -> p.toString().endsWith(".java"))) {
                for (Path f : files.toList()) {
                    Files.writeString(f, Files.readString(f).replace("// obligation: QuitTerminates\n", ""));
                }
            } catch (java.io.UncheckedIOException | java.nio.file.NoSuchFileException missing) {
                // a checker module that does not exist in this checkout
            }
        }
        assertReported(root, "QuitTerminates (spec/DeliQueue.tla:");
    }

    @Test
    void aNegativeControlNamingAnUnknownSeededBugIsReported(@TempDir Path copy) throws IOException {
        Path root = copyOfTracedFiles(copy);
        edit(root.resolve("impl/src/test/java/org/deliqueue/ScriptedInterleavingTest.java"),
                "// negative control: UNLINK_CLEARS_NEXT", "// negative control: UNLINK_CLEARS_NXT");
        assertReported(root, "unknown seeded bug 'UNLINK_CLEARS_NXT'");
    }

    private static void assertReported(Path root, String expected) throws IOException {
        List<String> problems = TraceMatrix.load(root).problems();
        assertTrue(problems.stream().anyMatch(p -> p.contains(expected)),
                "expected a problem containing '" + expected + "', got " + problems);
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
