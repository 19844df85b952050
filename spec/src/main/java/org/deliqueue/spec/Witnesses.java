package org.deliqueue.spec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reachability witnesses: an obligation passes vacuously in a model that never reaches the situation
 * it speaks of. Each spec names, per obligation, the situations that make it non-trivial ({@code StateWitnesses},
 * {@code StepWitnesses}); each CI model reports them through {@code spec/Witness.tla}, which prints
 * {@code <<"witness declared", obligation, name>>} for each witness the model declares and
 * {@code <<"witness reached", obligation, name>>} the first time a state or step satisfies one.
 *
 * <p>A witness counts for its obligation only in a model that checks that obligation (its cfg's INVARIANT and
 * PROPERTY lines, {@code RefinementSafety} standing for {@code Refinement}). The check fails when a witness is
 * reached by no such model, or when a CI model checks an obligation for which it declares no witness.
 */
public final class Witnesses {

    /** One witness: the obligation it makes non-trivial and the situation's name. */
    public record Witness(String obligation, String name) implements Comparable<Witness> {
        @Override
        public int compareTo(Witness o) {
            int c = obligation.compareTo(o.obligation);
            return c != 0 ? c : name.compareTo(o.name);
        }

        @Override
        public String toString() {
            return obligation + "/" + name;
        }
    }

    /** What one CI model run checked, declared and reached. */
    public record Run(String model, Set<String> checks, Set<Witness> declared, Set<Witness> reached) {
    }

    private static final Pattern LINE =
            Pattern.compile("^<<\"witness (declared|reached)\", \"(\\w+)\", \"(\\w+)\">>$", Pattern.MULTILINE);
    private static final Pattern CHECK = Pattern.compile("^\\s*(INVARIANT|PROPERTY)\\s+(\\w+)");
    /** Checks that stand for an obligation under another name: the safety part of a refinement. */
    private static final Map<String, String> ALIASES = Map.of("RefinementSafety", "Refinement");

    private Witnesses() {
    }

    /** The run of {@code model} read from TLC's output and the model's cfg in {@code specDir}. */
    public static Run of(String model, String tlcOutput, Path specDir) throws IOException {
        Set<Witness> declared = new TreeSet<>();
        Set<Witness> reached = new TreeSet<>();
        Matcher m = LINE.matcher(tlcOutput);
        while (m.find()) {
            (m.group(1).equals("declared") ? declared : reached).add(new Witness(m.group(2), m.group(3)));
        }
        return new Run(model, checks(Manifest.file(specDir, model, ".cfg")), declared, reached);
    }

    /** The obligations a cfg checks (INVARIANT and PROPERTY lines, aliases resolved). */
    public static Set<String> checks(Path cfg) throws IOException {
        Set<String> out = new TreeSet<>();
        for (String line : Files.readAllLines(cfg)) {
            Matcher c = CHECK.matcher(line);
            if (c.find()) {
                out.add(ALIASES.getOrDefault(c.group(2), c.group(2)));
            }
        }
        return out;
    }

    /** Per declared witness, the models that reach it while checking its obligation (empty: vacuous). */
    public static Map<Witness, List<String>> reach(List<Run> runs) {
        Map<Witness, List<String>> out = new TreeMap<>();
        for (Run r : runs) {
            for (Witness w : r.declared()) {
                List<String> models = out.computeIfAbsent(w, k -> new ArrayList<>());
                if (r.checks().contains(w.obligation()) && r.reached().contains(w)) {
                    models.add(r.model());
                }
            }
        }
        return out;
    }

    /** What is wrong: witnesses no model reaches while checking their obligation; obligations without witness. */
    public static List<String> problems(List<Run> runs) {
        List<String> out = new ArrayList<>();
        for (Run r : runs) {
            Set<String> declaredFor = new TreeSet<>();
            r.declared().forEach(w -> declaredFor.add(w.obligation()));
            for (String o : r.checks()) {
                if (!declaredFor.contains(o)) {
                    out.add(r.model() + " checks " + o + " but declares no witness of it");
                }
            }
        }
        reach(runs).forEach((w, models) -> {
            if (models.isEmpty()) {
                out.add("witness " + w + " is reached by no CI model that checks " + w.obligation());
            }
        });
        if (runs.stream().allMatch(r -> r.declared().isEmpty())) {
            out.add("no CI model reported its witnesses (CONSTRAINT StateWitnessReport missing?)");
        }
        return out;
    }

    /** Prints, per obligation and witness, the models that reach it; returns {@link #problems}. */
    public static List<String> report(List<Run> runs, PrintStream out) {
        out.println("Witnesses: per obligation, the situations that make it non-trivial, and the CI models"
                + " that reach them while checking it:");
        String last = "";
        for (Map.Entry<Witness, List<String>> e : reach(runs).entrySet()) {
            Witness w = e.getKey();
            if (!w.obligation().equals(last)) {
                out.println("  " + w.obligation());
                last = w.obligation();
            }
            out.printf("    %-26s %s%n", w.name(), e.getValue().isEmpty() ? "NOT REACHED" : String.join(", ", e.getValue()));
        }
        List<String> problems = problems(runs);
        problems.forEach(p -> out.println("FAILED: " + p));
        return problems;
    }
}
