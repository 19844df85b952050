package org.deliqueue.obligations;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The proof-obligation trace: spec -> code -> checkers, read from the repository, in the spirit of awslabs/duvet.
 *
 * <ul>
 *   <li><b>Obligations</b>: the definitions of {@value #SPEC} preceded by {@code \* obligation: <statement>}; the
 *       definition's name is the obligation ID. The spec is the source of truth for the list.
 *   <li><b>Code sites</b>: {@code // obligation: ID[, ID...]} comments in {@value #CODE}, on the line above the
 *       statement that discharges the obligation.
 *   <li><b>Checkers</b>: the same comment at class level in every checker source ({@link #CHECKER_ROOTS}); the
 *       TLC CI model's {@code INVARIANT}/{@code PROPERTY} lines ({@value #CI_MODEL}); the spec mutants of
 *       {@value #MANIFEST} (negative controls, each naming the obligation it must violate).
 *   <li><b>Spec citations of code</b>: every {@code Class.member} of an impl class named in a comment of the spec,
 *       and the Java method each action {@code method_step} names, must still exist in {@value #CODE}.
 *   <li><b>Negative controls</b>: each seeded bug of {@value #MUTANTS} must be declared by at least one checker,
 *       with {@code // negative control: NAME} at class level (or jcstress's {@code @MutantTwin("NAME")} or
 *       {@code @MutantTwin(value = "NAME", ...)}).
 *   <li><b>Verdicts</b>: the last results of each checker: surefire reports and jcstress's JUnit XML.
 * </ul>
 *
 * {@link #problems()} is what {@code make test} enforces; {@link #markdown()} is {@code docs/obligations.md}.
 */
public final class TraceMatrix {
    static final String SPEC = "spec/DeliQueue.tla";
    /** Protocol slices with obligations of their own (issue 18: DeliQueueRemoval, atomic bulk removal). */
    static final List<String> SLICES = List.of("spec/DeliQueueRemoval.tla");
    static final String CI_MODEL = "spec/MC.cfg";
    static final String MANIFEST = "spec/models.manifest";
    static final String CODE = "impl/src/main/java";
    static final String MUTANTS = "impl/src/mutants/java/org/deliqueue/Mutant.java";
    static final List<String> CHECKER_ROOTS =
            List.of("impl/src/test/java", "lincheck/src/test/java", "jcstress/src/main/java", "jpf/src",
                    "trace/src/test/java");

    private static final Pattern OBLIGATION_MARK = Pattern.compile("^\\\\\\* obligation: (.+)$");
    private static final Pattern DEFINITION = Pattern.compile("^(\\w+)\\s*(\\(.*\\))?\\s*==");
    private static final Pattern JAVA_CITATION = Pattern.compile("^\\s*// obligation: (.+)$");
    private static final Pattern CFG_CHECK = Pattern.compile("^\\s*(INVARIANT|PROPERTY)\\s+(\\w+)");
    private static final Pattern SPEC_CODE_REF =
            Pattern.compile("\\b(DeliQueue|Message|MessageHeap|MessageQueue|WakeResource|FieldAccess)\\.(\\w+)");

    /** One obligation of the spec. */
    public record Obligation(String id, String statement, int line, String file) {
        public Obligation(String id, String statement, int line) {
            this(id, statement, line, SPEC);
        }
    }

    /** A citation: obligation {@code id} at {@code file:line}; {@code owner} is a class or a model. */
    public record Site(String id, String file, int line, String owner, String context) {
    }

    private final Path root;
    private final List<Obligation> obligations = new ArrayList<>();
    private final List<Site> codeSites = new ArrayList<>();
    private final List<Site> checkerSites = new ArrayList<>();
    private final List<Site> negativeControls = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> verdicts = new TreeMap<>();
    /** Seeded bug -> the checkers (class, or TLC model) that use it as a negative control. */
    private final Map<String, Set<String>> mutantCheckers = new LinkedHashMap<>();

    private TraceMatrix(Path root) {
        this.root = root;
    }

    /** Reads the trace of the repository at {@code root}. */
    public static TraceMatrix load(Path root) throws IOException {
        TraceMatrix m = new TraceMatrix(root);
        m.readObligations();
        m.readCodeSites();
        m.readCheckers();
        m.checkSpecCitationsOfCode();
        m.readVerdicts();
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
            obligations.add(new Obligation(def.group(1), mark.group(1).strip(), i + 2, file));
        }
    }

    private Set<String> ids() {
        return obligations.stream().map(Obligation::id).collect(Collectors.toCollection(LinkedHashSet::new));
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

    private void readCheckers() throws IOException {
        for (String dir : CHECKER_ROOTS) {
            for (Path file : javaFiles(dir)) {
                checkerSites.addAll(javaCitations(file));
            }
        }
        List<String> cfg = lines(CI_MODEL);
        for (int i = 0; i < cfg.size(); i++) {
            Matcher c = CFG_CHECK.matcher(cfg.get(i));
            if (c.find()) {
                checkerSites.add(new Site(c.group(2), CI_MODEL, i + 1, "TLC MC", cfg.get(i).strip()));
            }
        }
        // model expect distinct depth seconds obligation: a CI model ("pass") checks the obligations its cfg
        // lists (MC.cfg, read above, and the slices' models); a mutant (exit code) must violate its obligation.
        List<String> manifest = lines(MANIFEST);
        for (int i = 0; i < manifest.size(); i++) {
            String[] f = manifest.get(i).strip().split("\\s+");
            if (f.length != 6 || f[0].startsWith("#")) {
                continue;
            }
            if (!f[5].equals("-")) {
                negativeControls.add(new Site(f[5], MANIFEST, i + 1, "TLC " + f[0], "must violate " + f[5]));
            } else if (f[1].equals("pass") && !f[0].equals("MC")) {
                String model = "spec/" + f[0] + ".cfg";
                List<String> lines = lines(model);
                for (int k = 0; k < lines.size(); k++) {
                    Matcher c = CFG_CHECK.matcher(lines.get(k));
                    if (c.find() && SLICES.stream().anyMatch(sl -> sliceDefines(sl, c.group(2)))) {
                        checkerSites.add(new Site(c.group(2), model, k + 1, "TLC " + f[0], lines.get(k).strip()));
                    }
                }
            }
        }
        requireKnown(checkerSites);
        requireKnown(negativeControls);
    }

    private boolean sliceDefines(String slice, String id) {
        return obligations.stream().anyMatch(o -> o.file().equals(slice) && o.id().equals(id));
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
        List<String> spec = lines(SPEC);
        for (int i = 0; i < spec.size(); i++) {
            String line = spec.get(i);
            int comment = line.indexOf("\\*");
            if (comment >= 0) {
                Matcher ref = SPEC_CODE_REF.matcher(line.substring(comment));
                while (ref.find()) {
                    String source = sources.get(ref.group(1));
                    if (source == null || !declares(source, ref.group(2))) {
                        problems.add(SPEC + ":" + (i + 1) + ": cites " + ref.group() + ", which is not in " + CODE);
                    }
                }
            }
            Matcher action = Pattern.compile("^([a-z]\\w*?)_\\w+\\s*(\\(.*\\))?\\s*==").matcher(line);
            if (action.find() && !declares(allCode, action.group(1))) {
                problems.add(SPEC + ":" + (i + 1) + ": action " + line.split("\\s")[0] + " models Java method "
                        + action.group(1) + "(), which is not in " + CODE);
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
        Matcher constant = Pattern.compile("(?m)^    ([A-Z][A-Z_]+)\\(Detection").matcher(Files.readString(enumFile));
        while (constant.find()) {
            mutantCheckers.put(constant.group(1), new LinkedHashSet<>());
        }
        Pattern declared = Pattern.compile("// negative control: (.+)|@MutantTwin\\((?:value\\s*=\\s*)?\"(\\w+)\"");
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

    private String controlsLine(String mutant) {
        return mutantCheckers.get(mutant).stream()
                .map(c -> c + " (" + verdicts.getOrDefault(c.startsWith("TLC") ? "TLC" : c, "not run") + ")")
                .collect(Collectors.joining(", "));
    }

    // ---- verdicts ----

    private void readVerdicts() throws IOException {
        for (String module : List.of("impl", "spec", "lincheck", "jpf", "trace", "obligations")) {
            Path reports = root.resolve(module).resolve("target/surefire-reports");
            if (!Files.isDirectory(reports)) {
                continue;
            }
            try (Stream<Path> xml = Files.list(reports)) {
                for (Path report : xml.filter(p -> p.getFileName().toString().startsWith("TEST-")).toList()) {
                    readSuite(Files.readString(report));
                }
            }
        }
        Path jcstress = root.resolve("jcstress/target/jcstress-junit.xml");
        if (Files.exists(jcstress)) {
            readCases(Files.readString(jcstress));
        }
        Path jpf = root.resolve("jpf/target/jpf-results.md");
        if (Files.exists(jpf)) {
            readJpfTable(Files.readAllLines(jpf, StandardCharsets.UTF_8));
        }
    }

    /** {@code make jpf}'s table: one row per JPF run, harness first, verdict ({@code ok} or not) last. */
    private void readJpfTable(List<String> rows) {
        Map<String, int[]> byHarness = new TreeMap<>();
        for (String row : rows) {
            String[] cells = row.split("(?<!\\\\)\\|");
            if (cells.length < 3 || !row.startsWith("| ") || row.startsWith("| harness") || row.startsWith("|---")) {
                continue;
            }
            int[] counts = byHarness.computeIfAbsent(cells[1].strip(), k -> new int[2]);
            counts[0]++;
            if (!cells[cells.length - 1].strip().equals("ok")) {
                counts[1]++;
            }
        }
        byHarness.forEach((harness, n) -> verdicts.put(harness,
                n[1] == 0 ? "pass (" + n[0] + " JPF runs)" : "**FAIL** (" + n[1] + " of " + n[0] + " JPF runs)"));
    }

    /** Per test class: tests and failures summed over its suites (surefire executions). */
    private final Map<String, int[]> suiteCounts = new TreeMap<>();

    private void readSuite(String xml) {
        Matcher suite = Pattern.compile("<testsuite[^>]*>").matcher(xml);
        if (!suite.find()) {
            return;
        }
        String head = suite.group();
        String name = attribute(head, "name");
        int tests = Integer.parseInt(attribute(head, "tests"));
        int bad = Integer.parseInt(attribute(head, "failures")) + Integer.parseInt(attribute(head, "errors"));
        String owner = name.substring(name.lastIndexOf('.') + 1);
        // One class may run in several surefire executions (impl's clock runs): its verdict sums them all.
        int[] sum = suiteCounts.computeIfAbsent(owner, k -> new int[2]);
        sum[0] += tests;
        sum[1] += bad;
        verdicts.put(owner, sum[1] == 0 ? "pass (" + sum[0] + ")" : "**FAIL** (" + sum[1] + " of " + sum[0] + ")");
        if (owner.equals("SpecModelsTest")) {
            verdicts.put("TLC", verdicts.get(owner));
        }
    }

    /** jcstress's JUnit XML: one testcase per jcstress test, grouped by top-level class. */
    private void readCases(String xml) {
        Map<String, int[]> byOwner = new TreeMap<>();
        Matcher c = Pattern.compile("<testcase([^>]*?)(/>|>(.*?)</testcase>)", Pattern.DOTALL).matcher(xml);
        while (c.find()) {
            String cls = attribute(c.group(1), "classname"); // the top-level class; name is the nested test
            String owner = cls.substring(cls.lastIndexOf('.') + 1);
            int[] counts = byOwner.computeIfAbsent(owner, k -> new int[2]);
            counts[0]++;
            String body = c.group(3) == null ? "" : c.group(3);
            if (body.contains("<failure") || body.contains("<error")) {
                counts[1]++;
            }
        }
        byOwner.forEach((owner, n) -> verdicts.put(owner,
                n[1] == 0 ? "pass (" + n[0] + ")" : "**FAIL** (" + n[1] + " of " + n[0] + ")"));
    }

    private static String attribute(String tag, String name) {
        Matcher a = Pattern.compile("\\b" + name + "=\"([^\"]*)\"").matcher(tag);
        return a.find() ? a.group(1) : "";
    }

    private String verdictOf(Site checker) {
        String key = checker.owner().startsWith("TLC") ? "TLC" : checker.owner();
        return verdicts.getOrDefault(key, "not run");
    }

    private static String checkerName(Site s) {
        String module = s.file().substring(0, s.file().indexOf('/'));
        return s.owner().startsWith("TLC") ? s.owner() : module + ": " + s.owner();
    }

    // ---- output ----

    /** docs/obligations.md. */
    public String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("# Proof obligations: spec -> code -> checkers\n\n")
                .append("Generated by `make obligations` (`org.deliqueue.obligations.TraceMatrix`) from `")
                .append(SPEC).append("`, the `// obligation:` citations and the last checker results. ")
                .append("Do not edit by hand. `make test` fails when an obligation lacks a code site or a checker, ")
                .append("when a citation names an unknown obligation, or when the spec cites code that no longer ")
                .append("exists.\n\n");
        b.append("| obligation | statement | spec | code sites | checkers (last verdict) | negative controls |\n")
                .append("|---|---|---|---|---|---|\n");
        for (Obligation o : obligations) {
            b.append("| `").append(o.id()).append("` | ").append(o.statement()).append(" | `").append(o.file())
                    .append(":").append(o.line()).append("` | ");
            b.append(codeSites.stream().filter(s -> s.id().equals(o.id()))
                    .map(s -> "`" + s.file().substring(s.file().lastIndexOf('/') + 1) + ":" + s.line() + "`")
                    .collect(Collectors.joining("<br>")));
            b.append(" | ");
            b.append(checkersOf(o.id()).stream().map(s -> checkerName(s) + " (" + verdictOf(s) + ")")
                    .distinct().collect(Collectors.joining("<br>")));
            b.append(" | ");
            b.append(negativeControls.stream().filter(s -> s.id().equals(o.id())).map(Site::owner)
                    .collect(Collectors.joining("<br>")));
            b.append(" |\n");
        }
        b.append("\n## Negative controls\n\nEach seeded bug (`").append(MUTANTS).append("`, and the spec's own ")
                .append("mutant models) and the checkers that must catch it; a checker's verdict is a pass only if ")
                .append("it caught every mutant it runs.\n\n| seeded bug | checkers (last verdict) |\n|---|---|\n");
        mutantCheckers.keySet().forEach(mu -> b.append("| `").append(mu).append("` | ")
                .append(controlsLine(mu).replace(", ", "<br>")).append(" |\n"));
        b.append("\n## Code sites\n\n| obligation | site | code |\n|---|---|---|\n");
        codeSites.stream().sorted(Comparator.comparing(Site::id))
                .forEach(s -> b.append("| `").append(s.id()).append("` | `").append(s.file()).append(":")
                        .append(s.line()).append("` | `").append(s.context().replace("|", "\\|")).append("` |\n"));
        return b.toString();
    }

    private List<Site> checkersOf(String id) {
        return checkerSites.stream().filter(s -> s.id().equals(id)).toList();
    }

    /** The closing screen of {@code make verify}: each obligation and its verdict per checker. */
    public String screen() {
        List<String> columns = checkerSites.stream().map(s -> s.owner().startsWith("TLC") ? "TLC"
                : s.file().substring(0, s.file().indexOf('/'))).distinct().toList();
        StringBuilder b = new StringBuilder(String.format("%-20s", "obligation"));
        columns.forEach(c -> b.append(String.format(" %-9s", c)));
        b.append('\n');
        for (Obligation o : obligations) {
            b.append(String.format("%-20s", o.id()));
            for (String column : columns) {
                List<Site> cs = checkersOf(o.id()).stream().filter(s -> (s.owner().startsWith("TLC") ? "TLC"
                        : s.file().substring(0, s.file().indexOf('/'))).equals(column)).toList();
                String v = cs.isEmpty() ? "-" : cs.stream().map(this::verdictOf).anyMatch(x -> x.contains("FAIL"))
                        ? "FAIL" : cs.stream().map(this::verdictOf).allMatch(x -> x.startsWith("pass")) ? "pass"
                        : "not run";
                b.append(String.format(" %-9s", v));
            }
            b.append('\n');
        }
        b.append("\nnegative controls (seeded bug: checkers that must catch it, last verdict)\n");
        mutantCheckers.keySet().forEach(mu -> b.append(String.format("  %-36s %s%n", mu, controlsLine(mu))));
        return b.toString();
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
            Files.writeString(root.resolve("docs/obligations.md"), m.markdown(), StandardCharsets.UTF_8);
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
