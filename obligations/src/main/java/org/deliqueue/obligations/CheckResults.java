package org.deliqueue.obligations;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The test cases of the checkers' last runs on this machine, read from their JUnit XML reports: surefire's
 * ({@code MODULE/target/surefire-reports}), jcstress's, make jpf's and TLC's. A case is known by its checker (the
 * simple name of its test class, jcstress test or JPF harness; {@code TLC MODEL} for a TLC model) and its name
 * within it; the invocations of one test method (its parameters, surefire's executions) are runs of one case, a
 * test.
 */
final class CheckResults {
    static final List<String> SUREFIRE_MODULES = List.of("impl", "spec", "lincheck", "jpf", "trace", "obligations");
    static final String JCSTRESS = "jcstress/target/jcstress-junit.xml";
    static final String JPF = "jpf/target/jpf-junit.xml";
    static final String TLC = "spec/target/tlc-junit.xml";

    /** Invocations of one case in the reports: passed, failed (failures and errors), skipped (and why). */
    record Case(String name, int passed, int failed, int skipped, String skipReason) {
        Case plus(Case o) {
            return new Case(name, passed + o.passed, failed + o.failed, skipped + o.skipped,
                    skipReason != null ? skipReason : o.skipReason);
        }

        String verdict() {
            int runs = passed + failed;
            String count = runs + skipped > 1 ? " (" + (failed > 0 ? failed + " of " + runs + " runs failed"
                    : runs + " runs" + (skipped > 0 ? ", " + skipped + " skipped" : "")) + ")" : "";
            return failed > 0 ? "**FAIL**" + count : runs > 0 ? "pass" + count : "skipped";
        }
    }

    /** A report read: its path, when it was written, how many cases it holds. */
    record Report(String path, String written, int cases) {
    }

    private static final Pattern TESTCASE =
            Pattern.compile("<testcase\\b([^>]*?)(/>|>(.*?)</testcase>)", Pattern.DOTALL);
    /** How the matrix writes a time: minutes, in UTC. */
    static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

    /** Checker -> its cases, by name. */
    private final Map<String, Map<String, Case>> cases = new LinkedHashMap<>();
    private final List<Report> reports = new ArrayList<>();

    /** Reads every report under {@code root} that exists. */
    static CheckResults read(Path root) throws IOException {
        CheckResults r = new CheckResults();
        for (String module : SUREFIRE_MODULES) {
            Path dir = root.resolve(module).resolve("target/surefire-reports");
            if (Files.isDirectory(dir)) {
                try (Stream<Path> xml = Files.list(dir)) {
                    for (Path report : xml.filter(p -> p.getFileName().toString().startsWith("TEST-")).sorted()
                            .toList()) {
                        r.readReport(root, report, CheckResults::surefire);
                    }
                }
            }
        }
        r.readReport(root, root.resolve(JCSTRESS), (cls, name) -> new CaseId(simple(cls), name));
        r.readReport(root, root.resolve(JPF), (cls, name) -> new CaseId(simple(cls), name));
        r.readReport(root, root.resolve(TLC), (cls, name) -> new CaseId("TLC " + name, name));
        return r;
    }

    /** The cases of {@code checker}, in report order; empty when no report holds it. */
    List<Case> of(String checker) {
        return List.copyOf(cases.getOrDefault(checker, Map.of()).values());
    }

    List<Report> reports() {
        return reports;
    }

    /**
     * One checker's verdict over its cases: pass, FAIL, skipped (with the first clause of the report's reason), or
     * {@code null} when it has none here.
     */
    String summary(String checker) {
        List<Case> all = of(checker);
        if (all.isEmpty()) {
            return null;
        }
        int failed = (int) all.stream().filter(c -> c.failed() > 0).count();
        int ran = (int) all.stream().filter(c -> c.passed() + c.failed() > 0).count();
        int runs = all.stream().mapToInt(c -> c.passed() + c.failed()).sum();
        if (failed > 0) {
            return "**FAIL** (" + failed + " of " + all.size() + " tests)";
        }
        if (ran == 0) {
            String why = all.get(0).skipReason();
            return "skipped (" + (why.contains(";") ? why.substring(0, why.indexOf(';')) : why) + ")";
        }
        return "pass (" + ran + (ran == 1 ? " test" : " tests") + (runs > ran ? ", " + runs + " runs" : "")
                + (ran < all.size() ? ", " + (all.size() - ran) + " skipped" : "") + ")";
    }

    /** A test case's checker and its name there. */
    private record CaseId(String checker, String name) {
    }

    private void readReport(Path root, Path report, BiFunction<String, String, CaseId> naming) throws IOException {
        if (!Files.exists(report)) {
            return;
        }
        String xml = Files.readString(report);
        Matcher c = TESTCASE.matcher(xml);
        int n = 0;
        while (c.find()) {
            n++;
            CaseId id = naming.apply(attribute(c.group(1), "classname"), attribute(c.group(1), "name"));
            String body = c.group(3) == null ? "" : c.group(3);
            boolean failed = body.contains("<failure") || body.contains("<error");
            Matcher skip = Pattern.compile("<skipped(?:\\s+message=\"([^\"]*)\")?").matcher(body);
            boolean skipped = !failed && skip.find();
            Case one = new Case(id.name(), !failed && !skipped ? 1 : 0, failed ? 1 : 0, skipped ? 1 : 0,
                    skipped ? unescape(skip.group(1) == null ? "no reason given" : skip.group(1)) : null);
            cases.computeIfAbsent(id.checker(), k -> new LinkedHashMap<>()).merge(id.name(), one, Case::plus);
        }
        reports.add(new Report(root.relativize(report).toString(),
                STAMP.format(Files.getLastModifiedTime(report).toInstant()), n));
    }

    /** Surefire: {@code org.deliqueue.FooTest(clock-near-max)} and {@code bar(Factory)[2]} are FooTest, bar. */
    private static CaseId surefire(String classname, String name) {
        return new CaseId(simple(classname.replaceAll("\\(.*", "")), name.replaceAll("[(\\[].*", ""));
    }

    private static String simple(String classname) {
        return classname.substring(classname.lastIndexOf('.') + 1);
    }

    private static String attribute(String tag, String name) {
        Matcher a = Pattern.compile("\\b" + name + "=\"([^\"]*)\"").matcher(tag);
        return a.find() ? unescape(a.group(1)) : "";
    }

    private static String unescape(String xml) {
        return xml.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
                .replace("&amp;", "&");
    }
}
