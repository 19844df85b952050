package org.deliqueue.jcstress;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.GradingResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;
import org.openjdk.jcstress.infra.grading.TestGrading;
import org.openjdk.jcstress.infra.runners.TestList;

/**
 * The single entry point of the jcstress checks: runs jcstress ({@code org.openjdk.jcstress.Main}) in a child JVM
 * whose working directory is a build directory, reads the result blob it writes there with jcstress's own
 * reader and grader, decides a verdict per test, writes JUnit XML and a summary, and exits non-zero on failure.
 *
 * <p>Verdicts:
 * <ul>
 *   <li>every test listed in the jar must have run (a test that produced no samples - e.g. not schedulable on
 *       this machine - fails: a skipped check is never reported as passing);
 *   <li>every run must end with status NORMAL (no test error, timeout or VM crash);
 *   <li>no FORBIDDEN outcome may be observed, on a DeliQueue test or on a mutant twin;
 *   <li>a {@link MutantTwin} must observe at least one ACCEPTABLE_INTERESTING outcome (the seeded violation);
 *       for a twin marked {@link MutantTwin#weakMemoryOnly()} on a machine that is not weak-memory (x86-64), not
 *       observing it is reported as skipped ("needs a weaker memory model"), on arm64 it must observe it; a twin
 *       marked {@link MutantTwin#tsoOnly()} is required on x86-64 only (skipped elsewhere when not observed);
 *   <li>jcstress's own exit status must be 0.
 * </ul>
 *
 * <p>Usage: {@code java -cp jcstress.jar org.deliqueue.jcstress.RunAndReport --out DIR [--junit FILE]
 * [--mode NAME] [jcstress options...]}. {@code --mode fast} (the default, for {@code make test}) and
 * {@code --mode deep} (for {@code make jcstress}) are presets of jcstress options; options after them are
 * passed to jcstress as given and win.
 */
public final class RunAndReport {

    /** jcstress options of each preset; see the module README for the measured run times. */
    static final Map<String, List<String>> PRESETS = Map.of(
            // Default JIT configuration only (tiered C1+C2), one short iteration: 53-88 s on 2 cores (26 forks).
            "fast", List.of("-m", "quick", "-iters", "1", "-time", "250", "-sc", "false",
                    "-jvmArgs", "-XX:+UseParallelGC -Xmx256m -Xss1m"),
            // Every VM configuration jcstress detects (interpreter, C1, C2, C2 stress randomizers), 5 iterations of 1 s;
            // unified compilation (-sc false): split per-actor compilation makes it 780 forks, about 2 h on 2 cores.
            "deep", List.of("-m", "default", "-sc", "false"));

