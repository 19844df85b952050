package org.deliqueue.trace;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.deliqueue.spec.Tlc;

/**
 * Validates one logged run with TLC: writes its {@link TraceModule} next to copies of the spec modules in a
 * directory of its own and checks {@code spec/trace/MCTrace} there. Accepted when TLC reports {@code TraceIncomplete}
 * violated (a behaviour of the spec matched every event and returned every operation of a thread that finished); rejected when TLC exhausts the interleavings without
 * that, or when a state or step it reaches on the way violates an obligation (the model checks them all). A rejected trace is explained: TLC runs again dumping every state it reached, and the verdict names, for
 * a state that matched the most events, each thread's first unmatched event and the spec state before it.
 */
public final class TraceCheck {
    /** The spec modules a trace model needs, copied from spec/ (paths from spec/) into the trace's directory. */
    private static final List<String> MODULES = List.of("DeliQueue.tla", "DeliQueueProperties.tla",
            "MessageQueueAbs.tla", "BulkRemovalAbs.tla", "trace/TraceDeliQueue.tla", "trace/MCTrace.tla");
    private static final Pattern STATE = Pattern.compile("^State (\\d+):", Pattern.MULTILINE);
    private static final Pattern CURSORS = Pattern.compile("/\\\\ cur = <<([\\d, ]*)>>");
    /** The Looper's program counter, and every other spec thread's, in a state TLC dumped. */
    private static final Pattern LOOPER_PC = Pattern.compile("/\\\\ L = \\[[^\\]]*?\\bpc \\|-> \"(\\w+)\"");
    private static final Pattern PCS = Pattern.compile("/\\\\ pc = \\[([^\\]]*)\\]");

    /**
     * A seeded bug of the spec (a negative control): definitions added to the model and the cfg lines that
     * substitute them for the spec's.
     */
    public record SpecMutant(String name, String definitions, String substitution) {
    }

    /** The outcome of one trace: accepted or not, with TLC's figures and, if rejected, the verdict. */
    public record Verdict(String trace, boolean accepted, int events, long distinct, double seconds, String why) {
        @Override
        public String toString() {
            return String.format("%-28s %-8s events=%-5d states=%-9d time=%.1fs%s", trace,
                    accepted ? "accepted" : "REJECTED", events, distinct, seconds, accepted ? "" : "\n" + why);
        }
    }

    private final Path jar;
    private final Path specDir;
    private final long timeoutSeconds;

    public TraceCheck(Path jar, Path specDir, long timeoutSeconds) {
        this.jar = jar;
        this.specDir = specDir;
        this.timeoutSeconds = timeoutSeconds;
    }

    public static TraceCheck fromSystemProperties() {
        Tlc tlc = Tlc.fromSystemProperties();
        return new TraceCheck(Path.of(System.getProperty("tlc.jar")), tlc.specDir(), 600);
    }

    public Path specDir() {
        return specDir;
    }

    /** Validates the trace {@code ndjson} against DeliQueue. */
    public Verdict check(Path ndjson) throws IOException, InterruptedException {
        return check(ndjson, null);
    }

