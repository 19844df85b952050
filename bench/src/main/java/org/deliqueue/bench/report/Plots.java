package org.deliqueue.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The page's plots, drawn with XChart and written as PNG (XChart's SVG draws every glyph as a path: half a
 * megabyte per plot, with random clip ids, so each regeneration would rewrite it; the PNG is a few dozen kB):
 * <ol>
 *   <li>{@code busy-ratio}: how many times DeliQueue beats the legacy queue against N (sustained rate, and p50),
 *       with the 1x line where the two queues are equal;
 *   <li>{@code busy-latency}: insertion latency percentiles (p50, p90, p99) of both queues against N;
 *   <li>{@code cas-limit}: a bare CAS loop, a Treiber push, {@code DeliQueue.push} and {@code enqueueMessage}, with
 *       JMH's error (the 99.9% half-interval) as error bars;
 *   <li>{@code peers}: sustained inserts per second of the queues and their JDK/Netty peers against N.
 * </ol>
 * What a reader can rely on in every plot: N is a number on a logarithmic axis (N = 0, which a logarithmic axis
 * cannot hold, is drawn a decade left of 1,000, labelled 0 and not joined to the line); a queue has one colour on
 * every plot ({@link #colour}) and a percentile one dash ({@link #dash}); series carry the queues' names, never the
 * benchmarks' enum names; a JMH score is drawn with its error where the page's table prints one; and each title
 * names the machine, the JDK and the pass ({@link #machine}). The line plots have logarithmic y axes; the bar plot is
 * linear (XChart draws no bars on a logarithmic axis). A value the pass lacks is a gap; a series with no value at all
 * is left out, and a plot with no series says so in its title, so a partial pass ({@code bench/run.sh quick
 * BusyQueueBench}) still renders.
 */
final class Plots {
    static final List<String> NAMES = List.of("busy-ratio", "busy-latency", "cas-limit", "peers");
    static final int WIDTH = 1000;
    static final int HEIGHT = 480;
    static final java.awt.Font TITLE_FONT = new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 12);
    /** The widest title that XChart draws whole: it centres the title on the plot, left of the legend. */
    static final int TITLE_MAX_WIDTH = 760;
    /** Where N = 0 is drawn on the logarithmic N axis: one decade left of the smallest backlog measured, 1,000. */
    static final double ZERO_AT = 100;
    private static final double N_AXIS_MIN = 60;
    private static final double N_AXIS_MAX = 170_000;

    /** The benchmarks' {@code impl} parameter, by the name every plot and table shows. */
    static final Map<String, String> QUEUE_NAMES = new LinkedHashMap<>();

    static {
        QUEUE_NAMES.put("DELI", "DeliQueue");
        QUEUE_NAMES.put("LEGACY", "legacy locked queue");
        QUEUE_NAMES.put("DELAY_QUEUE", "DelayQueue");
        QUEUE_NAMES.put("STPE", "ScheduledThreadPoolExecutor");
        QUEUE_NAMES.put("NETTY", "Netty DefaultEventExecutor");
    }

    /** The percentiles the latency plot draws, JMH's keys. */
    static final List<String> PERCENTILES = List.of("50.0", "90.0", "99.0");

    private final Report report;
    private final String machine;

    Plots(Report report) {
        this.report = report;
        this.machine = machine(report.env, report.pass);
    }

    /** The plots, by name, in the order of {@link #NAMES}. */
    Map<String, Chart<?, ?>> charts() {
        Map<String, Chart<?, ?>> charts = new LinkedHashMap<>();
        charts.put("busy-ratio", busyRatio());
        charts.put("busy-latency", busyLatency());
        charts.put("cas-limit", casLimit());
        charts.put("peers", peers());
        for (Chart<?, ?> c : charts.values()) {
            boolean empty = c.getSeriesCollection().stream().allMatch(s -> s.getName().startsWith("1x"));
            if (empty) {
                c.setTitle(c.getTitle() + " (no data in this pass)");
            }
            fitTitle(c);
        }
        return charts;
    }

    /**
     * Shrinks the title's font, from {@link #TITLE_FONT}'s size down to 8 points, until the title fits
     * {@link #TITLE_MAX_WIDTH}: XChart cuts a wider title at both ends, and a CPU's model name can be long.
     */
    static void fitTitle(Chart<?, ?> c) {
        java.awt.Graphics2D g = new java.awt.image.BufferedImage(1, 1, java.awt.image.BufferedImage.TYPE_INT_RGB)
                .createGraphics();
        java.awt.Font font = TITLE_FONT;
        while (font.getSize() > 8 && g.getFontMetrics(font).stringWidth(c.getTitle()) > TITLE_MAX_WIDTH) {
            font = font.deriveFont((float) font.getSize() - 1);
        }
        g.dispose();
        c.getStyler().setChartTitleFont(font);
    }

    /** Writes {@code dir/PASS-NAME.png} for each plot; returns NAME to its path relative to the page. */
    Map<String, String> write(Path dir, String pass) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> paths = new LinkedHashMap<>();
        for (Map.Entry<String, Chart<?, ?>> e : charts().entrySet()) {
            String file = pass + "-" + e.getKey() + ".png";
            ImageIO.write(BitmapEncoder.getBufferedImage(e.getValue()), "png", dir.resolve(file).toFile());
            paths.put(e.getKey(), dir.getFileName() + "/" + file);
        }
        return paths;
    }

    XYChart busyRatio() {
        XYChart c = overN("Busy-queue insertion, DeliQueue / legacy",
                "DeliQueue / legacy (log scale)", true);
        oneX(c, "1x: as fast as the legacy queue");
        Color[] byProducers = {new Color(0x33, 0x33, 0x33), new Color(0xd9, 0x8c, 0x00)};
        for (int p = 1; p <= 2; p++) {
            String bench = "BusyQueueBench.producers" + p;
            String who = p + " producer" + (p == 1 ? "" : "s");
            addOverN(c, Report.NS, who + ": sustained rate", byProducers[p - 1], dash("rate"),
                    SeriesMarkers.CIRCLE,
                    k -> report.rate(bench, "DELI", Report.NS[k]) / report.rate(bench, "LEGACY", Report.NS[k]));
            addOverN(c, Report.NS, who + ": one insert (p50)", byProducers[p - 1], dash("50.0"), SeriesMarkers.SQUARE,
                    k -> Report.pct(report.find(bench, "impl", "LEGACY", "n", Report.NS[k]), "50.0")
                            / Report.pct(report.find(bench, "impl", "DELI", "n", Report.NS[k]), "50.0"));
        }
        return c;
    }

    XYChart busyLatency() {
        XYChart c = overN("Busy-queue insertion latency, 2 producers", "microseconds per insert (log scale)", true);
        Marker[] markers = {SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND};
        for (String impl : new String[] {"LEGACY", "DELI"}) {
            for (int q = 0; q < PERCENTILES.size(); q++) {
                String pct = PERCENTILES.get(q);
                String queue = QUEUE_NAMES.get(impl);
                addOverN(c, Report.NS, queue + " p" + pct.replace(".0", ""), colour(queue), dash(pct), markers[q],
                        k -> Report.pct(report.find("BusyQueueBench.producers2", "impl", impl, "n", Report.NS[k]), pct));
            }
        }
        return c;
    }

    CategoryChart casLimit() {
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title(title("The limit: a CAS loop vs DeliQueue's push", machine))
                .yAxisTitle("operations per µs, all threads (± JMH error)").build();
        style(c.getStyler());
        c.getStyler().setYAxisDecimalPattern("#,##0");
        c.getStyler().setXAxisTitleVisible(false);
        c.getStyler().setYAxisMin(0.0); // an error bar reaching below 0 (few iterations) is cut at the axis
        List<String> threads = List.of("1 thread", "2 threads");
        String[][] series = {{"cas", "CAS retry loop"}, {"treiber", "Treiber push"}, {"deliPush", "DeliQueue.push"},
                {"deliEnqueue", "DeliQueue.enqueueMessage"}};
        for (String[] s : series) {
            addBars(c, threads, s[1], colour(s[1]),
                    t -> report.find("CasLimitBench." + s[0] + (t + 1)));
        }
        return c;
    }

    XYChart peers() {
        XYChart c = overN("DeliQueue and its peers",
                "sustained inserts per second, consumer included (log)", false);
        c.getStyler().setYAxisDecimalPattern("#,##0");
        c.getStyler().setXAxisMin(600.0);
        String[] ns = Report.PEER_NS;
        for (String impl : QUEUE_NAMES.keySet()) {
            boolean ours = impl.equals("DELI") || impl.equals("LEGACY");
            String queue = QUEUE_NAMES.get(impl);
            for (int p = 1; p <= 2; p++) {
                String bench = (ours ? "BusyQueueBench" : "PeersBench") + ".producers" + p;
                addOverN(c, ns, queue + ", " + p + " producer" + (p == 1 ? "" : "s"), colour(queue),
                        PRODUCERS_DASH[p - 1], p == 1 ? SeriesMarkers.CIRCLE : SeriesMarkers.SQUARE,
                        k -> report.rate(bench, impl, ns[k]));
            }
        }
        return c;
    }

    // ---------------------------------------------------------------------------------------- what every plot shares

    /**
     * The machine, JDK, pass and date for a title, from the pass's {@code .env}: "2-core AMD EPYC, JDK 17, pass
     * cores2, 2026-11-26" where the CPU is recorded ({@code cpu}, or the start of {@code machine} up to its first
     * comma), else "2 cores, JDK 17, pass full, 2026-11-23"; what the file lacks is left out.
     */
    static String machine(Map<String, String> env, String pass) {
        List<String> parts = new ArrayList<>();
        String cores = env.get("cores");
        String cpu = env.get("cpu");
        if (cpu == null && env.containsKey("machine")) {
            cpu = env.get("machine").split(",", 2)[0].replace("*", "").trim();
        }
        if (cores != null) {
            parts.add(cpu == null || cpu.isEmpty() ? cores + " cores" : cores + "-core " + cpu);
        } else if (cpu != null && !cpu.isEmpty()) {
            parts.add(cpu);
        }
        Matcher jdk = Pattern.compile("build (\\d+)").matcher(env.getOrDefault("jvm", ""));
        if (jdk.find()) {
            parts.add("JDK " + jdk.group(1));
        }
        parts.add("pass " + pass);
        String date = env.getOrDefault("date", "");
        if (date.length() >= 10) {
            parts.add(date.substring(0, 10));
        }
        return String.join(", ", parts);
    }

    /** A plot's title: what it shows, then where it was measured. */
    static String title(String subject, String machine) {
        return subject + " — " + machine;
    }

    /**
     * One colour per queue or baseline, the same on every plot (keyed by the name the plots show, or its first word
     * for a method of it: "DeliQueue.push", "DelayQueue.offer"); the palette is Tableau's, which stays apart for
     * readers with the common colour-vision deficiencies.
     */
    static Color colour(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.startsWith("deliqueue.push")) {
            return new Color(0x9e, 0xc9, 0xe9); // DeliQueue's push alone: DeliQueue's colour, lighter
        }
        if (n.startsWith("deliqueue")) {
            return new Color(0x1f, 0x77, 0xb4);
        }
        if (n.startsWith("legacy")) {
            return new Color(0xd6, 0x27, 0x28);
        }
        if (n.startsWith("delayqueue")) {
            return new Color(0x2c, 0xa0, 0x2c);
        }
        if (n.startsWith("scheduledthreadpoolexecutor")) {
            return new Color(0x94, 0x67, 0xbd);
        }
        if (n.startsWith("netty")) {
            return new Color(0x8c, 0x56, 0x4b);
        }
        if (n.startsWith("concurrentlinkedqueue")) {
            return new Color(0x17, 0xbe, 0xcf);
        }
        if (n.startsWith("getandset")) {
            return new Color(0x7f, 0x7f, 0x7f);
        }
        if (n.startsWith("cas loop with")) {
            return new Color(0xbc, 0xbd, 0x22);
        }
        if (n.startsWith("cas")) {
            return new Color(0x40, 0x40, 0x40);
        }
        if (n.startsWith("treiber")) {
            return new Color(0xff, 0x7f, 0x0e);
        }
        throw new IllegalArgumentException("no colour for " + name);
    }

    /**
     * One dash per percentile, the same on every plot: p50 solid, p90 dashed, p99 dotted; a sustained rate (a count
     * over the whole run, not a percentile) dash-dotted. The peers plot, all rates, draws 1 producer solid and 2
     * producers dashed ({@link #PRODUCERS_DASH}).
     */
    static BasicStroke dash(String percentile) {
        return switch (percentile) {
            case "50.0" -> stroke(null);
            case "90.0" -> stroke(new float[] {7f, 4f});
            case "99.0" -> stroke(new float[] {1.5f, 3f});
            case "rate" -> stroke(new float[] {10f, 3f, 2f, 3f});
            default -> throw new IllegalArgumentException("no dash for " + percentile);
        };
    }

    /** The peers plot's dash by producer count: index 0 for 1 producer (solid), 1 for 2 (dashed). */
    static final BasicStroke[] PRODUCERS_DASH = {stroke(null), stroke(new float[] {7f, 4f})};

    private static BasicStroke stroke(float[] dashes) {
        return dashes == null ? new BasicStroke(2f)
                : new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, dashes, 0f);
    }

    // ---------------------------------------------------------------------------------------- chart kinds

    /**
     * A line plot against N: both axes logarithmic, N's ticks at its decades, N = 0 (where {@code withZero}) at
     * {@link #ZERO_AT}.
     */
    XYChart overN(String subject, String yTitle, boolean withZero) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title(subject, machine))
                .xAxisTitle("N pending messages (log scale" + (withZero
                        ? "; N = 0, the empty queue, drawn apart at the left)" : ")"))
                .yAxisTitle(yTitle).build();
        style(c.getStyler());
        c.getStyler().setXAxisLogarithmic(true);
        c.getStyler().setXAxisLogarithmicDecadeOnly(true);
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setXAxisMin(N_AXIS_MIN);
        c.getStyler().setXAxisMax(N_AXIS_MAX);
        c.getStyler().setxAxisTickLabelsFormattingFunction(
                x -> Math.abs(x - ZERO_AT) < 1 ? "0" : String.format(Locale.ROOT, "%,.0f", x));
        c.getStyler().setYAxisDecimalPattern("#,##0.###");
        return c;
    }

    static void style(AxesChartStyler s) {
        s.setLegendPosition(LegendPosition.OutsideE);
        s.setLegendLayout(LegendLayout.Vertical);
        s.setLegendSeriesLineLength(36); // long enough to tell a dash from a dot
        s.setChartBackgroundColor(Color.WHITE);
        s.setChartTitleFont(TITLE_FONT);
        s.setPlotGridLinesColor(new Color(0xdd, 0xdd, 0xdd));
    }

    /** The line at 1x across the whole N axis, grey and unmarked: above it DeliQueue is faster. */
    static void oneX(XYChart c, String name) {
        XYSeries s = c.addSeries(name, new double[] {N_AXIS_MIN, N_AXIS_MAX}, new double[] {1, 1});
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(new Color(0x99, 0x99, 0x99));
        s.setLineStyle(new BasicStroke(1.5f));
    }

    /**
     * One series against N, a value per N of {@code ns}: N = 0 drawn at {@link #ZERO_AT} and not joined to the rest
     * (a gap between); NaN, infinite or non-positive values are gaps; an all-gap series is left out.
     */
    static void addOverN(XYChart c, String[] ns, String name, Color colour, BasicStroke dash, Marker marker,
                         IntFunction<Double> value) {
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        boolean any = false;
        for (int k = 0; k < ns.length; k++) {
            long n = Long.parseLong(ns[k]);
            double v = value.apply(k);
            boolean drawn = !Double.isNaN(v) && !Double.isInfinite(v) && v > 0;
            any |= drawn;
            xs.add(n == 0 ? ZERO_AT : n);
            ys.add(drawn ? v : null);
            if (n == 0 && k + 1 < ns.length) {
                xs.add(Math.sqrt(ZERO_AT * Long.parseLong(ns[k + 1]))); // the break between N = 0 and the rest
                ys.add(null);
            }
        }
        if (any) {
            XYSeries s = c.addSeries(name, xs, ys);
            s.setMarker(marker);
            s.setMarkerColor(colour);
            s.setLineColor(colour);
            s.setLineStyle(dash);
        }
    }

    /** One bar series with JMH's error as error bars (0 where JMH gave none); a missing result is a gap. */
    static void addBars(CategoryChart c, List<String> categories, String name, Color colour,
                        IntFunction<Report.Result> result) {
        List<Double> ys = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        boolean any = false;
        for (int k = 0; k < categories.size(); k++) {
            Report.Result r = result.apply(k);
            double v = Report.score(r);
            boolean drawn = !Double.isNaN(v) && !Double.isInfinite(v) && v > 0;
            any |= drawn;
            ys.add(drawn ? v : null);
            errors.add(drawn ? Report.error(r) : 0.0);
        }
        if (any) {
            CategorySeries s = c.addSeries(name, categories, ys, errors);
            s.setFillColor(colour);
            s.setLineColor(colour);
        }
    }
}
