package org.deliqueue.spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * TLC's runs as JUnit XML, one test case per model run, in the format jcstress's runner writes
 * ({@code jcstress/target/jcstress-junit.xml}: a {@code testsuite} with tests/failures/errors/skipped/time, its
 * properties, then per case a {@code failure}, {@code error} or {@code skipped} element and the details in
 * {@code system-out}).
 *
 * <p>The verdict of a run. A run with no expectation, or one the manifest expects to pass, maps TLC's exit code:
 * 0 passes (unless the manifest check found the state space changed: a failure), 12 and 13 are failures whose
 * message names the violated obligation, and every other code (a parse error, a crash, a timeout) is an error.
 * A mutant model (the manifest expects exit 12 or 13 naming an obligation) is a negative control, graded like a
 * jcstress mutant twin: it passes when TLC reports exactly that violation, fails when TLC passes or names another
 * obligation, and is an error for any other exit code. A counterexample, wherever TLC found one, is explained
 * ({@link TlcTrace}: the table goes in the case's body and in {@code spec/target/tlc-explain/MODEL.md}).
 */
public final class TlcJUnit {

    /**
     * One model run; {@code expected} is its manifest line (null: none, e.g. MCFull or a simulation), {@code mismatch}
     * what {@code Tlc.check} said of it (null: it matched), used for a passing model's state-space check.
     */
    public record Run(Tlc.Result result, Tlc.Expectation expected, String mismatch) {
    }

    private enum Kind { PASS, FAILURE, ERROR }

    private record Verdict(Kind kind, String message, String details) {
    }

    private TlcJUnit() {
    }

    /** Writes {@code file} (its directory is created) for the runs of one invocation, named {@code suite}. */
    public static void write(Path file, String suite, List<Run> runs, Path specDir) throws IOException {
        StringBuilder cases = new StringBuilder();
        int failures = 0;
        int errors = 0;
        double seconds = 0;
        for (Run run : runs) {
            Verdict v = verdict(run, specDir);
            failures += v.kind() == Kind.FAILURE ? 1 : 0;
            errors += v.kind() == Kind.ERROR ? 1 : 0;
            seconds += run.result().seconds();
            cases.append(String.format(Locale.ROOT, "  <testcase classname=\"tlc\" name=\"%s\" time=\"%.1f\">%n",
                    esc(run.result().model()), run.result().seconds()));
            if (v.kind() != Kind.PASS) {
                String tag = v.kind() == Kind.FAILURE ? "failure" : "error";
                cases.append("    <").append(tag).append(" message=\"").append(esc(v.message())).append("\">")
                        .append(esc(v.details())).append("</").append(tag).append(">\n");
            }
            cases.append("    <system-out>").append(esc(summary(run.result()) + "\n" + v.message() + "\n"
                    + (v.kind() == Kind.PASS ? v.details() : ""))).append("</system-out>\n  </testcase>\n");
        }
        StringBuilder x = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        x.append(String.format(Locale.ROOT,
                "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\" time=\"%.1f\">%n",
                esc(suite), runs.size(), failures, errors, seconds));
        x.append("  <properties><property name=\"os.arch\" value=\"").append(esc(System.getProperty("os.arch")))
                .append("\"/><property name=\"java.version\" value=\"")
                .append(esc(System.getProperty("java.version"))).append("\"/></properties>\n");
        x.append(cases).append("</testsuite>\n");
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, x.toString(), StandardCharsets.UTF_8);
    }

    private static Verdict verdict(Run run, Path specDir) throws IOException {
        Tlc.Result r = run.result();
        boolean mutant = run.expected() != null && !run.expected().expect().equals("pass");
        boolean verdictCode = r.exit() == 0 || r.exit() == 12 || r.exit() == 13;
        if (!verdictCode) {
            return new Verdict(Kind.ERROR, TlcTrace.verdict(r, specDir), Tlc.tail(r.output()));
        }
        String violated = r.exit() == 0 ? null : TlcTrace.obligation(r, specDir);
        if (mutant) {
            String want = run.expected().obligation();
            boolean caught = r.exit() == Integer.parseInt(run.expected().expect()) && want.equals(violated);
            if (caught) {
                return new Verdict(Kind.PASS, "negative control: TLC reports " + want + " violated, as the manifest "
                        + "requires", TlcTrace.write(r, specDir));
            }
            String message = r.exit() == 0
                    ? "mutant not caught: the manifest requires " + want + " violated; TLC found no violation"
                    : "mutant caught by the wrong obligation: the manifest requires " + want + " (exit "
                            + run.expected().expect() + "); TLC exit " + r.exit() + " names " + violated;
            return new Verdict(Kind.FAILURE, message, r.exit() == 0 ? Tlc.tail(r.output()) : TlcTrace.write(r, specDir));
        }
        if (r.exit() != 0) {
            return new Verdict(Kind.FAILURE, violated + " violated (TLC exit " + r.exit() + ")",
                    TlcTrace.write(r, specDir));
        }
        if (run.mismatch() != null) {
            return new Verdict(Kind.FAILURE, run.mismatch().lines().findFirst().orElse(""), run.mismatch());
        }
        return new Verdict(Kind.PASS, "no violation", "");
    }

    private static String summary(Tlc.Result r) {
        return String.format(Locale.ROOT, "%s: TLC exit %d, %s distinct states, depth %s, %.1f s", r.model(), r.exit(),
                r.distinct() < 0 ? "-" : Long.toString(r.distinct()), r.depth() < 0 ? "-" : Integer.toString(r.depth()),
                r.seconds());
    }

    /** XML text: the five escapes, and control characters other than tab and newline dropped. */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&apos;");
                default -> {
                    if (c >= 0x20 || c == '\n' || c == '\t') {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}
