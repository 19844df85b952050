package org.deliqueue.bench.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Turns one benchmark pass into its page, {@code docs/results-PASS.md}, and its plots; only when asked
 * ({@code --reference}) into the reference page, {@code docs/results.md}, so that a pass on another machine, or a quick
 * one, never rewrites the committed reference page and plots.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.deliqueue.bench.report.Report [--reference] PASS RESULTS_DIR DOCS_DIR</pre>
 *
 * Reads {@code RESULTS_DIR/PASS.json} (JMH, {@code -rf json}) and, when present, {@code PASS-singleshot.json} (the
 * single-shot benchmarks, run apart with more iterations), {@code RESULTS_DIR/PASS-backlog.jsonl} (the busy-queue
 * harness's per-iteration statistics) and {@code RESULTS_DIR/PASS.env} (machine, load and command, written by
 * {@code bench/run.sh}; a key {@code machine} there describes the machine in words); writes
 * {@code DOCS_DIR/}{@link #pageName} and the plots {@code DOCS_DIR/results/PASS-*.png}
 * ({@link Plots}). Every figure on the page is a ratio of two results of the same pass, or a raw result printed
 * next to its partner.
 *
 * <p>JSON is read with Jackson into the records below, whose constructors reject a result without the fields the
 * page needs: a malformed file fails the report instead of printing zeros. A benchmark the page asks for and the
 * pass lacks is printed as n/a and listed in {@link #missing()} (a pass of one class, {@code bench/run.sh quick
 * BusyQueueBench}, is legitimate; the smoke test requires the committed sample to be complete).
 */
public final class Report {
    static final String[] NS = {"0", "1000", "10000", "100000"};

    /** One JMH result, as {@code -rf json} writes it (the fields the page uses). */
    record Result(String benchmark, String mode, int threads, Map<String, String> params, Metric primaryMetric) {
        Result {
            Objects.requireNonNull(benchmark, "JMH result without \"benchmark\"");
            Objects.requireNonNull(primaryMetric, "JMH result without \"primaryMetric\": " + benchmark);
            params = params == null ? Map.of() : params;
        }

        /** {@code Class.method}, the name the page uses. */
        String name() {
            String[] parts = benchmark.split("\\.");
            return parts.length < 2 ? benchmark : parts[parts.length - 2] + "." + parts[parts.length - 1];
        }

        double score() {
            return primaryMetric.score();
        }

        double p(String key) {
            Double v = primaryMetric.scorePercentiles().get(key);
            return v == null ? Double.NaN : v;
        }
    }

    /**
     * JMH's primary metric; {@code score} may be the string "NaN", which Jackson reads as a double; {@code scoreError}
     * (the 99.9% half-interval) is absent or NaN when there were too few iterations.
     */
    record Metric(Double score, Double scoreError, String scoreUnit, Map<String, Double> scorePercentiles) {
        Metric {
            Objects.requireNonNull(score, "JMH primaryMetric without \"score\"");
            Objects.requireNonNull(scoreUnit, "JMH primaryMetric without \"scoreUnit\"");
            scorePercentiles = scorePercentiles == null ? Map.of() : scorePercentiles;
        }
    }

    /** One measurement iteration of the busy-queue harness ({@code Backlog.writeStats}); every field is required. */
    record Stat(String benchmark, String impl, long n, int producers, long inserts, double seconds,
                double producerWaitShare, double meanBacklog, long maxBacklog) {
        Stat {
            Objects.requireNonNull(benchmark, "backlog line without \"benchmark\"");
            Objects.requireNonNull(impl, "backlog line without \"impl\"");
        }
    }

