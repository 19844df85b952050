package org.deliqueue.obligations;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The obligation trace: spec -> code -> checks, read from the repository, in the spirit of awslabs/duvet.
 *
 * <p>An obligation is a named property of the TLA+ specification. Nothing here is proved: TLC checks each
 * obligation on the bounded models of {@value #MANIFEST}, and the tests, Lincheck, jcstress, JPF and trace validation
 * check the Java code against it on the runs they make; the spec's {@code THEOREM}s state the obligations but carry
 * no proof.
 *
 * <ul>
 *   <li><b>Obligations</b>: the definitions of {@value #SPEC} (and of the {@link #SLICES}) preceded by
 *       {@code \* obligation: <statement>}; the definition's name is the obligation ID, and the comment above the
 *       mark, the statement and the definition are what the matrix shows. The spec is the only list.
 *   <li><b>Code sites</b>: {@code // obligation: ID[, ID...]} comments in {@value #CODE}, on the line above the
 *       statement that discharges the obligation. That statement must run: it must stand in a method that
 *       production code reaches ({@link ProductionCode}); a field declaration is a site of {@value #TYPE_INVARIANT}
 *       alone, whose Java counterpart is the declared type of the fields the spec's variables stand for (javac
 *       checks every write against it).
 *   <li><b>Checkers</b>: the same comment at class level in every checker source ({@link #CHECKER_ROOTS}); the
 *       {@code INVARIANT}/{@code PROPERTY} lines of each CI model of {@value #MANIFEST} (a line checks the obligation
 *       it names, or, for a property that is not one, the obligation its comment names: {@code PROPERTY
 *       RefinementSafety \* obligation Refinement, ...}), for the obligations of the module the model extends; the
 *       spec mutants of {@value #MANIFEST} (negative controls, each naming the obligation it must violate).
 *   <li><b>Spec citations of code</b>: every {@code Class.member} of an impl class named in a comment of the spec,
 *       and the Java method each action {@code method_step} names, must still exist in {@value #CODE}.
 *   <li><b>Negative controls</b>: each seeded bug of {@value #MUTANTS} must be declared by at least one checker,
 *       with {@code // negative control: NAME} at class level (or jcstress's {@code @MutantTwin("NAME")} or
 *       {@code @MutantTwin(value = "NAME", ...)}), and names the obligations it violates (its {@code violates}, the
 *       constructor's second argument), which must be the spec's: the summary lists it, with its checkers' verdicts,
 *       under each of them beside the spec's mutants, a kill table per obligation.
 *   <li><b>Verdicts</b>: the test cases of each checker's last run here ({@link CheckResults}).
 * </ul>
 *
 * {@link #problems()} is what {@code make test} enforces; {@link #markdown} is {@code docs/obligations.md}.
 */
public final class TraceMatrix {
    static final String SPEC = "spec/DeliQueue.tla";
    /**
     * The other modules with obligations: the protocol's properties (every obligation but TypeOK, the refinement
     * mappings, the witnesses).
     */
    static final List<String> SLICES = List.of(TraceMatrix.PROPERTIES);
    /** The protocol's properties, which EXTENDS the protocol: its comments cite code as the protocol's do. */
    static final String PROPERTIES = "spec/DeliQueueProperties.tla";
    static final String MANIFEST = "spec/manifest.json";
    /** The folders of spec/ that hold modules, in the order a module is looked up (TLC's TLA-Library order). */
    static final List<String> SPEC_FOLDERS = List.of("spec", "spec/models", "spec/mutants", "spec/trace");
    static final String CODE = "impl/src/main/java";
    static final String MUTANTS = "impl/src/mutants/java/org/deliqueue/Mutant.java";
    static final List<String> CHECKER_ROOTS =
            List.of("impl/src/test/java", "lincheck/src/test/java", "jcstress/src/main/java", "jpf/src",
                    "trace/src/test/java");
    /** The one obligation a field declaration may discharge: the type invariant. */
    static final String TYPE_INVARIANT = "TypeOK";

    private static final Pattern OBLIGATION_MARK = Pattern.compile("^\\\\\\* obligation: (.+)$");
    private static final Pattern TLA_COMMENT = Pattern.compile("^\\\\\\*\\s?(.*)$");
    private static final Pattern DEFINITION = Pattern.compile("^(\\w+)\\s*(\\(.*\\))?\\s*==");
    private static final Pattern JAVA_CITATION = Pattern.compile("^\\s*// obligation: (.+)$");
    private static final Pattern CFG_CHECK =
            Pattern.compile("^\\s*(INVARIANT|PROPERTY)\\s+(\\w+)\\s*(?:\\\\\\*\\s*obligation\\s+(\\w+))?");
    private static final Pattern CFG_CONSTANT = Pattern.compile("^\\s+(\\w+)\\s*(<-|=)\\s*(.+?)\\s*\\\\\\*\\s*(.*)$");
    private static final Pattern SPEC_CODE_REF =
            Pattern.compile("\\b(DeliQueue|Message|MessageHeap|MessageQueue|WakeResource|FieldAccess)\\.(\\w+)");

    /**
     * One obligation of the spec: its ID, the statement of its mark, the comment above the mark (empty if none),
     * its definition's text, and where that definition stands.
     */
    public record Obligation(String id, String statement, String comment, String definition, int line, String file) {
    }

    /** A citation: obligation {@code id} at {@code file:line}; {@code owner} is a class or a model. */
    public record Site(String id, String file, int line, String owner, String context) {
    }

    /**
     * A CI model of the manifest: its name, its .cfg, its bounds (the constants the .cfg gives), and the distinct
     * states and depth a pass must reach.
     */
    record Model(String name, String cfg, String bounds, String distinct, String depth) {
    }

    private final Path root;
    private final List<Obligation> obligations = new ArrayList<>();
    private final List<Site> codeSites = new ArrayList<>();
    private final List<Site> checkerSites = new ArrayList<>();
    private final List<Site> negativeControls = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    /** Seeded bug -> the checkers (class, or TLC model) that use it as a negative control. */
    private final Map<String, Set<String>> mutantCheckers = new LinkedHashMap<>();
    /** Seeded bug of {@value #MUTANTS} -> the obligations it violates (its {@code violates}; none: beyond the spec). */
    private final Map<String, List<String>> mutantViolates = new LinkedHashMap<>();
    /** Checker -> the report its results are read from, as the matrix names it. */
    private final Map<String, String> reportOf = new TreeMap<>();
    /** TLC model name -> its bounds. */
    private final Map<String, Model> models = new LinkedHashMap<>();
    private ProductionCode production;
    private CheckResults results;

    private TraceMatrix(Path root) {
        this.root = root;
    }

    /** Reads the trace of the repository at {@code root}. */
    public static TraceMatrix load(Path root) throws IOException {
        TraceMatrix m = new TraceMatrix(root);
        m.readObligations();
        m.readCodeSites();
        m.checkCodeSitesRun();
        m.readCheckers();
        m.checkSpecCitationsOfCode();
        m.results = CheckResults.read(root);
        m.readMutants();
        m.checkCoverage();
        return m;
    }

    public List<Obligation> obligations() {
        return obligations;
    }

    public List<Site> codeSites() {
        return codeSites;
    }

    public List<Site> checkerSites() {
        return checkerSites;
    }

    /** Every broken link of the trace; empty when the trace holds. */
    public List<String> problems() {
        return problems;
    }

    // ---- reading ----

    private List<String> lines(String relative) throws IOException {
        return Files.readAllLines(root.resolve(relative), StandardCharsets.UTF_8);
    }

    private void readObligations() throws IOException {
        readObligations(SPEC);
        if (obligations.isEmpty()) {
            problems.add(SPEC + ": no obligation found (expected '\\* obligation: <statement>' above definitions)");
        }
        for (String slice : SLICES) {
            if (Files.exists(root.resolve(slice))) {
                readObligations(slice);
            }
        }
    }

    private void readObligations(String file) throws IOException {
        List<String> spec = lines(file);
        for (int i = 0; i < spec.size(); i++) {
            Matcher mark = OBLIGATION_MARK.matcher(spec.get(i));
            if (!mark.matches()) {
                continue;
            }
            Matcher def = i + 1 < spec.size() ? DEFINITION.matcher(spec.get(i + 1)) : null;
            if (def == null || !def.find()) {
                problems.add(file + ":" + (i + 1) + ": '\\* obligation:' must stand right above a definition");
                continue;
            }
            obligations.add(new Obligation(def.group(1), mark.group(1).strip(), commentAbove(spec, i),
                    definitionAt(spec, i + 1), i + 2, file));
        }
    }

    /** The {@code \*} comment lines right above line {@code i}, as one paragraph. */
    private static String commentAbove(List<String> spec, int i) {
        int first = i;
        while (first > 0 && TLA_COMMENT.matcher(spec.get(first - 1)).matches()
                && !OBLIGATION_MARK.matcher(spec.get(first - 1)).matches()) {
            first--;
        }
        return spec.subList(first, i).stream().map(l -> {
            Matcher c = TLA_COMMENT.matcher(l);
            return c.matches() ? c.group(1).strip() : l;
        }).collect(Collectors.joining(" "));
    }

    /** A definition's text: its first line and the indented lines that continue it. */
    private static String definitionAt(List<String> spec, int i) {
        int end = i + 1;
        while (end < spec.size() && !spec.get(end).isBlank() && Character.isWhitespace(spec.get(end).charAt(0))) {
            end++;
        }
        return String.join("\n", spec.subList(i, end));
    }

    private Set<String> ids() {
        return obligations.stream().map(Obligation::id).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private Obligation obligation(String id) {
        return obligations.stream().filter(o -> o.id().equals(id)).findFirst().orElse(null);
    }

    private List<Path> javaFiles(String relativeRoot) throws IOException {
        Path dir = root.resolve(relativeRoot);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    private List<Site> javaCitations(Path file) throws IOException {
        List<String> text = Files.readAllLines(file, StandardCharsets.UTF_8);
        String relative = root.relativize(file).toString();
        String owner = file.getFileName().toString().replace(".java", "");
        List<Site> sites = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            Matcher c = JAVA_CITATION.matcher(text.get(i));
            if (!c.matches()) {
                continue;
            }
            int codeLine = i + 1;
            while (codeLine < text.size() && JAVA_CITATION.matcher(text.get(codeLine)).matches()) {
                codeLine++;
            }
            String context = codeLine < text.size() ? text.get(codeLine).strip() : "";
            if (context.isEmpty()) {
                problems.add(relative + ":" + (i + 1) + ": a citation must stand above the code it cites");
            }
            for (String id : c.group(1).split(",")) {
                sites.add(new Site(id.strip(), relative, codeLine + 1, owner, context));
            }
        }
        return sites;
    }

    private void readCodeSites() throws IOException {
        for (Path file : javaFiles(CODE)) {
            codeSites.addAll(javaCitations(file));
        }
        requireKnown(codeSites);
    }

    /**
     * Every code site must be code that runs: a line of a method production code reaches, or, for the type
     * invariant alone, a field declaration.
     */
    private void checkCodeSitesRun() throws IOException {
        production = ProductionCode.parse(root, javaFiles(CODE));
        for (Site s : codeSites) {
            ProductionCode.Place at = production.at(s.file(), s.line());
            String where = s.file() + ":" + s.line() + ": the site of " + s.id() + " ";
            if (at.field() != null && !s.id().equals(TYPE_INVARIANT)) {
                problems.add(where + "is the declaration of field " + at.field().owner() + "." + at.field().name()
                        + ", which runs nothing (only " + TYPE_INVARIANT + ", the type invariant, may cite a "
                        + "field): cite the statement that discharges it");
            } else if (at.field() == null && at.member() == null) {
                problems.add(where + "is in no method of " + CODE + ": cite the statement that discharges it");
            } else if (at.member() != null && !at.reached()) {
                problems.add(where + "is in " + at.member().display() + ", which production code never calls "
                        + "(no public API member or @Override reaches it in " + CODE + "; tests, mutants and "
                        + "checker helpers do not count): cite the code that runs instead");
            }
        }
    }

    private void readCheckers() throws IOException {
        for (String dir : CHECKER_ROOTS) {
            for (Path file : javaFiles(dir)) {
                List<Site> sites = javaCitations(file);
                checkerSites.addAll(sites);
                sites.forEach(s -> reportOf.put(s.owner(), reportFor(s.file())));
            }
        }
        // A CI model (result "success", not long) checks the obligations its cfg lists; a mutant (exitCode) must
        // violate its obligation (violates).
        for (Map<String, Object> m : manifestModels()) {
            String path = (String) m.get("path");
            String name = path.substring(path.lastIndexOf('/') + 1).replaceFirst("\\.cfg$", "");
            reportOf.put("TLC " + name, CheckResults.TLC);
            if (m.get("violates") != null) {
                String id = (String) m.get("violates");
                negativeControls.add(new Site(id, MANIFEST, (Integer) m.get("@line"), "TLC " + name, "must violate " + id));
            } else if ("success".equals(m.get("result")) && !Boolean.TRUE.equals(m.get("long"))) {
                readModel(name, path, String.valueOf(m.get("distinctStates")), String.valueOf(m.get("stateDepth")));
            }
        }
        requireKnown(checkerSites);
        requireKnown(negativeControls);
    }

    /**
     * The models of {@value #MANIFEST} (tlaplus/Examples' shape: modules, each with its models): each model's
     * fields, with "@line" the line its entry starts on.
     */
    private List<Map<String, Object>> manifestModels() throws IOException {
        List<Map<String, Object>> out = new ArrayList<>();
        List<Map<String, Object>> open = new ArrayList<>();
        try (JsonParser p = new JsonFactory().createParser(root.resolve(MANIFEST).toFile())) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.START_OBJECT) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("@line", p.currentLocation().getLineNr());
                    open.add(m);
                } else if (t == JsonToken.END_OBJECT) {
                    Map<String, Object> m = open.remove(open.size() - 1);
                    if (m.get("path") instanceof String path && path.endsWith(".cfg")) {
                        out.add(m);
                    }
                } else if (t.isScalarValue() && !open.isEmpty() && p.getParsingContext().inObject()) {
                    open.get(open.size() - 1).put(p.currentName(),
                            t == JsonToken.VALUE_NULL ? null : t.isBoolean() ? (Object) p.getBooleanValue() : p.getText());
                }
            }
        }
        out.sort((a, b) -> Integer.compare((Integer) a.get("@line"), (Integer) b.get("@line")));
        return out;
    }

    /** A CI model: its bounds, and the obligations of the module it extends that its cfg checks. */
    private void readModel(String name, String cfg, String distinct, String depth) throws IOException {
        Set<String> modules = extendedModules(name, new LinkedHashSet<>());
        List<String> lines = lines(cfg);
        List<String> bounds = new ArrayList<>();
        for (int k = 0; k < lines.size(); k++) {
            Matcher constant = CFG_CONSTANT.matcher(lines.get(k));
            if (constant.find() && !constant.group(3).equals(constant.group(1))) {
                bounds.add(constant.group(2).equals("=") ? constant.group(1) + " = " + constant.group(3)
                        : constant.group(1) + ": " + constant.group(4));
            }
            Matcher check = CFG_CHECK.matcher(lines.get(k));
            if (!check.find()) {
                continue;
            }
            String id = obligation(check.group(2)) != null ? check.group(2) : check.group(3);
            Obligation o = id == null ? null : obligation(id);
            if (o != null && modules.contains(o.file())) {
                checkerSites.add(new Site(id, cfg, k + 1, "TLC " + name, lines.get(k).strip()));
            }
        }
        models.put(name, new Model(name, cfg, String.join("; ", bounds), distinct, depth));
    }

    /** The modules of spec/ that {@code module} extends, directly or through others, as paths. */
    private Set<String> extendedModules(String module, Set<String> found) throws IOException {
        String path = SPEC_FOLDERS.stream().map(f -> f + "/" + module + ".tla")
                .filter(f -> Files.exists(root.resolve(f))).findFirst().orElse("spec/" + module + ".tla");
        Path file = root.resolve(path);
        if (!Files.exists(file) || !found.add(path)) {
            return found;
        }
        Matcher extended = Pattern.compile("(?m)^EXTENDS\\s+(.+)$").matcher(Files.readString(file));
        if (extended.find()) {
            for (String name : extended.group(1).split("\\s*,\\s*")) {
                extendedModules(name.strip(), found);
            }
        }
        return found;
    }

    /** Where the results of a checker declared in {@code file} are read. */
    private static String reportFor(String file) {
        if (file.startsWith("jcstress/")) {
            return CheckResults.JCSTRESS;
        }
        if (file.startsWith("jpf/src/main/")) {
            return CheckResults.JPF;
        }
        return file.substring(0, file.indexOf('/')) + "/target/surefire-reports";
    }

    private void requireKnown(List<Site> sites) {
        Set<String> known = ids();
        for (Site s : sites) {
            if (!known.contains(s.id())) {
                problems.add(s.file() + ":" + s.line() + ": cites unknown obligation '" + s.id() + "' (known: "
                        + String.join(", ", known) + ")");
            }
        }
    }

    /** Every impl member the spec names, and every Java method an action is named after, must exist. */
    private void checkSpecCitationsOfCode() throws IOException {
        Map<String, String> sources = new LinkedHashMap<>();
        for (Path file : javaFiles(CODE)) {
            sources.put(file.getFileName().toString().replace(".java", ""), Files.readString(file));
        }
        String allCode = String.join("\n", sources.values());
        for (String module : List.of(SPEC, PROPERTIES)) {
            if (!Files.exists(root.resolve(module))) {
                continue;
            }
            List<String> spec = lines(module);
            for (int i = 0; i < spec.size(); i++) {
                String line = spec.get(i);
                int comment = line.indexOf("\\*");
                if (comment >= 0) {
                    Matcher ref = SPEC_CODE_REF.matcher(line.substring(comment));
                    while (ref.find()) {
                        String source = sources.get(ref.group(1));
                        if (source == null || !declares(source, ref.group(2))) {
                            problems.add(module + ":" + (i + 1) + ": cites " + ref.group() + ", which is not in " + CODE);
                        }
                    }
                }
                Matcher action = Pattern.compile("^([a-z]\\w*?)_\\w+\\s*(\\(.*\\))?\\s*==").matcher(line);
                if (action.find() && !declares(allCode, action.group(1))) {
                    problems.add(module + ":" + (i + 1) + ": action " + line.split("\\s")[0] + " models Java method "
                            + action.group(1) + "(), which is not in " + CODE);
                }
            }
        }
    }

    private static boolean declares(String source, String member) {
        return Pattern.compile("\\b" + Pattern.quote(member) + "\\b\\s*(\\(|=|;|,)").matcher(source).find();
    }

    private void checkCoverage() {
        mutantCheckers.forEach((mutant, checkers) -> {
            if (checkers.isEmpty()) {
                problems.add("seeded bug " + mutant + " (" + MUTANTS + ") is no checker's negative control");
            }
        });
        for (Obligation o : obligations) {
            if (codeSites.stream().noneMatch(s -> s.id().equals(o.id()))) {
                problems.add(o.id() + " (" + o.file() + ":" + o.line() + ") has no code site: cite it with "
                        + "'// obligation: " + o.id() + "' above the code that discharges it in " + CODE);
            }
            if (checkerSites.stream().noneMatch(s -> s.id().equals(o.id()))) {
                problems.add(o.id() + " (" + o.file() + ":" + o.line() + ") has no checker");
            }
        }
    }

    // ---- negative controls ----

    private void readMutants() throws IOException {
        Path enumFile = root.resolve(MUTANTS);
        if (!Files.exists(enumFile)) {
            return;
        }
        Matcher constant = Pattern.compile("(?m)^    ([A-Z][A-Z_]+)\\(Detection\\.\\w+,\\s*\"([^\"]*)\"")
                .matcher(Files.readString(enumFile));
        Set<String> known = ids();
        while (constant.find()) {
            mutantCheckers.put(constant.group(1), new LinkedHashSet<>());
            List<String> violates = constant.group(2).isBlank() ? List.of()
                    : Arrays.stream(constant.group(2).split(",")).map(String::strip).toList();
            mutantViolates.put(constant.group(1), violates);
            violates.stream().filter(id -> !known.contains(id)).forEach(id -> problems.add("seeded bug "
                    + constant.group(1) + " (" + MUTANTS + ") violates unknown obligation '" + id + "'"));
        }
        // A comment line of its own (a string that contains the words, as MutantDetectionTest's parser has, is not one)
        Pattern declared = Pattern.compile("(?m)^// negative control: (.+)|@MutantTwin\\((?:value\\s*=\\s*)?\"(\\w+)\"");
        for (String dir : CHECKER_ROOTS) {
            for (Path file : javaFiles(dir)) {
                String owner = file.getFileName().toString().replace(".java", "");
                Matcher d = declared.matcher(Files.readString(file));
                while (d.find()) {
                    String names = d.group(1) != null ? d.group(1) : d.group(2);
                    for (String name : names.split(",")) {
                        Set<String> checkers = mutantCheckers.get(name.strip());
                        if (checkers == null) {
                            problems.add(root.relativize(file) + ": negative control names unknown seeded bug '"
                                    + name.strip() + "'");
                        } else {
                            checkers.add(owner);
                            reportOf.put(owner, reportFor(root.relativize(file).toString()));
                        }
                    }
                }
            }
        }
        for (Site control : negativeControls) {
            String model = control.owner().substring("TLC ".length());
            String mutant = model.startsWith("MC_") ? model.substring(3) : model;
            mutantCheckers.computeIfAbsent(mutant, k -> new LinkedHashSet<>()).add(control.owner());
        }
    }

    // ---- verdicts ----

    /** A checker's verdict over its cases in this checkout's reports, or where none was found. */
    private String verdictOf(String checker) {
        String summary = results.summary(checker);
        return summary != null ? summary : "not run here (no case in `" + reportOf.get(checker) + "`)";
    }

    /** The one-word verdict of the closing screen. */
    private String shortVerdict(String checker) {
        String v = verdictOf(checker);
        return v.startsWith("**FAIL**") ? "FAIL" : v.startsWith("pass") ? "pass"
                : v.startsWith("skipped") ? "skipped" : "not run here";
    }

    private String controlsLine(String mutant, String separator) {
        return mutantCheckers.get(mutant).stream().map(c -> c + ": " + verdictOf(c))
                .collect(Collectors.joining(separator));
    }

    /** The checker's column on the screen: TLC, or the module its source is in. */
    private static String column(Site s) {
        return s.owner().startsWith("TLC") ? "TLC" : s.file().substring(0, s.file().indexOf('/'));
    }

    private List<Site> checkersOf(String id) {
        return checkerSites.stream().filter(s -> s.id().equals(id)).toList();
    }

    // ---- output ----

    /** A repository path as a link from {@code docs/}, to its line. */
    private static String link(String file, int line) {
        return "[`" + file + ":" + line + "`](../" + file + "#L" + line + ")";
    }

    /** GitHub's anchor of a heading made of one code span. */
    private static String anchor(String id) {
        return "#" + id.toLowerCase(Locale.ROOT);
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** {@code docs/obligations.md}; {@code provenance} says which commit and when it was generated. */
    public String markdown(String provenance) {
        StringBuilder b = new StringBuilder();
        b.append("# Obligations: spec -> code -> checks\n\n")
                .append("Generated by `make obligations` (`obligations/src/main/java/org/deliqueue/obligations/")
                .append("TraceMatrix.java`) ").append(provenance).append(", from `").append(SPEC).append("`");
        SLICES.stream().filter(sl -> Files.exists(root.resolve(sl))).forEach(sl -> b.append(", `").append(sl).append("`"));
        b.append(", the `// obligation:` citations and the checkers' last reports in this checkout. Do not edit ")
                .append("by hand.\n\n")
                .append("**What an obligation is.** A named property of the TLA+ specification, stated below from ")
                .append("the spec itself (the `\\* obligation:` line above its definition, the comment above ")
                .append("that, and the definition). Obligations are *checked, not proved*: TLC checks each one ")
                .append("exhaustively on the bounded models listed with their bounds below (`spec/manifest.json`), ")
                .append("and the tests, Lincheck, jcstress, JPF and trace validation check the Java code against it ")
                .append("on the runs they make. The `THEOREM`s at the end of the spec modules state the obligations; ")
                .append("no proof of them is written or checked.\n\n")
                .append("**What the build enforces.** `make test` fails when an obligation lacks a code site or a ")
                .append("checker, when a citation names an unknown obligation, when the spec cites code that no ")
                .append("longer exists, and when a code site is not code that runs: a cited statement must stand ")
                .append("in a method that production code reaches from its public API (calls followed by name); ")
                .append("only `").append(TYPE_INVARIANT).append("` may cite a field declaration (its Java ")
                .append("counterpart is the fields' declared types, which javac checks at every write).\n\n")
                .append("**Verdicts.** Per check, its test cases in the last report of this checkout: *pass*, ")
                .append("**FAIL** (a failure or an error), *skipped* (the report says why: JPF not installed, a ")
                .append("test for another architecture), or *not run here* (no case in the report the check ")
                .append("writes: it was not run on this machine since the reports were last written). A class-level ")
                .append("citation makes every test case of the class a check of the obligation. Reports read:\n\n");
        if (results.reports().isEmpty()) {
            b.append("- none: no checker has run in this checkout\n");
        }
        results.reports().stream().collect(Collectors.groupingBy(
                        r -> r.path().substring(0, r.path().lastIndexOf('/')), LinkedHashMap::new, Collectors.toList()))
                .forEach((dir, reports) -> b.append("- `").append(reports.size() == 1 ? reports.get(0).path() : dir)
                        .append("`: ").append(reports.size() == 1 ? "" : reports.size() + " reports, ")
                        .append(reports.stream().mapToInt(CheckResults.Report::cases).sum()).append(" cases, written ")
                        .append(span(reports.stream().map(CheckResults.Report::written).sorted().toList()))
                        .append("\n"));
        b.append("\n## Summary\n\n| obligation | statement | code sites | checks: verdicts | negative controls |\n")
                .append("|---|---|---|---|---|\n");
        for (Obligation o : obligations) {
            b.append("| [`").append(o.id()).append("`](").append(anchor(o.id())).append(") | ")
                    .append(cell(o.statement())).append(" | ")
                    .append(codeSitesOf(o.id()).map(s -> link(s.file(), s.line())).collect(Collectors.joining("<br>")))
                    .append(" | ")
                    .append(checkersOf(o.id()).stream().map(TraceMatrix::column).distinct()
                            .map(col -> col + ": " + columnVerdict(o.id(), col)).collect(Collectors.joining("<br>")))
                    .append(" | ")
                    .append(Stream.concat(negativeControls.stream().filter(s -> s.id().equals(o.id()))
                                    .map(s -> s.owner() + ": " + shortVerdict(s.owner())),
                            mutantViolates.entrySet().stream().filter(e -> e.getValue().contains(o.id()))
                                    .map(e -> "`" + e.getKey() + "`: " + mutantCheckers.get(e.getKey()).stream()
                                            .map(c -> c + " " + shortVerdict(c)).collect(Collectors.joining(", "))))
                            .collect(Collectors.joining("<br>")))
                    .append(" |\n");
        }
        for (Obligation o : obligations) {
            appendObligation(b, o);
        }
        b.append("\n## TLC models\n\nThe CI models of `").append(MANIFEST).append("`: each is checked exhaustively, ")
                .append("within its bounds only (the constants its `.cfg` gives); a pass is TLC's exit 0 with ")
                .append("exactly the distinct states and depth of the manifest.\n\n")
                .append("| model | bounds | distinct states, depth | verdict |\n|---|---|---|---|\n");
        models.values().forEach(model -> b.append("| `").append(model.name()).append("` (")
                .append(link(model.cfg(), 1)).append(") | ").append(cell(model.bounds())).append(" | ")
                .append(model.distinct()).append(", ").append(model.depth()).append(" | ")
                .append(verdictOf("TLC " + model.name())).append(" |\n"));
        b.append("\n## Negative controls\n\nEach seeded bug (`").append(MUTANTS).append("`, and the spec's own ")
                .append("mutant models) and the checkers that must catch it; a checker's verdict is a pass only if ")
                .append("it caught every mutant it runs.\n\n| seeded bug | checkers: last verdict |\n|---|---|\n");
        mutantCheckers.keySet().forEach(mu -> b.append("| `").append(mu).append("` | ")
                .append(controlsLine(mu, "<br>")).append(" |\n"));
        return b.toString();
    }

    /** {@code first} or {@code first to last} of sorted times. */
    private static String span(List<String> times) {
        String first = times.get(0);
        String last = times.get(times.size() - 1);
        return first.equals(last) ? first : first + " to " + last;
    }

    private Stream<Site> codeSitesOf(String id) {
        return codeSites.stream().filter(s -> s.id().equals(id));
    }

    /** One obligation: its statement from the spec, its code sites, its checks with their cases. */
    private void appendObligation(StringBuilder b, Obligation o) {
        b.append("\n## `").append(o.id()).append("`\n\n").append(o.statement()).append(".");
        if (!o.comment().isEmpty()) {
            b.append(" ").append(o.comment());
        }
        b.append("\n\nDefined at ").append(link(o.file(), o.line())).append(":\n\n```tla\n").append(o.definition())
                .append("\n```\n\n**Code sites**\n\n");
        codeSitesOf(o.id()).forEach(s -> {
            ProductionCode.Place at = production.at(s.file(), s.line());
            b.append("- ").append(link(s.file(), s.line())).append(at.member() != null
                    ? " in `" + at.member().display() + "`" : at.field() != null ? " (the field's declared type)" : "")
                    .append(": `").append(s.context()).append("`\n");
        });
        b.append("\n**Checks**\n\n| check | cited at | test cases | verdict |\n|---|---|---|---|\n");
        Map<String, List<Site>> byChecker = checkersOf(o.id()).stream()
                .collect(Collectors.groupingBy(Site::owner, LinkedHashMap::new, Collectors.toList()));
        byChecker.forEach((owner, sites) -> {
            String cited = sites.stream().map(s -> link(s.file(), s.line())).collect(Collectors.joining("<br>"));
            if (owner.startsWith("TLC ")) {
                String model = owner.substring("TLC ".length());
                b.append("| TLC model [`").append(model).append("`](#tlc-models): `")
                        .append(cell(sites.get(0).context().replaceAll("\\s*\\\\\\*.*", ""))).append("`");
            } else {
                b.append("| `").append(owner).append("`");
            }
            b.append(" | ").append(cited).append(" | ").append(casesCell(owner)).append(" | ")
                    .append(verdictOf(owner)).append(" |\n");
        });
    }

    /** The test cases of one checker, collapsed: {@code Class#case: verdict} each. */
    private String casesCell(String checker) {
        List<CheckResults.Case> cases = results.of(checker);
        if (cases.isEmpty()) {
            return "-";
        }
        String separator = checker.startsWith("TLC ") ? "" : reportOf.get(checker).equals(CheckResults.JPF) ? " "
                : reportOf.get(checker).equals(CheckResults.JCSTRESS) ? "." : "#";
        String list = cases.stream().map(c -> "`" + (checker.startsWith("TLC ") ? c.name()
                        : checker + separator + c.name()) + "`: " + c.verdict())
                .collect(Collectors.joining("<br>"));
        return cases.size() == 1 ? list
                : "<details><summary>" + cases.size() + " tests</summary>" + cell(list) + "</details>";
    }

    /** The short verdicts of an obligation's checks in one column (TLC, or a checker module). */
    private List<String> columnVerdicts(String id, String column) {
        return checkersOf(id).stream().filter(s -> column(s).equals(column)).map(Site::owner).distinct()
                .map(this::shortVerdict).toList();
    }

    /** An obligation's verdict in one column, for the summary table. */
    private String columnVerdict(String id, String column) {
        List<String> verdicts = columnVerdicts(id, column);
        if (verdicts.contains("FAIL")) {
            return "**FAIL**";
        }
        long passed = verdicts.stream().filter(v -> v.equals("pass")).count();
        return passed == verdicts.size() ? "pass" : passed == 0 ? String.join(", ", new LinkedHashSet<>(verdicts))
                : "pass " + passed + " of " + verdicts.size() + " checks, others "
                + verdicts.stream().filter(v -> !v.equals("pass")).distinct().collect(Collectors.joining(", "));
    }

    /** The closing screen of {@code make verify}: each obligation and its verdict per checker. */
    public String screen() {
        List<String> columns = checkerSites.stream().map(TraceMatrix::column).distinct().toList();
        StringBuilder b = new StringBuilder(String.format("%-24s", "obligation"));
        columns.forEach(c -> b.append(String.format(" %-12s", c)));
        b.append('\n');
        for (Obligation o : obligations) {
            b.append(String.format("%-24s", o.id()));
            for (String column : columns) {
                List<String> verdicts = columnVerdicts(o.id(), column);
                String v = verdicts.isEmpty() ? "-" : verdicts.contains("FAIL") ? "FAIL"
                        : verdicts.stream().allMatch(x -> x.equals("pass")) ? "pass"
                        : verdicts.contains("pass") ? "partial" : verdicts.get(0);
                b.append(String.format(" %-12s", v));
            }
            b.append('\n');
        }
        b.append("\n(pass: every check passed; partial: some passed, the others did not run here or were skipped)\n")
                .append("\nnegative controls (seeded bug: checkers that must catch it, last verdict)\n");
        mutantCheckers.keySet().forEach(mu -> b.append(String.format("  %-36s %s%n", mu,
                controlsLine(mu, ", ").replace("`", ""))));
        return b.toString();
    }

    /** Which commit the page is generated from, and when: {@code at commit abc1234 (+ local changes), on DATE}. */
    static String provenance(Path root) {
        String commit = git(root, "rev-parse", "--short", "HEAD");
        String dirty = git(root, "status", "--porcelain");
        String when = CheckResults.STAMP.format(Instant.now());
        return (commit == null ? "outside a git checkout (no commit)" : "at commit `" + commit + "`"
                + (dirty == null || dirty.isEmpty() ? "" : " + local changes")) + ", on " + when;
    }

    /** The output of one git command in {@code root}, stripped; null when git fails. */
    private static String git(Path root, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * {@code check}: print the problems and exit 1 if any; {@code write}: also write docs/obligations.md;
     * {@code screen}: print the verdict table. The first argument is the repository root.
     */
    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        String mode = args.length > 1 ? args[1] : "check";
        TraceMatrix m = load(root);
        m.problems().forEach(p -> System.err.println("obligations: " + p));
        if (mode.equals("write")) {
            Files.writeString(root.resolve("docs/obligations.md"), m.markdown(provenance(root)),
                    StandardCharsets.UTF_8);
            System.out.println("wrote docs/obligations.md: " + m.obligations().size() + " obligations, "
                    + m.codeSites().size() + " code sites, " + m.checkerSites().size() + " checker citations");
        } else if (mode.equals("screen")) {
            System.out.print(m.screen());
        }
        if (!m.problems().isEmpty()) {
            System.exit(1);
        }
    }
}