    /** Validates the trace {@code ndjson} against DeliQueue with {@code mutant} seeded (null: none). */
    public Verdict check(Path ndjson, SpecMutant mutant) throws IOException, InterruptedException {
        TraceModule trace = TraceModule.read(ndjson);
        String name = ndjson.getFileName().toString().replaceFirst("\\.ndjson$", "")
                + (mutant == null ? "" : "-" + mutant.name());
        Path dir = ndjson.resolveSibling(name + ".tlc");
        Files.createDirectories(dir);
        for (String m : MODULES) {
            Files.copy(specDir.resolve(m), dir.resolve(Path.of(m).getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        String cfg = Files.readString(specDir.resolve("trace/MCTrace.cfg"));
        if (mutant != null) {
            String model = Files.readString(specDir.resolve("trace/MCTrace.tla"));
            Files.writeString(dir.resolve("MCTrace.tla"), model.replace("\n====", "\n" + mutant.definitions() + "\n===="));
            cfg = cfg.replace("    Log <- TLog", "    Log <- TLog\n    " + mutant.substitution());
        }
        Files.writeString(dir.resolve("MCTrace.cfg"), cfg);
        Files.writeString(dir.resolve("TraceLog.tla"), trace.toTla(ndjson.getFileName().toString()));

        Tlc tlc = new Tlc(jar, dir);
        Tlc.Result r = tlc.tlc("MCTrace", "MCTrace", 1, timeoutSeconds);
        boolean accepted = r.exit() == 12 && "TraceIncomplete".equals(r.violated());
        if (accepted) {
            return new Verdict(name, true, trace.events(), r.distinct(), r.seconds(), "");
        }
        if (r.exit() == 12 || r.exit() == 13) {
            return new Verdict(name, false, trace.events(), r.distinct(), r.seconds(), "The trace is a behaviour of "
                    + "DeliQueue up to a state that violates the obligation " + Tlc.violated(r, dir)
                    + " (TLC's trace below: the last state or step breaks it):\n" + Tlc.tail(r.output()));
        }
        if (r.exit() != 0) {
            return new Verdict(name, false, trace.events(), r.distinct(), r.seconds(),
                    "TLC could not decide (exit " + r.exit() + "):\n" + Tlc.tail(r.output()));
        }
        Path dump = dir.resolve("states.dump");
        tlc.tlc("MCTrace", "MCTrace", 1, timeoutSeconds, "-dump", dump.toAbsolutePath().toString());
        return new Verdict(name, false, trace.events(), r.distinct(), r.seconds(), explain(trace, dump));
    }

    /** The spec threads of {@code trace}'s finished Java threads that have not returned in the dumped {@code state}. */
    static List<String> unreturned(TraceModule trace, String state) {
        Matcher looper = LOOPER_PC.matcher(state);
        Matcher block = PCS.matcher(state);
        String pcs = block.find() ? block.group(1) : "";
        List<String> out = new ArrayList<>();
        for (String t : trace.ended()) {
            Matcher pc = Pattern.compile("\\b" + Pattern.quote(t) + " \\|-> \"(\\w+)\"").matcher(pcs);
            String at = t.equals("Looper") ? (looper.find() ? looper.group(1) : "?") : pc.find() ? pc.group(1) : "?";
            if (!Set.of("done", "failed", "exit").contains(at)) {
                out.add(t + " (at " + at + ")");
            }
        }
        return out;
    }

    /**
     * The verdict of a rejected trace: from a state that matched the most events (TLC's dump, of which TLC writes
     * {@code dump} or {@code dump.dump}), each thread's first unmatched event, and that state.
     */
    static String explain(TraceModule trace, Path dump) throws IOException {
        Path file = Files.exists(dump) ? dump : dump.resolveSibling(dump.getFileName() + ".dump");
        String states = Files.readString(file);
        Matcher m = STATE.matcher(states);
        List<Integer> starts = new ArrayList<>();
        while (m.find()) {
            starts.add(m.start());
        }
        String best = null;
        int[] bestCur = null;
        for (int k = 0; k < starts.size(); k++) {
            String state = states.substring(starts.get(k), k + 1 < starts.size() ? starts.get(k + 1) : states.length());
            Matcher c = CURSORS.matcher(state);
            if (!c.find()) {
                continue;
            }
            int[] cur = Arrays.stream(c.group(1).split(",\\s*")).mapToInt(Integer::parseInt).toArray();
            if (bestCur == null || Arrays.stream(cur).sum() > Arrays.stream(bestCur).sum()) {
                best = state;
                bestCur = cur;
            }
        }
        if (best == null) {
            return "no state of the spec matches even the start of the trace (Init failed)";
        }
        StringBuilder why = new StringBuilder();
        int matched = Arrays.stream(bestCur).sum() - bestCur.length;
        if (matched == trace.events()) {
            why.append("Every event was matched, but no behaviour that matches them all has returned each operation of "
                    + "a Java thread that finished: the log of ").append(unreturned(trace, best)).append(" stops short "
                    + "of its last step. A state that matched every event:\n");
            return why.append(best.strip().replaceAll("(?m)^", "  ")).toString();
        }
        why.append("No behaviour of DeliQueue matches the whole trace: at most ").append(matched).append(" of ")
                .append(trace.events()).append(" events were matched. From a state that matched that many, no thread's "
                + "next event can be matched:\n");
        for (int i = 0; i < bestCur.length; i++) {
            TraceModule.ThreadLog t = trace.threads().get(i);
            if (bestCur[i] <= t.events().size()) {
                JsonNode e = t.events().get(bestCur[i] - 1);
                why.append(String.format("  %s, event %d of %d: %s%n", t.thread(), bestCur[i], t.events().size(),
                        trace.record(e)));
            }
        }
        why.append("The spec state before them:\n").append(best.strip().replaceAll("(?m)^", "  "));
        return why.toString();
    }
}
