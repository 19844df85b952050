package org.deliqueue.bench.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The page {@code docs/scaling-LABEL.md}: insertion throughput against the number of inserting threads, from the
 * {@code ContentionBench} results {@code bench/scaling.sh} writes ({@code bench/results/scaling/LABEL-tN.json}, one
 * file per thread count, and {@code LABEL.env}), with the throughput targets of docs/throughput.md checked at each
 * thread count: DeliQueue's {@code enqueueMessage} at least half of {@code getAndSet} on one word (the rate of a push
 * that cannot fail) and at least {@code DelayQueue.offer}'s (one lock). Every ratio is taken within one pass, on one
 * machine. A thread count above the machine's cores measures time-sharing, not contention, and is marked so.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.deliqueue.bench.report.ScalingReport LABEL RESULTS_DIR DOCS_DIR</pre>
 *
 * The plot draws each structure in its colour of {@link Plots#colour}, with JMH's error as error bars (the table's ±),
 * and its title names the machine, the JDK and the pass. Thread counts are categories (the measured counts, not a
 * numeric axis), and the y axis is linear: XChart draws a category plot's error bars only on a linear axis.
 */
public final class ScalingReport {
    /** The benchmark methods, in the table's order, with the names the page shows. */
    static final Map<String, String> STRUCTURES = new LinkedHashMap<>();

    static {
        STRUCTURES.put("xchg", "getAndSet on one word");
        STRUCTURES.put("cas", "CAS loop on one word");
        STRUCTURES.put("casBackOff", "CAS loop with DeliQueue's backoff");
        STRUCTURES.put("deliEnqueue", "DeliQueue.enqueueMessage");
        STRUCTURES.put("concurrentLinkedQueue", "ConcurrentLinkedQueue.offer");
        STRUCTURES.put("delayQueue", "DelayQueue.offer (one lock)");
    }

    static final double MIN_OF_XCHG = 0.5;
    static final double MIN_OF_DELAY_QUEUE = 1.0;

    private static final ObjectMapper JMH_JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** Score and error by method, then thread count. */
    final Map<String, Map<Integer, Report.Metric>> scores = new TreeMap<>();
    final Map<String, String> env = new LinkedHashMap<>();
    final String label;

    ScalingReport(String label) {
        this.label = label;
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: ScalingReport LABEL RESULTS_DIR DOCS_DIR");
            System.exit(2);
        }
        System.setProperty("java.awt.headless", "true"); // XChart measures text with AWT fonts; no display here
        ScalingReport r = read(args[0], Paths.get(args[1]));
        Path docs = Paths.get(args[2]);
        Path plot = docs.resolve("results").resolve("scaling-" + r.label + ".png");
        Files.createDirectories(plot.getParent());
        BitmapEncoder.saveBitmap(r.chart(), plot.toString(), BitmapEncoder.BitmapFormat.PNG);
        Files.writeString(docs.resolve("scaling-" + r.label + ".md"), r.page("results/" + plot.getFileName()));
        System.out.println("wrote " + docs.resolve("scaling-" + r.label + ".md") + " and " + plot);
    }

    static ScalingReport read(String label, Path dir) throws IOException {
        ScalingReport r = new ScalingReport(label);
        for (String line : Files.readAllLines(dir.resolve(label + ".env"))) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                r.env.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, label + "-t*.json")) {
            for (Path f : files) {
                for (Report.Result res : JMH_JSON.readValue(f.toFile(), Report.Result[].class)) {
                    String method = res.name().substring(res.name().indexOf('.') + 1);
                    r.scores.computeIfAbsent(method, k -> new TreeMap<>()).put(res.threads(), res.primaryMetric());
                }
            }
        }
        if (r.scores.isEmpty()) {
            throw new IOException("no ContentionBench results " + dir.resolve(label + "-t*.json"));
        }
        return r;
    }

    List<Integer> threads() {
        TreeSet<Integer> t = new TreeSet<>();
        scores.values().forEach(m -> t.addAll(m.keySet()));
        return new ArrayList<>(t);
    }

    double score(String method, int threads) {
        Report.Metric m = scores.getOrDefault(method, Map.of()).get(threads);
        return m == null ? Double.NaN : m.score();
    }

    private String cell(String method, int threads) {
        Report.Metric m = scores.getOrDefault(method, Map.of()).get(threads);
        if (m == null) {
            return "n/a";
        }
        String error = m.scoreError() == null || m.scoreError().isNaN() ? "" : " ± " + Report.fmt(m.scoreError());
        return Report.fmt(m.score()) + error;
    }

    private int cores() {
        try {
            return Integer.parseInt(env.getOrDefault("cores", ""));
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    private String header(int threads) {
        return threads > cores() ? threads + " (time-shared)" : String.valueOf(threads);
    }

    /** A ratio cell against its target: the ratio, then "met" or "NOT met". */
    private String target(int threads, String against, double min) {
        double ratio = score("deliEnqueue", threads) / score(against, threads);
        if (Double.isNaN(ratio)) {
            return "n/a";
        }
        return String.format("%.2fx %s", ratio, ratio >= min ? "met" : "**NOT met**");
    }

    String page(String plotPath) {
        List<Integer> threads = threads();
        StringBuilder p = new StringBuilder();
        p.append("# Insertion against producers: ").append(label).append("\n\n");
        p.append("Generated by `org.deliqueue.bench.report.ScalingReport` from `bench/results/scaling/").append(label)
                .append("-t*.json` and `").append(label).append(".env`, the pass `")
                .append(env.getOrDefault("command", "bench/scaling.sh"))
                .append("` made on the machine below; do not edit by hand. To redraw this page and its plot from those "
                + "files: `java -cp bench/target/benchmarks.jar org.deliqueue.bench.report.ScalingReport ")
                .append(label).append(" bench/results/scaling docs`. A new pass (`make bench-scaling`) replaces them; "
                + "on another machine it writes that machine's own page, `docs/scaling-coresN.md`.\n\n");
        p.append("Machine: ").append(env.getOrDefault("cores", "?")).append(" cores, ")
                .append(env.getOrDefault("cpu", "?")).append(", ").append(env.getOrDefault("memory", "?"))
                .append("; ").append(env.getOrDefault("jvm", "?")).append(". Pass of ")
                .append(env.getOrDefault("date", "?")).append(" at commit ").append(env.getOrDefault("commit", "?"))
                .append(", JMH ").append(env.getOrDefault("jmh_options", "?")).append("; load average before ")
                .append(env.getOrDefault("load_before", "?")).append(", after ")
                .append(env.getOrDefault("load_after", "?")).append(".\n\n");
        p.append("One insertion from every thread into one shared structure, no consumer (`ContentionBench`): ")
                .append("millions of insertions per second, all threads together (± JMH's 99.9% half-interval). ")
                .append("A thread count above the machine's cores measures time-sharing, not contention.\n\n");
        p.append("| structure |");
        threads.forEach(t -> p.append(' ').append(header(t)).append(" |"));
        p.append("\n|---|");
        threads.forEach(t -> p.append("---|"));
        p.append('\n');
        STRUCTURES.forEach((method, name) -> {
            p.append("| ").append(name).append(" |");
            threads.forEach(t -> p.append(' ').append(cell(method, t)).append(" |"));
            p.append('\n');
        });
        p.append("\nTargets ([throughput.md](throughput.md)), DeliQueue's `enqueueMessage` against the others in the "
                + "same pass:\n\n");
        p.append("| target |");
        threads.forEach(t -> p.append(' ').append(header(t)).append(" |"));
        p.append("\n|---|");
        threads.forEach(t -> p.append("---|"));
        p.append("\n| at least ").append(MIN_OF_XCHG).append("x getAndSet on one word |");
        threads.forEach(t -> p.append(' ').append(target(t, "xchg", MIN_OF_XCHG)).append(" |"));
        p.append("\n| at least ").append(MIN_OF_DELAY_QUEUE).append("x DelayQueue.offer |");
        threads.forEach(t -> p.append(' ').append(target(t, "delayQueue", MIN_OF_DELAY_QUEUE)).append(" |"));
        p.append("\n\n![insertion throughput against threads](").append(plotPath).append(")\n");
        return p.toString();
    }

    /** The colour key of each structure in {@link Plots#colour}. */
    static String colourOf(String method) {
        return STRUCTURES.get(method);
    }

    CategoryChart chart() {
        List<Integer> threads = threads();
        List<String> xs = threads.stream().map(this::header).toList();
        CategoryChart c = new CategoryChartBuilder().width(Plots.WIDTH).height(Plots.HEIGHT)
                .title(Plots.title("Insertion into one shared structure vs threads",
                        Plots.machine(env, label)))
                .xAxisTitle("threads inserting").yAxisTitle("million insertions/s, all threads (± JMH error)").build();
        Plots.style(c.getStyler());
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        c.getStyler().setOverlapped(true); // every series at its category's x, not side by side as bars are
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisDecimalPattern("#,##0");
        STRUCTURES.forEach((method, name) -> {
            List<Double> ys = new ArrayList<>();
            List<Double> errors = new ArrayList<>();
            for (int t : threads) {
                Report.Metric m = scores.getOrDefault(method, Map.of()).get(t);
                boolean drawn = m != null && !m.score().isNaN() && m.score() > 0;
                ys.add(drawn ? m.score() : null);
                errors.add(drawn && m.scoreError() != null && !m.scoreError().isNaN() ? m.scoreError() : 0.0);
            }
            if (ys.stream().anyMatch(y -> y != null)) {
                Color colour = Plots.colour(colourOf(method));
                CategorySeries s = c.addSeries(name, xs, ys, errors);
                s.setLineColor(colour);
                s.setMarkerColor(colour);
                s.setLineStyle(Plots.dash("50.0"));
                s.setMarker(SeriesMarkers.CIRCLE);
            }
        });
        Plots.fitTitle(c);
        return c;
    }
}