    private RunAndReport() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Paths.get("target", "jcstress-results");
        Path junit = null;
        String mode = "fast";
        List<String> passThrough = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out":
                    out = Paths.get(args[++i]);
                    break;
                case "--junit":
                    junit = Paths.get(args[++i]);
                    break;
                case "--mode":
                    mode = args[++i];
                    break;
                default:
                    passThrough.add(args[i]);
            }
        }
        if (!PRESETS.containsKey(mode)) {
            System.err.println("RunAndReport: unknown --mode " + mode + "; one of " + new TreeSet<>(PRESETS.keySet()));
            System.exit(2);
        }
        out = out.toAbsolutePath();
        if (junit == null) {
            junit = out.resolveSibling("jcstress-junit.xml");
        }
        System.exit(run(out, junit.toAbsolutePath(), mode, passThrough));
    }

    static int run(Path out, Path junit, String mode, List<String> passThrough) throws Exception {
        Files.createDirectories(out);
        try (Stream<Path> old = Files.list(out)) {
            for (Path p : (Iterable<Path>) old::iterator) {
                if (p.getFileName().toString().startsWith("jcstress-results-")) {
                    Files.delete(p); // only this run's blob may be graded
                }
            }
        }
        String filter = ".*";
        List<String> jcstressArgs = new ArrayList<>(PRESETS.get(mode));
        for (String given : passThrough) { // an option given explicitly replaces the preset's (flag and value)
            int at = given.startsWith("-") ? jcstressArgs.indexOf(given) : -1;
            if (at >= 0) {
                jcstressArgs.subList(at, Math.min(at + 2, jcstressArgs.size())).clear();
            }
        }
        jcstressArgs.addAll(passThrough);
        for (int i = 0; i + 1 < jcstressArgs.size(); i++) {
            if (jcstressArgs.get(i).equals("-t")) {
                filter = jcstressArgs.get(i + 1);
            }
        }
        jcstressArgs.addAll(List.of("-r", out.resolve("results").toString()));

        long started = System.nanoTime();
        int exit = runJcstress(out, jcstressArgs);
        Map<String, TestResult> byName = readResults(out);

        Pattern selected = Pattern.compile(filter);
        List<Verdict> verdicts = new ArrayList<>();
        for (String test : new TreeSet<>(TestList.tests())) {
            if (selected.matcher(test).find()) {
                Verdict v = judge(test, byName.get(test));
                if (v.failure != null && byName.get(test) == null && exit != 0) {
                    v.failure += "; jcstress exited with status " + exit + ", see " + out.resolve("jcstress.log");
                }
                verdicts.add(v);
            }
        }
        if (verdicts.isEmpty()) {
            verdicts.add(Verdict.failure("(no test)", "no jcstress test matches " + filter, ""));
        }
        if (exit != 0 && verdicts.stream().noneMatch(v -> v.failure != null)) {
            verdicts.add(Verdict.failure("jcstress", "jcstress exited with status " + exit
                    + " although no test verdict failed; see " + out.resolve("jcstress.log"), ""));
        }
        retryUnobservedTwins(out, jcstressArgs, verdicts);
        double seconds = (System.nanoTime() - started) / 1e9;
        writeJUnit(junit, verdicts, seconds);
        return summarize(System.out, verdicts, seconds, junit, out);
    }

    private static int runJcstress(Path workDir, List<String> jcstressArgs) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(absoluteClassPath()); // the child runs in workDir: relative entries would break
        cmd.add("org.openjdk.jcstress.Main");
        cmd.addAll(jcstressArgs);
        System.out.println("RunAndReport: in " + workDir + ": " + String.join(" ", cmd));
        Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true).start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             Writer log = Files.newBufferedWriter(workDir.resolve("jcstress.log"), StandardCharsets.UTF_8)) {
            for (String line; (line = in.readLine()) != null; ) {
                System.out.println(line);
                log.write(line);
                log.write('\n');
            }
        }
        return p.waitFor();
    }

    private static String absoluteClassPath() {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!e.isEmpty()) {
                entries.add(Paths.get(e).toAbsolutePath().toString());
            }
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    private static Path newestBlob(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().matches("jcstress-results-.*\\.bin\\.gz"))
                    .max((a, b) -> a.toFile().lastModified() < b.toFile().lastModified() ? -1 : 1).orElse(null);
        }
    }

    /**
     * A twin's violation is a race that a short run can miss (a lost wakeup costs its sample seconds, so that twin
     * gets few samples). Twins not observed are run again on their own, up to {@value #TWIN_ATTEMPTS} attempts in
     * all, before their verdict stands; DeliQueue tests are never re-run (a forbidden outcome fails at once).
     */
    static final int TWIN_ATTEMPTS = 3;

    private static void retryUnobservedTwins(Path out, List<String> jcstressArgs, List<Verdict> verdicts)
            throws Exception {
        for (int attempt = 2; attempt <= TWIN_ATTEMPTS; attempt++) {
            List<Verdict> unobserved = verdicts.stream()
                    .filter(v -> v.failure != null && v.failure.contains("was NOT observed")).toList();
            if (unobserved.isEmpty()) {
                return;
            }
            List<String> args = new ArrayList<>();
            for (int i = 0; i < jcstressArgs.size(); i++) {
                String a = jcstressArgs.get(i);
                if ((a.equals("-t") || a.equals("-r")) && i + 1 < jcstressArgs.size()) {
                    i++; // replaced below
                } else {
                    args.add(a);
                }
            }
            String only = unobserved.stream().map(v -> Pattern.quote(v.test)).collect(Collectors.joining("|"));
            args.addAll(List.of("-t", "^(" + only + ")$", "-r", out.resolve("results-attempt-" + attempt).toString()));
            System.out.printf("jcstress: %d twin(s) did not show their violation; attempt %d of %d for them%n",
                    unobserved.size(), attempt, TWIN_ATTEMPTS);
            runJcstress(out, args);
            Map<String, TestResult> again = readResults(out);
            for (Verdict old : unobserved) {
                Verdict retried = judge(old.test, again.get(old.test));
                if (retried.failure == null) {
                    retried.details = "observed on attempt " + attempt + " of " + TWIN_ATTEMPTS + "\n" + retried.details;
                    verdicts.set(verdicts.indexOf(old), retried);
                } else if (retried.failure.contains("was NOT observed")) {
                    old.failure = retried.failure.replace("was NOT observed", "was NOT observed in " + attempt
                            + " attempts; last:");
                }
            }
        }
    }

    /** Reads the newest jcstress result blob of {@code out}, then deletes it so a later run is read alone. */
    private static Map<String, TestResult> readResults(Path out) throws Exception {
        Path blob = newestBlob(out);
        Map<String, TestResult> byName = new TreeMap<>();
        if (blob != null) {
            InProcessCollector collector = new InProcessCollector();
            DiskReadCollector reader = new DiskReadCollector(blob.toString(), collector);
            try {
                reader.dump();
            } finally {
                reader.close();
            }
            for (TestResult r : ReportUtils.mergedByName(collector.getTestResults())) {
                byName.put(r.getName(), r);
            }
            Files.delete(blob);
        }
        return byName;
    }

    /** One test's verdict: failure or skipped message (both null: passed), details for the report. */
    static final class Verdict {
        final String test;
        String failure;
        String skipped;
        String details = "";
        String kind = "";

        Verdict(String test) {
            this.test = test;
        }

        static Verdict failure(String test, String why, String details) {
            Verdict v = new Verdict(test);
            v.failure = why;
            v.details = details;
            return v;
        }
    }

    static Verdict judge(String test, TestResult r) {
        Verdict v = new Verdict(test);
        MutantTwin twin = twinOf(test);
        v.kind = twin == null ? "DeliQueue" : "mutant " + twin.value();
        if (r == null || r.getTotalCount() == 0) {
            v.failure = "did not run: jcstress reported no samples (not schedulable here, or filtered out by the run)";
            return v;
        }
        TestGrading g = r.grading();
        StringBuilder table = new StringBuilder();
        long forbidden = 0;
        long interesting = 0;
        List<String> forbiddenIds = new ArrayList<>();
        for (GradingResult gr : g.gradingResults.values()) {
            table.append(String.format(Locale.ROOT, "  %-14s %,14d  %-22s %s%n", gr.id, gr.count, gr.expect,
                    gr.description == null ? "" : gr.description));
            if (gr.expect == Expect.FORBIDDEN && gr.count > 0) {
                forbidden += gr.count;
                forbiddenIds.add(gr.id + " x" + gr.count);
            }
            if (gr.expect == Expect.ACCEPTABLE_INTERESTING) {
                interesting += gr.count;
            }
            if (gr.expect == Expect.UNKNOWN && gr.count > 0) {
                forbidden += gr.count;
                forbiddenIds.add(gr.id + " (ungraded) x" + gr.count);
            }
        }
        StringBuilder details = new StringBuilder();
        details.append(String.format(Locale.ROOT, "%s; status %s; %,d samples%n", v.kind, r.status(), r.getTotalCount()));
        details.append(table);
        for (String m : r.getMessages()) {
            details.append("  message: ").append(m).append('\n');
        }
        v.details = details.toString();
        if (r.status() != Status.NORMAL) {
            v.failure = "jcstress status " + r.status() + " (test error, timeout or VM failure)";
        } else if (forbidden > 0) {
            v.failure = "FORBIDDEN outcome observed: " + String.join(", ", forbiddenIds);
        } else if (twin != null && interesting == 0) {
            if (twin.weakMemoryOnly() && !isWeakMemoryMachine()) {
                v.skipped = "skipped on " + archName() + " (needs a weaker memory model): mutant " + twin.value()
                        + " not observed in " + String.format(Locale.ROOT, "%,d", r.getTotalCount())
                        + " samples; required on arm64";
            } else if (twin.tsoOnly() && !isX86()) {
                v.skipped = "skipped on " + archName() + " (only x86-64's store buffer shows it: HotSpot's release "
                        + "store and acquire load are ordered here): mutant " + twin.value() + " not observed in "
                        + String.format(Locale.ROOT, "%,d", r.getTotalCount()) + " samples; required on x86-64";
            } else {
                v.failure = "mutant " + twin.value() + ": the seeded violation was NOT observed in "
                        + String.format(Locale.ROOT, "%,d", r.getTotalCount())
                        + " samples: the checker no longer finds this bug (or the run was too short)";
            }
        }
        if (twin != null && interesting > 0) {
            v.details = String.format(Locale.ROOT, "violation observed %,d times%n", interesting) + v.details;
        }
        return v;
    }

    /** The {@link MutantTwin} annotation of a test, or null for a DeliQueue test. */
    static MutantTwin twinOf(String test) {
        try {
            return Class.forName(binaryName(test)).getAnnotation(MutantTwin.class);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("test class not on the class path: " + test, e);
        }
    }

    private static String binaryName(String test) {
        String binary = TestList.getInfo(test).binaryName();
        return binary != null ? binary : test;
    }

    /** "x86-64" for amd64/x86_64, else os.arch as given. */
    static String archName() {
        String arch = System.getProperty("os.arch", "");
        return arch.equals("amd64") || arch.equals("x86_64") ? "x86-64" : arch;
    }

    static boolean isX86() {
        String arch = System.getProperty("os.arch", "");
        return arch.equals("amd64") || arch.equals("x86_64") || arch.equals("x86") || arch.equals("i386");
    }

    static boolean isWeakMemoryMachine() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        return arch.contains("aarch64") || arch.contains("arm") || arch.contains("ppc") || arch.contains("riscv");
    }

    static void writeJUnit(Path file, List<Verdict> verdicts, double seconds) throws IOException {
        long failures = verdicts.stream().filter(v -> v.failure != null).count();
        long skipped = verdicts.stream().filter(v -> v.failure == null && v.skipped != null).count();
        StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.append(String.format(Locale.ROOT,
                "<testsuite name=\"jcstress\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" time=\"%.1f\">%n",
                verdicts.size(), failures, skipped, seconds));
        x.append("  <properties><property name=\"os.arch\" value=\"").append(esc(System.getProperty("os.arch")))
                .append("\"/><property name=\"java.version\" value=\"")
                .append(esc(System.getProperty("java.version"))).append("\"/></properties>\n");
        for (Verdict v : verdicts) {
            int dot = v.test.lastIndexOf('.');
            String cls = dot < 0 ? "jcstress" : v.test.substring(0, dot);
            String name = dot < 0 ? v.test : v.test.substring(dot + 1);
            x.append("  <testcase classname=\"").append(esc(cls)).append("\" name=\"").append(esc(name)).append("\">\n");
            if (v.failure != null) {
                x.append("    <failure message=\"").append(esc(v.failure)).append("\">").append(esc(v.details))
                        .append("</failure>\n");
            } else if (v.skipped != null) {
                x.append("    <skipped message=\"").append(esc(v.skipped)).append("\"/>\n");
            }
            x.append("    <system-out>").append(esc(v.details)).append("</system-out>\n");
            x.append("  </testcase>\n");
        }
        x.append("</testsuite>\n");
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, x.toString(), StandardCharsets.UTF_8);
    }

    private static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&': b.append("&amp;"); break;
                case '<': b.append("&lt;"); break;
                case '>': b.append("&gt;"); break;
                case '"': b.append("&quot;"); break;
                default:
                    if (c >= 0x20 || c == '\n' || c == '\t') {
                        b.append(c);
                    }
            }
        }
        return b.toString();
    }

    static int summarize(PrintStream o, List<Verdict> verdicts, double seconds, Path junit, Path out) {
        o.println();
        o.println("==== deliqueue jcstress verdicts ====");
        int failed = 0;
        for (Verdict v : verdicts) {
            String tag = v.failure != null ? "FAIL" : v.skipped != null ? "SKIP" : "PASS";
            if (v.failure != null) {
                failed++;
            }
            o.printf(Locale.ROOT, "[%s] %s (%s)%n", tag, v.test, v.kind);
            if (v.failure != null || v.skipped != null) {
                o.println("       " + (v.failure != null ? v.failure : v.skipped));
            }
            o.print(v.details.indent(7));
        }
        o.printf(Locale.ROOT, "%d tests, %d failed, %d skipped, %.0f s. JUnit XML: %s; HTML report: %s%n",
                verdicts.size(), failed, verdicts.stream().filter(v -> v.failure == null && v.skipped != null).count(),
                seconds, junit, out.resolve("results").resolve("index.html"));
        for (Verdict v : verdicts) { // again last, where a CI log's tail shows them
            if (v.failure != null) {
                o.println("FAILED: " + v.test + " (" + v.kind + "): " + v.failure);
            }
        }
        return failed == 0 ? 0 : 1;
    }
}