    /** JMH writes many fields the page does not use; the backlog lines are ours, so nothing unknown is allowed. */
    private static final ObjectMapper JMH_JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final ObjectMapper STATS_JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES);

    final List<Result> results = new ArrayList<>();
    final List<Stat> backlog = new ArrayList<>();
    final Map<String, String> env = new LinkedHashMap<>();
    final String pass;
    /** Whether this pass makes the reference page, {@code results.md}, with the notes written for it. */
    final boolean reference;
    /** The files of the pass that were read, in {@code RESULTS_DIR}, for the page's header. */
    final List<String> sources = new ArrayList<>();
    private final Set<String> missing = new TreeSet<>();

    Report(String pass, boolean reference) {
        this.pass = pass;
        this.reference = reference;
    }

    Report(String pass) {
        this(pass, false);
    }

    public static void main(String[] args) throws IOException {
        boolean reference = args.length > 0 && args[0].equals("--reference");
        String[] rest = reference ? java.util.Arrays.copyOfRange(args, 1, args.length) : args;
        if (rest.length != 3 || rest[0].startsWith("-")) {
            System.err.println("usage: Report [--reference] PASS RESULTS_DIR DOCS_DIR");
            System.exit(2);
        }
        Report r = generate(rest[0], Path.of(rest[1]), Path.of(rest[2]), reference);
        System.out.println("wrote " + Path.of(rest[2]).resolve(r.pageName()) + " and " + Plots.NAMES.size()
                + " plots in " + Path.of(rest[2]).resolve("results"));
        if (!r.missing().isEmpty()) {
            System.out.println("not in this pass (n/a on the page): " + String.join(", ", r.missing()));
        }
    }

    /** A pass's own page, {@code results-PASS.md}, and its plots: never the reference page. */
    public static Report generate(String pass, Path resultsDir, Path docsDir) throws IOException {
        return generate(pass, resultsDir, docsDir, false);
    }

    /**
     * Generates the page ({@code results.md} where {@code reference}, else {@code results-PASS.md}) and the plots;
     * returns the report, whose {@link #missing()} the caller may check.
     */
    public static Report generate(String pass, Path resultsDir, Path docsDir, boolean reference) throws IOException {
        System.setProperty("java.awt.headless", "true"); // XChart measures text with AWT fonts; no display here
        Report r = new Report(pass, reference);
        r.load(resultsDir);
        Map<String, String> plots = new Plots(r).write(docsDir.resolve("results"), pass);
        Files.writeString(docsDir.resolve(r.pageName()), r.page(plots), StandardCharsets.UTF_8);
        return r;
    }

    /** This pass's page: {@code results.md} for the reference pass, else {@code results-PASS.md}. */
    public String pageName() {
        return reference ? "results.md" : "results-" + pass + ".md";
    }

    /**
     * Whether this pass ran on the shared 2-core machine the notes were written for: the reference pass, unless its
     * {@code .env} describes another machine ({@code machine} key).
     */
    boolean sharedMachine() {
        return reference && !env.containsKey("machine");
    }

    /** The results the page asked for and the pass lacks ({@code Class.method} with parameters), sorted. */
    public Set<String> missing() {
        return missing;
    }

    void load(Path dir) throws IOException {
        results.addAll(List.of(JMH_JSON.readValue(dir.resolve(pass + ".json").toFile(), Result[].class)));
        sources.add(pass + ".json");
        Path singleShot = dir.resolve(pass + "-singleshot.json"); // RemovalBench, run apart by bench/run.sh
        if (Files.exists(singleShot)) {
            results.addAll(List.of(JMH_JSON.readValue(singleShot.toFile(), Result[].class)));
            sources.add(singleShot.getFileName().toString());
        }
        Path stats = dir.resolve(pass + "-backlog.jsonl");
        if (Files.exists(stats)) {
            sources.add(stats.getFileName().toString());
            for (String line : Files.readAllLines(stats, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    backlog.add(STATS_JSON.readValue(line, Stat.class));
                }
            }
        }
        Path envFile = dir.resolve(pass + ".env");
        if (Files.exists(envFile)) {
            sources.add(envFile.getFileName().toString());
            for (String line : Files.readAllLines(envFile, StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    env.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                }
            }
        }
    }

    Result find(String bench, String... kv) {
        outer:
        for (Result r : results) {
            if (!r.name().equals(bench)) {
                continue;
            }
            for (int k = 0; k < kv.length; k += 2) {
                if (!kv[k + 1].equals(r.params().get(kv[k]))) {
                    continue outer;
                }
            }
            return r;
        }
        missing.add(bench + (kv.length == 0 ? "" : " " + String.join(",", kv)));
        return null;
    }

    static double score(Result r) {
        return r == null ? Double.NaN : r.score();
    }

    static double pct(Result r, String key) {
        return r == null ? Double.NaN : r.p(key);
    }

    /** JMH's error of the score (the 99.9% half-interval); 0 where JMH gave none (too few iterations). */
    static double error(Result r) {
        Double e = r == null ? null : r.primaryMetric().scoreError();
        return e == null || e.isNaN() || e.isInfinite() ? 0 : e;
    }

    /** A score with its error, as the tables print it: "12.3 ± 0.45", or the score alone where JMH gave no error. */
    static String withError(Result r) {
        double e = error(r);
        return fmt(score(r)) + (r == null || e == 0 ? "" : " ± " + fmt(e));
    }

    /** The harness's iterations of one busy-queue configuration; an empty list is recorded as missing. */
    List<Stat> stats(String benchSuffix, String impl, String n) {
        List<Stat> out = backlog.stream().filter(m -> m.benchmark().endsWith(benchSuffix) && impl.equals(m.impl())
                && Long.parseLong(n) == m.n()).toList();
        if (out.isEmpty()) {
            missing.add(benchSuffix + " impl," + impl + ",n," + n + " (backlog statistics)");
        }
        return out;
    }

    /** Mean over the measurement iterations of one statistic of the busy-queue harness. */
    double stat(String benchSuffix, String impl, String n, ToDoubleFunction<Stat> key) {
        return stats(benchSuffix, impl, n).stream().mapToDouble(key).average().orElse(Double.NaN);
    }

    /** Sustained inserts per second (all producers) over the measurement iterations, from the harness. */
    double rate(String benchSuffix, String impl, String n) {
        List<Stat> s = stats(benchSuffix, impl, n);
        double seconds = s.stream().mapToDouble(Stat::seconds).sum();
        return seconds == 0 ? Double.NaN : s.stream().mapToDouble(Stat::inserts).sum() / seconds;
    }

    // ---------------------------------------------------------------------------------------- page

    /** The page; {@code plots} maps each of {@link Plots#NAMES} to its path relative to the page. */
    String page(Map<String, String> plots) {
        StringBuilder b = new StringBuilder();
        String cmd = env.getOrDefault("command", "bench/run.sh " + pass);
        b.append(reference ? "# Benchmark results: the reference pass\n\n" : "# Benchmark results: pass `" + pass
                + "`\n\n");
        b.append("Generated by `org.deliqueue.bench.report.Report` from the pass `").append(pass)
                .append("` in `bench/results/` (");
        for (int k = 0; k < sources.size(); k++) {
            b.append(k == 0 ? "" : ", ").append('`').append(sources.get(k)).append('`');
        }
        b.append("), measured as the table below says; do not edit by hand. To redraw this page and its plots from "
                + "those files: `java -cp bench/target/benchmarks.jar org.deliqueue.bench.report.Report ")
                .append(reference ? "--reference " : "").append(pass).append(" bench/results docs`. ");
        b.append(reference ? "This is the reference page: only `make bench-full REFERENCE=1` (a new full pass) "
                + "replaces it; any other pass, `make bench` or `make bench-full` included, writes its own page, "
                + "`docs/results-PASS-coresN.md`.\n\n"
                : "The reference page, which only `make bench-full REFERENCE=1` replaces, is [results.md](results.md)."
                + "\n\n");
        b.append("| | |\n|---|---|\n");
        b.append("| command | `").append(cmd).append("` |\n");
        b.append("| JMH options | `").append(env.getOrDefault("jmh_options", "?")).append("` |\n");
        b.append("| date | ").append(env.getOrDefault("date", "?")).append(" |\n");
        b.append("| machine | ").append(env.getOrDefault("cores", "?"))
                .append(" cores, ").append(env.containsKey("cpu") ? env.get("cpu") + ", " : "")
                .append(env.getOrDefault("memory", "?"))
                .append(env.containsKey("machine") ? ", " + env.get("machine") : sharedMachine()
                        ? ", **shared** with other engineers' builds and model checkers" : "")
                .append(" |\n");
        b.append("| load average (1, 5, 15 min) | before: ").append(env.getOrDefault("load_before", "?"))
                .append("; after: ").append(env.getOrDefault("load_after", "?")).append(" |\n");
        b.append("| JVM | ").append(env.getOrDefault("jvm", "?")).append(" |\n\n");
        b.append(sharedMachine() ? "Because the machine is shared and noisy, every" : "Every")
                .append(" comparison below is a ratio of two results of this one pass, measured minutes apart under "
                + "the same load. Absolute numbers are printed for context only; do not compare them with other "
                + "machines or passes. A load average above the core count means our threads were time-sliced with "
                + "other work: tails (p99 and up) are the first casualty.\n\n");

        summary(b);
        busySection(b, plots);
        comparatorSection(b);
        casSection(b, plots);
        endToEndSection(b);
        peersSection(b, plots);
        poolSection(b);
        removalSection(b);
        b.append(sharedMachine() ? Notes.text(this) : "The notes on the seed claims and "
                + "the method are on the reference page, [results.md](results.md).\n");
        return b.toString();
    }

    void summary(StringBuilder b) {
        b.append("## Headline\n\n");
        b.append("| busy-queue insertion, how many times DeliQueue is faster | N = 0 | N = 1000 | N = 10000 | N = 100000 |\n"
                + "|---|---|---|---|---|\n");
        for (int p = 1; p <= 2; p++) {
            for (String[] q : new String[][] {{"sustained inserts/s, DeliQueue / legacy", null},
                    {"one insert (p50 time), legacy / DeliQueue", "50.0"}}) {
                b.append("| ").append(p).append(" producer").append(p == 1 ? "" : "s").append(": ").append(q[0]);
                for (String n : NS) {
                    String bench = "BusyQueueBench.producers" + p;
                    Result l = find(bench, "impl", "LEGACY", "n", n);
                    Result d = find(bench, "impl", "DELI", "n", n);
                    b.append(" | ").append(q[1] == null ? ratio(rate(bench, "DELI", n), rate(bench, "LEGACY", n))
                            : ratio(pct(l, q[1]), pct(d, q[1])));
                }
                b.append(" |\n");
            }
        }
        double cas1 = score(find("CasLimitBench.cas1"));
        double enq1 = score(find("CasLimitBench.deliEnqueue1"));
        double cas2 = score(find("CasLimitBench.cas2"));
        double enq2 = score(find("CasLimitBench.deliEnqueue2"));
        b.append("\nDeliQueue `enqueueMessage` reaches ").append(percent(enq1 / cas1)).append(" (1 thread) and ")
                .append(percent(enq2 / cas2)).append(" (2 threads) of a bare CAS loop's throughput. End to end, a "
                + "post-to-dispatch round trip has a median of ")
                .append(fmt(pct(find("EndToEndBench.roundTrip", "impl", "LEGACY"), "50.0"))).append(" µs on the "
                + "legacy queue and ")
                .append(fmt(pct(find("EndToEndBench.roundTrip", "impl", "DELI"), "50.0"))).append(" µs on DeliQueue. "
                + "The branchy comparator takes ")
                .append(ratio(score(find("ComparatorBench.compareBranchy")),
                        score(find("ComparatorBench.compareBranchless"))))
                .append(" the time of the branchless one per comparison (below 1x: branchy is faster here).\n\n");
    }

    void busySection(StringBuilder b, Map<String, String> plots) {
        b.append("## 1. Busy-queue insertion (headline)\n\n");
        b.append("`BusyQueueBench`: the queue holds about N pending future messages; 1 or 2 producer threads "
                + "`enqueueMessage` new messages with random future deadlines while a consumer thread (the Looper's "
                + "role) `poll()`s the earliest whenever more than N are pending. SampleTime mode: the mean time "
                + "per insert (so producer throughput is threads / mean) and its percentiles. When the consumer "
                + "cannot keep up, producers wait for it (to bound memory) and that wait is part of the measured "
                + "time. Two figures per row: the *sustained rate* (inserts per second of wall time, all producers, "
                + "counted by the harness over the measurement iterations: what the whole queue, consumer "
                + "included, sustains) and the *p50* (the cost of one insert that did not wait). JMH's SampleTime "
                + "mean is printed too but is not used for ratios: it samples every 2^k-th operation, and the rare, "
                + "long waits for the consumer make it erratic. See `bench/src/main/java/org/deliqueue/bench/Backlog.java`.\n\n");
        b.append("![busy-queue ratio against N](").append(plots.get("busy-ratio")).append(")\n\n");
        b.append("| producers | N | legacy inserts/s | Deli inserts/s | **rate Deli / legacy** | legacy p50 µs | "
                + "Deli p50 µs | **p50 legacy / Deli** | legacy p99 µs | Deli p99 µs | p99 legacy / Deli | "
                + "legacy / Deli SampleTime mean µs | Deli producers waiting | mean backlog legacy / Deli |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int p = 1; p <= 2; p++) {
            for (String n : NS) {
                String bench = "BusyQueueBench.producers" + p;
                Result l = find(bench, "impl", "LEGACY", "n", n);
                Result d = find(bench, "impl", "DELI", "n", n);
                double rl = rate(bench, "LEGACY", n);
                double rd = rate(bench, "DELI", n);
                b.append("| ").append(p).append(" | ").append(n).append(" | ")
                        .append(fmt(rl)).append(" | ").append(fmt(rd)).append(" | **")
                        .append(ratio(rd, rl)).append("** | ")
                        .append(fmt(pct(l, "50.0"))).append(" | ").append(fmt(pct(d, "50.0"))).append(" | **")
                        .append(ratio(pct(l, "50.0"), pct(d, "50.0"))).append("** | ")
                        .append(fmt(pct(l, "99.0"))).append(" | ").append(fmt(pct(d, "99.0"))).append(" | ")
                        .append(ratio(pct(l, "99.0"), pct(d, "99.0"))).append(" | ")
                        .append(fmt(score(l))).append(" / ").append(fmt(score(d))).append(" | ")
                        .append(percent(stat(bench, "DELI", n, Stat::producerWaitShare))).append(" | ")
                        .append(fmt(stat(bench, "LEGACY", n, Stat::meanBacklog))).append(" / ")
                        .append(fmt(stat(bench, "DELI", n, Stat::meanBacklog))).append(" |\n");
            }
        }
        b.append("\n*Deli producers waiting*: share of producer time spent waiting for the consumer (memory bound "
                + "N + 64 + N/8); where it is high, DeliQueue's sustained rate is its consumer's rate, not "
                + "its insertion cost. Legacy producers waited: ");
        List<String> lw = new ArrayList<>();
        for (int p = 1; p <= 2; p++) {
            for (String n : NS) {
                lw.add(p + "p/N=" + n + " " + percent(stat("BusyQueueBench.producers" + p, "LEGACY", n,
                        Stat::producerWaitShare)));
            }
        }
        b.append(String.join(", ", lw)).append(".\n\n");
        b.append("![busy-queue insertion latency percentiles](").append(plots.get("busy-latency")).append(")\n\n");
    }

    void comparatorSection(StringBuilder b) {
        b.append("## 2. Comparator: branchless vs branchy\n\n");
        b.append("`ComparatorBench` (package `org.deliqueue`, for the package-private `MessageHeap`): "
                + "`MessageHeap.compare` (branchless, `compareLongs`) against upstream's earlier branchy form "
                + "(`signum(when)`, early return, `signum(insertSeq)`), as single comparisons of random pairs and as "
                + "heap operations (remove least + add, on a heap of the given size). AverageTime, ns per "
                + "comparison or per remove+add.\n\n");
        b.append("| workload | branchless ns | branchy ns | branchy / branchless |\n|---|---|---|---|\n");
        Result cl = find("ComparatorBench.compareBranchless");
        Result cb = find("ComparatorBench.compareBranchy");
        b.append("| compare random pairs | ").append(fmt(score(cl))).append(" | ").append(fmt(score(cb)))
                .append(" | ").append(ratio(score(cb), score(cl))).append(" |\n");
        for (String size : new String[] {"1000", "100000"}) {
            Result hl = find("ComparatorBench.heapBranchless", "heapSize", size);
            Result hb = find("ComparatorBench.heapBranchy", "heapSize", size);
            b.append("| heap remove+add, size ").append(size).append(" | ").append(fmt(score(hl))).append(" | ")
                    .append(fmt(score(hb))).append(" | ").append(ratio(score(hb), score(hl))).append(" |\n");
        }
        b.append("\n");
    }

    void casSection(StringBuilder b, Map<String, String> plots) {
        b.append("## 3. The limit: raw CAS vs DeliQueue push\n\n");
        b.append("`CasLimitBench`: throughput (operations per µs, all threads together) of a CAS retry loop on one "
                + "shared AtomicReference (nothing allocated), a Treiber push of a new node, `DeliQueue.push` of a "
                + "new Message, and the public `enqueueMessage` (IN_USE claim CAS + push + wake check). No consumer; "
                + "stacks are cut every 4096 pushes.\n\n");
        b.append("| threads | CAS ops/µs | Treiber push | DeliQueue.push | enqueueMessage | enqueue / CAS | "
                + "push / Treiber |\n|---|---|---|---|---|---|---|\n");
        for (int t = 1; t <= 2; t++) {
            Result cas = find("CasLimitBench.cas" + t);
            Result tr = find("CasLimitBench.treiber" + t);
            Result push = find("CasLimitBench.deliPush" + t);
            Result enq = find("CasLimitBench.deliEnqueue" + t);
            b.append("| ").append(t).append(" | ").append(withError(cas)).append(" | ").append(withError(tr))
                    .append(" | ").append(withError(push)).append(" | ").append(withError(enq)).append(" | ")
                    .append(percent(score(enq) / score(cas))).append(" | ")
                    .append(percent(score(push) / score(tr))).append(" |\n");
        }
        b.append("\n± is JMH's error, the 99.9% half-interval of the score over the measurement iterations.\n");
        b.append("\n![the CAS limit](").append(plots.get("cas-limit")).append(")\n\n");
    }

    void endToEndSection(StringBuilder b) {
        b.append("## 4. End to end: Handler.post to Looper dispatch\n\n");
        b.append("`EndToEndBench`: a real Looper thread (`Looper.prepare(kind, Clock.SYSTEM)`, `Looper.loop()`), "
                + "which sleeps in `next()` when idle. *Round trip*: post a runnable and wait until the Looper has "
                + "run it (SampleTime, one producer: post + wake-up + dispatch latency). *Stream*: post as fast as "
                + "the Looper dispatches, at most 1024 in flight (Throughput, posts per µs, all producers).\n\n");
        b.append("| measure | legacy | DeliQueue | legacy / Deli (time) or Deli / legacy (throughput) |\n"
                + "|---|---|---|---|\n");
        Result rl = find("EndToEndBench.roundTrip", "impl", "LEGACY");
        Result rd = find("EndToEndBench.roundTrip", "impl", "DELI");
        for (String[] q : new String[][] {{"mean", null}, {"p50", "50.0"}, {"p90", "90.0"}, {"p99", "99.0"},
                {"p99.9", "99.9"}}) {
            double l = q[1] == null ? score(rl) : pct(rl, q[1]);
            double d = q[1] == null ? score(rd) : pct(rd, q[1]);
            b.append("| round trip ").append(q[0]).append(", µs | ").append(fmt(l)).append(" | ").append(fmt(d))
                    .append(" | ").append(ratio(l, d)).append(" |\n");
        }
        for (int t = 1; t <= 2; t++) {
            double l = score(find("EndToEndBench.stream" + t, "impl", "LEGACY"));
            double d = score(find("EndToEndBench.stream" + t, "impl", "DELI"));
            b.append("| stream, ").append(t).append(" producer").append(t == 1 ? "" : "s").append(", posts/µs | ")
                    .append(fmt(l)).append(" | ").append(fmt(d)).append(" | ").append(ratio(d, l)).append(" |\n");
        }
        b.append("\n");
    }

    /** The backlogs PeersBench runs at (its {@code n} parameter). */
    static final String[] PEER_NS = {"1000", "10000", "100000"};

    void peersSection(StringBuilder b, Map<String, String> plots) {
        b.append("## 5. Peers: the same workload on JDK and Netty schedulers\n\n");
        b.append("`PeersBench` runs `BusyQueueBench`'s harness (the same N held by a consumer, N = 10^3, 10^4, 10^5, "
                + "same producers) on "
                + "`java.util.concurrent.DelayQueue` (drained by delivery, like the queues), "
                + "`ScheduledThreadPoolExecutor(1)` with remove-on-cancel and Netty's `DefaultEventExecutor.schedule` "
                + "(both run on real time, so their consumer removes by cancelling the oldest task, and each insert "
                + "also offers the future to a ConcurrentLinkedQueue for it). The rows of the legacy locked queue and "
                + "DeliQueue are `BusyQueueBench` at the same N, from the same pass.\n\n");
        b.append("| N | structure | producers | inserts/s | p50 µs | p99 µs | rate vs DeliQueue | p50 vs DeliQueue | "
                + "producers waiting |\n|---|---|---|---|---|---|---|---|---|\n");
        for (String n : PEER_NS) {
            for (int p = 1; p <= 2; p++) {
                String own = "BusyQueueBench.producers" + p;
                Result deli = find(own, "impl", "DELI", "n", n);
                double deliRate = rate(own, "DELI", n);
                for (String impl : new String[] {"DELI", "LEGACY", "DELAY_QUEUE", "STPE", "NETTY"}) {
                    boolean ours = impl.equals("DELI") || impl.equals("LEGACY");
                    String bench = (ours ? "BusyQueueBench" : "PeersBench") + ".producers" + p;
                    Result r = find(bench, "impl", impl, "n", n);
                    double rt = rate(bench, impl, n);
                    b.append("| ").append(n).append(" | ").append(Plots.QUEUE_NAMES.get(impl)).append(" | ")
                            .append(p).append(" | ")
                            .append(fmt(rt)).append(" | ").append(fmt(pct(r, "50.0"))).append(" | ")
                            .append(fmt(pct(r, "99.0"))).append(" | ").append(ratio(rt, deliRate)).append(" | ")
                            .append(ratio(pct(r, "50.0"), pct(deli, "50.0"))).append(" | ")
                            .append(percent(stat(bench, impl, n, Stat::producerWaitShare))).append(" |\n");
                }
            }
        }
        b.append("\n*rate vs DeliQueue* above 1x: that structure sustained more inserts per second (consumer "
                + "included); *p50 vs DeliQueue* above 1x: its median insert took longer.\n\n");
        b.append("![peers: sustained inserts per second against N](").append(plots.get("peers")).append(")\n\n");
    }

    void poolSection(StringBuilder b) {
        b.append("## 6. Message pool strategies (the Parcel pool study, repeated)\n\n");
        b.append("`PoolBench`: obtain, write, publish (Blackhole) and recycle one object, per operation. Throughput "
                + "relative to the locked linked list at the same thread count, as Android's Parcel study reported "
                + "its figures relative to its baseline (there: 1/4/16 threads on a phone; here: 1/2/4 on "
                + env.getOrDefault("cores", "?") + " cores" + (sharedMachine() ? ", shared" : "")
                + (cores() < 4 ? ", so 4 threads means time-slicing" : "") + ").\n\n");
        b.append("| strategy | 1 thread | 2 threads | 4 threads |\n|---|---|---|---|\n");
        for (String s : new String[] {"PURE_GC", "SINGLE_AR", "POOLED_AR", "LOCKED_LIST"}) {
            b.append("| ").append(s);
            for (int t : new int[] {1, 2, 4}) {
                double v = score(find("PoolBench.threads" + t, "strategy", s));
                double base = score(find("PoolBench.threads" + t, "strategy", "LOCKED_LIST"));
                b.append(" | ").append(percent(v / base)).append(" (").append(fmt(v)).append(" ops/µs)");
            }
            b.append(" |\n");
        }
        b.append("\n");
    }

    void removalSection(StringBuilder b) {
        b.append("## 7. Atomic bulk removal: its cost\n\n");
        b.append("`RemovalBench` (SingleShotTime, µs per call, each call on a freshly filled queue of N pending "
                + "messages): *removeHalf* is one `removeCallbacksAndMessages` taking the N/2 messages of one handler "
                + "from another thread; *drain* is the Looper's `poll()` of N due messages. `DELI` is the atomic "
                + "removal (one descriptor push, one walk; reserve-then-resolve delivery); the mutants are the "
                + "designs it replaced, in the same pass: `DELI_PER_MESSAGE_REMOVAL` (one REMOVED CAS per message, "
                + "not atomic) and `DELI_UNRESERVED_DELIVERY` (the single REMOVED CAS per delivery).\n\n");
        b.append("| N | removeHalf legacy µs | Deli µs | per-message µs | **Deli / legacy** | Deli / per-message | "
                + "drain legacy µs | Deli µs | unreserved µs | **Deli / legacy** | Deli / unreserved |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (String n : new String[] {"1000", "10000", "100000"}) {
            b.append("| ").append(n);
            for (String[] bench : new String[][] {{"RemovalBench.removeHalf", "DELI_PER_MESSAGE_REMOVAL"},
                    {"RemovalBench.drain", "DELI_UNRESERVED_DELIVERY"}}) {
                double legacy = score(find(bench[0], "impl", "LEGACY", "n", n));
                double deli = score(find(bench[0], "impl", "DELI", "n", n));
                double before = score(find(bench[0], "impl", bench[1], "n", n));
                b.append(" | ").append(fmt(legacy)).append(" | ").append(fmt(deli)).append(" | ").append(fmt(before))
                        .append(" | **").append(ratio(deli, legacy)).append("** | ").append(ratio(deli, before));
            }
            b.append(" |\n");
        }
        b.append("\nBelow 1x: DeliQueue takes less time. *drain* charges DeliQueue's Looper with the work its "
                + "producers deferred (the sweep that links the N pushed messages and their heap inserts), which the "
                + "legacy queue did under its lock at enqueue time, outside the measured call: compare it with "
                + "*unreserved* (the same deferred work, delivery by one CAS), the cost of reserve-then-resolve. "
                + "Single-shot times of one call are noisy on a shared machine; `make bench-full` repeats each call "
                + "more often.\n\n");
    }

    /** The machine's cores from the {@code .env}; a large number where it is not recorded. */
    int cores() {
        try {
            return Integer.parseInt(env.getOrDefault("cores", ""));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    // ---------------------------------------------------------------------------------------- formatting

    static String fmt(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 0.1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    static String ratio(double num, double den) {
        double r = num / den;
        return Double.isNaN(r) || Double.isInfinite(r) ? "n/a" : fmt(r) + "x";
    }

    static String percent(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", v * 100);
    }
}
