package org.deliqueue.spec;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TLC counterexample as a reviewer reads it: one row per step, named by the Java method the step models, with
 * the variables it changed and the Java fields they stand for.
 *
 * <p>Algorithm. {@link #parse} reads TLC's error trace ({@code State N: <label>} followed by {@code /\ var = value}
 * lines, possibly ending in {@code Stuttering} or {@code Back to state M}) and flattens every value: a record
 * {@code [f |-> v]} becomes {@code var.f}, a function {@code (k :> v @@ ...)} becomes {@code var[k]}, recursively;
 * sets and sequences stay whole. A step's changes are the flattened entries whose text differs from the previous
 * state's. The step's action comes from its label when TLC names one ({@code <push_casTop(m1) line 193, ...>} or
 * {@code <push_casTop line 193, ...>}); when TLC names only the next-state relation ({@code <Next line ...>}) it is
 * inferred from the spec: every action of {@code DeliQueue.tla} opens with a guard on a program counter
 * ({@code pc[t] = "label"} or {@code L.pc = "label"}), so the thread whose counter changed (or the Looper, when
 * only its locals {@code L} changed, or {@code tick} when only the clock did) took the action guarded by its counter's
 * value before the step. The Java method is the action name's prefix before {@code _} ({@code push_casTop} ->
 * {@code DeliQueue.push}), except where the spec's name differs from the method's ({@link #METHOD_OF}); a
 * variable's Java field is the head of its comment in the spec's {@code VARIABLES} block.
 *
 * <p>{@code main MODEL}: {@code make tlc-explain MODEL=...} runs TLC ({@code -workers 1}) on {@code MODEL.tla}
 * with {@code MODEL.cfg} (in {@code spec/models/} or {@code spec/mutants/}), prints the table and writes it to {@code spec/target/tlc-explain/MODEL.md}, with the manifest's word on
 * the verdict ({@link #judge}), the violated property's definition ({@link #definition}) and the final state in full;
 * exits 0 when the verdict is the one manifest.json gives the model (or the model has no entry), 1 when it is not,
 * 2 when TLC failed without a trace (a parse error, a crash).
 */
public final class TlcTrace {

    /** The spec's action-name prefixes whose Java method has another name. */
    static final Map<String, String> METHOD_OF = Map.of(
            "quit", "DeliQueue.quitQueue",
            "tick", "the clock (Clock.uptimeMillis() advances)");

    /** One state of the trace: its number, TLC's label, and its variables flattened. */
    public record State(int number, String label, Map<String, String> values) {
    }

    /** One explained step: the action that led to state {@code number} and what it changed. */
    public record Step(int number, String action, String thread, String method, boolean inferred,
                       Map<String, String[]> changes) {
    }

    /** The parsed trace: its states, and how it ends for a liveness counterexample ({@code null}: it just ends). */
    public record Trace(List<State> states, String ending) {
    }

    /** The next-state relation's name: TLC labels a step with it when it cannot name the action. */
    static final String NEXT = "Next";
    private static final Pattern STATE = Pattern.compile("^State (\\d+): (.*)$");
    private static final Pattern BACK_TO = Pattern.compile("^(?:State )?(\\d+): Back to state:? (\\d+)(.*)$");
    private static final Pattern NAMED = Pattern.compile(
            "^<(\\w+)(?:\\(([^)]*)\\))? line \\d+, col \\d+ to line \\d+, col \\d+ of module (\\w+)>$");

    // ---------------------------------------------------------------------------------------- parsing TLC

    /** The error trace in TLC's output; an empty trace if there is none. */
    public static Trace parse(String tlcOutput) {
        List<State> states = new ArrayList<>();
        String ending = null;
        String label = null;
        int number = 0;
        Map<String, String> values = null;
        String var = null;
        StringBuilder value = null;
        for (String line : tlcOutput.split("\\R")) {
            Matcher st = STATE.matcher(line);
            Matcher back = BACK_TO.matcher(line);
            boolean header = st.matches() || back.matches();
            boolean conjunct = values != null && line.startsWith("/\\ ");
            boolean continuation = values != null && var != null && !header && !conjunct && !line.isBlank();
            if (continuation) {
                value.append(' ').append(line.strip());
                continue;
            }
            if (var != null) {
                values.put(var, value.toString());
                var = null;
            }
            if (values != null && !conjunct) {
                states.add(new State(number, label, Collections.unmodifiableMap(flatten(values))));
                values = null;
            }
            if (back.matches()) {
                ending = "back to state " + back.group(2);
            } else if (st.matches() && st.group(2).strip().equals("Stuttering")) {
                ending = "stutters forever";
            } else if (st.matches()) {
                number = Integer.parseInt(st.group(1));
                label = st.group(2).strip();
                values = new LinkedHashMap<>();
            } else if (conjunct) {
                int eq = line.indexOf(" = ");
                var = line.substring(3, eq).strip();
                value = new StringBuilder(line.substring(eq + 3).strip());
            }
        }
        if (values != null) {
            if (var != null) {
                values.put(var, value.toString());
            }
            states.add(new State(number, label, Collections.unmodifiableMap(flatten(values))));
        }
        return new Trace(states, ending);
    }

    /** Flattens each variable's value into {@code var.field} / {@code var[key]} entries, in a stable order. */
    static Map<String, String> flatten(Map<String, String> vars) {
        Map<String, String> out = new LinkedHashMap<>();
        vars.forEach((name, text) -> new ValueReader(text).flattenInto(name, out));
        return out;
    }

    /**
     * A reader of one TLC value: records, functions written {@code (k :> v @@ ...)}, and leaves (sets, sequences,
     * strings, numbers, model values), each leaf kept as its text with white space normalized.
     */
    private static final class ValueReader {
        private final String s;
        private int i;

        ValueReader(String s) {
            this.s = s;
        }

        void flattenInto(String path, Map<String, String> out) {
            skip();
            if (s.startsWith("[", i) && isRecord()) {
                i++;
                do {
                    skip();
                    String field = ident();
                    expect("|->");
                    flattenInto(path + "." + field, out);
                    skip();
                } while (eat(","));
                expect("]");
            } else if (s.startsWith("(", i) && isFunction()) {
                i++;
                do {
                    skip();
                    String key = leaf(":>").strip();
                    expect(":>");
                    flattenInto(path + "[" + key + "]", out);
                    skip();
                } while (eat("@@"));
                expect(")");
            } else {
                out.put(path, leaf(null).replaceAll("\\s+", " ").strip());
            }
        }

        private boolean isRecord() {
            return Pattern.compile("\\[\\s*\\w+\\s*\\|->").matcher(s).region(i, s.length()).lookingAt();
        }

        private boolean isFunction() {
            int end = matching(i);
            return s.substring(i, end).contains(":>");
        }

        /** Text up to the end of this value (a top-level {@code ,}, {@code ]}, {@code )}, {@code @@} or {@code stop}). */
        private String leaf(String stop) {
            int start = i;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '"') {
                    i = s.indexOf('"', i + 1) + 1;
                } else if (c == '[' || c == '(' || c == '{' || s.startsWith("<<", i)) {
                    i = matching(i);
                } else if (c == ',' || c == ']' || c == ')' || s.startsWith("@@", i)
                        || stop != null && s.startsWith(stop, i)) {
                    break;
                } else {
                    i++;
                }
            }
            return s.substring(start, i);
        }

        /** The index just past the bracket group that opens at {@code at}. */
        private int matching(int at) {
            int depth = 0;
            int k = at;
            do {
                if (s.charAt(k) == '"') {
                    k = s.indexOf('"', k + 1) + 1;
                    continue;
                }
                if (s.startsWith("<<", k)) {
                    depth++;
                    k += 2;
                    continue;
                }
                if (s.startsWith(">>", k)) {
                    depth--;
                    k += 2;
                    continue;
                }
                char c = s.charAt(k);
                if (c == '[' || c == '(' || c == '{') {
                    depth++;
                } else if (c == ']' || c == ')' || c == '}') {
                    depth--;
                }
                k++;
            } while (depth > 0 && k < s.length());
            return k;
        }

        private String ident() {
            int start = i;
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                i++;
            }
            return s.substring(start, i);
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private boolean eat(String token) {
            skip();
            if (s.startsWith(token, i)) {
                i += token.length();
                return true;
            }
            return false;
        }

        private void expect(String token) {
            if (!eat(token)) {
                throw new IllegalArgumentException("TLC value: expected " + token + " at " + i + " in " + s);
            }
        }
    }

    // ---------------------------------------------------------------------------------------- the spec

    /** What the spec says: each variable's comment, and each action's program-counter guard. */
    public record Spec(Map<String, String> comments, List<Guard> guards) {

        /** An action guarded by {@code counter = label}; {@code param} is the thread parameter, or null. */
        record Guard(String action, String param, String counter, Set<String> labels) {
        }

        private static final Pattern VARIABLE = Pattern.compile("^\\s+(\\w+),?\\s+\\\\\\* (.*)$");
        private static final Pattern DEFINITION = Pattern.compile("^(\\w+)(?:\\((\\w+)\\))? ==\\s*$");
        private static final Pattern GUARD = Pattern.compile(
                "^\\s*/\\\\ (pc\\[(\\w+)\\]|L\\.pc) (=|\\\\in) (\"\\w+\"|\\{[^}]*\\})\\s*$");

        /** Reads {@code module.tla}: the VARIABLES block's comments, and the guard opening each definition. */
        public static Spec read(Path moduleFile) throws IOException {
            List<String> lines = Files.readAllLines(moduleFile, StandardCharsets.UTF_8);
            Map<String, String> comments = new LinkedHashMap<>();
            List<Guard> guards = new ArrayList<>();
            boolean inVariables = false;
            for (int k = 0; k < lines.size(); k++) {
                String line = lines.get(k);
                if (line.startsWith("VARIABLES")) {
                    inVariables = true;
                    continue;
                }
                if (inVariables) {
                    Matcher v = VARIABLE.matcher(line);
                    if (v.matches()) {
                        comments.put(v.group(1), v.group(2).strip());
                    } else if (!line.strip().startsWith("\\*")) {
                        inVariables = false;
                    }
                }
                Matcher d = DEFINITION.matcher(line);
                if (d.matches() && k + 1 < lines.size()) {
                    Matcher g = GUARD.matcher(lines.get(k + 1));
                    if (g.matches()) {
                        String counter = g.group(2) == null ? "L.pc" : "pc[" + g.group(2) + "]";
                        Set<String> labels = new LinkedHashSet<>();
                        Matcher q = Pattern.compile("\"(\\w+)\"").matcher(g.group(4));
                        while (q.find()) {
                            labels.add(q.group(1));
                        }
                        String param = g.group(2) != null && g.group(2).equals(d.group(2)) ? d.group(2) : null;
                        guards.add(new Guard(d.group(1), param, counter, labels));
                    }
                }
            }
            return new Spec(comments, guards);
        }

        /** The Java field a variable stands for: its comment's head, when the comment opens with {@code Class.member}. */
        String javaField(String variable) {
            String c = comments.get(variable);
            if (c == null) {
                return null;
            }
            return c.matches("^[A-Z]\\w*\\.\\w+.*") ? c.split(" \\(|[:;,]", 2)[0].strip() : null;
        }
    }

    // ---------------------------------------------------------------------------------------- explaining

    /** Explains every step of {@code trace} after the initial state. */
    public static List<Step> explain(Trace trace, Spec spec) {
        List<Step> steps = new ArrayList<>();
        for (int k = 1; k < trace.states().size(); k++) {
            State before = trace.states().get(k - 1);
            State after = trace.states().get(k);
            Map<String, String[]> changes = new LinkedHashMap<>();
            Set<String> keys = new LinkedHashSet<>(before.values().keySet());
            keys.addAll(after.values().keySet());
            for (String key : sorted(keys, before, after)) {
                String old = before.values().get(key);
                String now = after.values().get(key);
                if (!Objects.equals(old, now)) {
                    changes.put(key, new String[] {old, now});
                }
            }
            Matcher named = NAMED.matcher(after.label());
            String action;
            String thread;
            boolean inferred;
            String module = "DeliQueue";
            if (named.matches() && !named.group(1).equals(NEXT)) {
                action = named.group(1);
                thread = named.group(2) != null ? named.group(2) : actor(spec, action, before, changes);
                module = named.group(3);
                inferred = false;
            } else {
                String[] guess = infer(spec, before, changes);
                action = guess[0];
                thread = guess[1];
                inferred = true;
            }
            steps.add(new Step(after.number(), action, thread, method(module, action), inferred, changes));
        }
        return steps;
    }

    /** The variables in the order the states list them. */
    private static List<String> sorted(Set<String> keys, State before, State after) {
        List<String> order = new ArrayList<>(before.values().keySet());
        after.values().keySet().stream().filter(k -> !order.contains(k)).forEach(order::add);
        order.retainAll(keys);
        return order;
    }

    /** [action, thread] for a step TLC did not name: see the class comment. */
    static String[] infer(Spec spec, State before, Map<String, String[]> changes) {
        for (String key : changes.keySet()) {
            Matcher pc = Pattern.compile("^pc\\[(\\w+)\\]$").matcher(key);
            if (pc.matches()) {
                String thread = pc.group(1);
                return new String[] {guarded(spec, "pc[" + thread + "]", thread, before.values().get(key)), thread};
            }
        }
        if (changes.keySet().stream().anyMatch(k -> k.startsWith("L."))) {
            return new String[] {guarded(spec, "L.pc", null, before.values().get("L.pc")), "Looper"};
        }
        if (changes.keySet().equals(Set.of("now"))) {
            return new String[] {"tick", "-"};
        }
        return new String[] {"?", "?"};
    }

    /** The action whose guard is {@code counter = label} (for {@code thread}, a parameter or that constant). */
    private static String guarded(Spec spec, String counter, String thread, String quotedLabel) {
        String label = quotedLabel == null ? "" : quotedLabel.replace("\"", "");
        for (Spec.Guard g : spec.guards()) {
            boolean sameCounter = g.counter().equals(counter)
                    || g.param() != null && thread != null && g.counter().equals("pc[" + g.param() + "]");
            if (sameCounter && g.labels().contains(label)) {
                return g.action();
            }
        }
        return "? (" + counter + " was " + quotedLabel + ")";
    }

    /** The thread of a named action without arguments: the one whose counter guards it. */
    private static String actor(Spec spec, String action, State before, Map<String, String[]> changes) {
        for (Spec.Guard g : spec.guards()) {
            if (g.action().equals(action)) {
                if (g.counter().equals("L.pc")) {
                    return "Looper";
                }
                if (g.param() == null) {
                    return g.counter().substring(3, g.counter().length() - 1);
                }
            }
        }
        return infer(spec, before, changes)[1];
    }

    /** The Java method an action models: {@code DeliQueue.} + the name's prefix before {@code _}. */
    static String method(String module, String action) {
        String prefix = action.contains("_") ? action.substring(0, action.indexOf('_')) : action;
        if (prefix.startsWith("?")) {
            return "?";
        }
        return METHOD_OF.getOrDefault(prefix, module + "." + prefix);
    }

    // ---------------------------------------------------------------------------------------- the table

    /** The explanation as Markdown: the verdict, the initial state, one row per step, the variables' legend. */
    public static String table(String model, String verdict, Trace trace, Spec spec) {
        StringBuilder b = new StringBuilder();
        b.append("## TLC on ").append(model).append("\n\n").append(verdict).append("\n\n");
        if (trace.states().isEmpty()) {
            return b.append("TLC printed no error trace.\n").toString();
        }
        b.append("Initial state:\n\n").append(stateInFull(trace.states().get(0)));
        List<Step> steps = explain(trace, spec);
        b.append("\n| state | Java method | thread | TLA+ action | what changed |\n|---|---|---|---|---|\n");
        Set<String> used = new LinkedHashSet<>();
        for (Step s : steps) {
            List<String> cells = new ArrayList<>();
            s.changes().forEach((k, v) -> {
                String var = variable(k);
                used.add(var);
                String field = spec.javaField(var);
                cells.add("`" + k + "`" + (field == null ? "" : " (" + field + ")") + ": "
                        + (v[0] == null ? "-" : v[0]) + " → " + (v[1] == null ? "-" : v[1]));
            });
            b.append("| ").append(s.number()).append(" | ").append(s.method()).append(" | ").append(s.thread())
                    .append(" | ").append(s.action()).append(s.inferred() ? " (inferred)" : "").append(" | ")
                    .append(cells.isEmpty() ? "nothing (stuttering step)" : String.join("; ", cells).replace("|", "\\|"))
                    .append(" |\n");
        }
        if (trace.ending() != null) {
            b.append("| ... | | | | the behaviour ").append(trace.ending()).append(" |\n");
        }
        if (steps.stream().anyMatch(Step::inferred)) {
            b.append("\n(inferred): TLC named no action for the step (its label is the whole next-state relation); the "
                    + "action is the one the spec guards by the program counter that changed.\n");
        }
        State last = trace.states().get(trace.states().size() - 1);
        b.append("\nFinal state (state ").append(last.number()).append("), in full:\n\n").append(stateInFull(last));
        b.append("\nVariables (from the spec's VARIABLES block):\n\n");
        for (String var : used) {
            b.append("- `").append(var).append("`: ").append(spec.comments().getOrDefault(var, "?")).append('\n');
        }
        return b.toString();
    }

    /**
     * A state in full, one line per variable: its flattened entries ({@code .field = value}, {@code [key] = value})
     * in the order TLC prints them.
     */
    static String stateInFull(State state) {
        StringBuilder b = new StringBuilder();
        Map<String, List<String>> byVariable = new LinkedHashMap<>();
        state.values().forEach((k, v) -> byVariable.computeIfAbsent(variable(k), x -> new ArrayList<>())
                .add(k.equals(variable(k)) ? v : k.substring(variable(k).length()) + " = " + v));
        byVariable.forEach((var, entries) -> b.append("    ").append(var).append(entries.size() == 1
                && !entries.get(0).contains(" = ") ? " = " + entries.get(0) : ": " + String.join(", ", entries))
                .append('\n'));
        return b.toString();
    }

    /** The variable of a flattened entry ({@code L} of {@code L.pc}, {@code pc} of {@code pc[m1]}). */
    private static String variable(String key) {
        return key.split("[.\\[]", 2)[0];
    }

    /** The obligation a failed run violated: TLC's name for it, or for a temporal one the model's only PROPERTY. */
    public static String obligation(Tlc.Result r, Path specDir) throws IOException {
        String named = Tlc.violated(r, specDir);
        if (named != null) {
            return named;
        }
        Path cfg = Manifest.file(specDir, r.model(), ".cfg");
        if (r.exit() == 13 && Files.exists(cfg)) {
            List<String> props = Files.readAllLines(cfg).stream().map(String::strip)
                    .filter(l -> l.startsWith("PROPERTY")).map(l -> l.split("\\s+")[1]).toList();
            return props.size() == 1 ? props.get(0) : "one of the temporal properties " + props;
        }
        return null;
    }

    /** TLC's verdict in one sentence. */
    public static String verdict(Tlc.Result r, Path specDir) throws IOException {
        return switch (r.exit()) {
            case 0 -> "TLC found no violation (" + r.distinct() + " distinct states, depth " + r.depth() + ").";
            case 12 -> "TLC exit 12: invariant or action property **" + obligation(r, specDir) + "** violated.";
            case 13 -> "TLC exit 13: temporal property **" + obligation(r, specDir) + "** violated.";
            case 11 -> "TLC exit 11: deadlock reached.";
            case 14 -> "TLC exit 14: an Assert failed.";
            default -> "TLC exit " + r.exit() + " (not a model-checking verdict: see TLC's output).";
        };
    }

    // ---------------------------------------------------------------------------------------- the manifest's word

    /** Whether a run is what manifest.json expects of its model, and the sentence that says so. */
    public record Judgement(boolean expected, String text) {
    }

    /**
     * A run against its manifest entry ({@code e}; null: the model has none). A mutant is expected when TLC exits
     * with the manifest's {@code exitCode} and names its {@code violates}; a CI model when TLC passes with the
     * manifest's distinct states and depth; a long model when TLC passes. {@code named} is the obligation TLC's
     * output names ({@link #obligation}), null when it names none.
     */
    public static Judgement judge(Tlc.Result r, Tlc.Expectation e, String named) {
        if (e == null) {
            return new Judgement(true, "not in manifest.json: no expected verdict to compare with.");
        }
        String found = r.exit() == 0 ? "TLC found no violation"
                : r.exit() == 12 || r.exit() == 13 ? "TLC exit " + r.exit() + " names " + named + " as violated"
                : "TLC exit " + r.exit() + " (no model-checking verdict)";
        if (e.mutant()) {
            int code = Integer.parseInt(e.expect());
            if (r.exit() == code && e.obligation().equals(named)) {
                return new Judgement(true, "expected: TLC reports " + e.obligation() + " violated (exit " + code
                        + "), as manifest.json says.");
            }
            return new Judgement(false, "UNEXPECTED: manifest.json says " + e.model() + " must violate "
                    + e.obligation() + " (exit " + code + "); " + found + ".");
        }
        if (r.exit() != 0) {
            return new Judgement(false, "UNEXPECTED: manifest.json says " + e.model() + " has no violation; " + found
                    + ".");
        }
        if (e.expect().equals("pass") && (r.distinct() != e.distinct() || r.depth() != e.depth())) {
            return new Judgement(false, String.format("UNEXPECTED: manifest.json says %s has %d distinct states, "
                    + "depth %d; TLC found %d, depth %d.", e.model(), e.distinct(), e.depth(), r.distinct(), r.depth()));
        }
        return new Judgement(true, "expected: TLC found no violation, as manifest.json says.");
    }

    /** The modules where an obligation's definition is looked up, in order (the model's own module after them). */
    static final List<String> DEFINING = List.of("DeliQueueProperties", "DeliQueue");

    /**
     * The text of {@code name}'s definition, with the {@code \*} comment lines right above it and the file and line
     * it is at: looked up in {@link #DEFINING}, then in {@code model}'s module; null when none defines it. The
     * definition runs to the first blank line or the next line that starts in column 0.
     */
    public static String definition(String name, Path specDir, String model) throws IOException {
        List<String> modules = new ArrayList<>(DEFINING);
        if (model != null) {
            modules.add(model);
        }
        Pattern head = Pattern.compile("^" + Pattern.quote(name) + "\\s*(?:\\([^)]*\\))?\\s*==.*");
        for (String module : modules) {
            Path file = Manifest.file(specDir, module, ".tla");
            if (!Files.exists(file)) {
                continue;
            }
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int k = 0; k < lines.size(); k++) {
                if (!head.matcher(lines.get(k)).matches()) {
                    continue;
                }
                int from = k;
                while (from > 0 && lines.get(from - 1).startsWith("\\*")) {
                    from--;
                }
                int to = k + 1;
                while (to < lines.size() && !lines.get(to).isBlank() && Character.isWhitespace(lines.get(to).charAt(0))) {
                    to++;
                }
                return specDir.getFileName().resolve(specDir.relativize(file)) + ":" + (k + 1) + "\n" + String.join("\n", lines.subList(from, to));
            }
        }
        return null;
    }

    /** Writes {@code specDir/target/tlc-explain/MODEL.md} for a run and returns the table. */
    public static String write(Tlc.Result r, Path specDir) throws IOException {
        return render(r, specDir, verdict(r, specDir));
    }

    /**
     * {@link #write(Tlc.Result, Path)} for {@code make tlc-explain}: the verdict is followed by the manifest's word on
     * it ({@link #judge}; {@code expected} null: the model's entry is not known) and by the violated obligation's
     * definition ({@link #definition}).
     */
    public static String write(Tlc.Result r, Path specDir, Tlc.Expectation expected) throws IOException {
        String verdict = verdict(r, specDir);
        String named = r.exit() == 0 ? null : obligation(r, specDir);
        verdict += "\n\n" + judge(r, expected, named).text();
        if (named != null) {
            String text = definition(named, specDir, r.model());
            verdict += "\n\nThe violated property, " + (text == null ? named + ": no definition found in "
                    + DEFINING + " or " + r.model() + ".tla"
                    : "as " + text.lines().findFirst().orElse("") + " states it:\n\n"
                            + text.lines().skip(1).map(l -> "    " + l).collect(java.util.stream.Collectors.joining("\n")));
        }
        return render(r, specDir, verdict);
    }

    private static String render(Tlc.Result r, Path specDir, String verdict) throws IOException {
        String module = "DeliQueue";
        Matcher m = Pattern.compile("of module (\\w+)>").matcher(r.output());
        if (m.find()) {
            module = m.group(1);
        }
        String md = table(r.model(), verdict, parse(r.output()), Spec.read(Manifest.file(specDir, module, ".tla")));
        Path out = specDir.resolve("target").resolve("tlc-explain").resolve(r.model() + ".md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, md, StandardCharsets.UTF_8);
        return md;
    }

    public static void main(String[] args) throws IOException, InterruptedException, URISyntaxException {
        if (args.length != 1) {
            System.err.println("usage: TlcTrace MODEL   (MODEL.tla with MODEL.cfg in spec/models, spec/mutants or spec/)");
            System.exit(2);
        }
        Path specDir = Paths.get(System.getProperty("spec.dir", ".")).toAbsolutePath();
        Path jar;
        try {
            jar = Tlc.jar(Paths.get(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString(), System.getenv("TLC_JAR"));
        } catch (IllegalStateException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        if (!Files.exists(Manifest.file(specDir, args[0], ".tla")) || !Files.exists(Manifest.file(specDir, args[0], ".cfg"))) {
            System.err.println("no " + args[0] + ".tla with " + args[0] + ".cfg in " + specDir);
            System.exit(2);
        }
        Tlc.Result r = new Tlc(jar, specDir).tlc(args[0], args[0], 1, Long.getLong("tlc.timeout", 3600));
        System.out.println(r.summary());
        String md = write(r, specDir, Manifest.read(specDir).stream().filter(e -> e.model().equals(args[0]))
                .findFirst().orElse(null));
        System.out.println(md);
        System.out.println("written to " + specDir.resolve("target/tlc-explain/" + args[0] + ".md"));
        if (r.exit() != 0 && parse(r.output()).states().isEmpty()) {
            System.out.println(Tlc.tail(r.output()));
            System.exit(2);
        }
        if (md.contains("\nUNEXPECTED: ")) {
            System.exit(1);
        }
    }
}
