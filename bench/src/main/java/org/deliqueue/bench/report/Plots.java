package org.deliqueue.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The page's plots, drawn with XChart and written as PNG (XChart's SVG draws every glyph as a path: half a
 * megabyte per plot, with random clip ids, so each regeneration would rewrite it; the PNG is a few dozen kB):
 * <ol>
 *   <li>{@code busy-ratio}: how many times DeliQueue beats the legacy queue against N (sustained rate, and p50);
 *   <li>{@code busy-latency}: insertion latency percentiles (p50, p90, p99) of both queues against N;
 *   <li>{@code cas-limit}: a bare CAS loop, a Treiber push, {@code DeliQueue.push} and {@code enqueueMessage};
 *   <li>{@code peers}: sustained inserts per second of the queues and their JDK/Netty peers at N = 10000 (dots).
 * </ol>
 * The line and dot plots have logarithmic y axes (XChart draws no bars on one, so the bar plot is linear). A value the
 * pass lacks is a gap (null); a series with no value at all is left out, and a plot with no series
 * says so in its title, so a partial pass ({@code bench/run.sh quick BusyQueueBench}) still renders.
 */
final class Plots {
    static final List<String> NAMES = List.of("busy-ratio", "busy-latency", "cas-limit", "peers");
    private static final int WIDTH = 800;
    private static final int HEIGHT = 420;
    private static final List<String> N = List.of(Report.NS);

    private final Report report;

    Plots(Report report) {
        this.report = report;
    }

    /** The plots, by name, in the order of {@link #NAMES}. */
    Map<String, CategoryChart> charts() {
        Map<String, CategoryChart> charts = new LinkedHashMap<>();
        charts.put("busy-ratio", busyRatio());
        charts.put("busy-latency", busyLatency());
        charts.put("cas-limit", casLimit());
        charts.put("peers", peers());
        charts.values().stream().filter(c -> c.getSeriesCollection().isEmpty())
                .forEach(c -> c.setTitle(c.getTitle() + " (no data in this pass)"));
        return charts;
    }

    /** Writes {@code dir/PASS-NAME.png} for each plot; returns NAME to its path relative to the page. */
    Map<String, String> write(Path dir, String pass) throws IOException {
        Files.createDirectories(dir);
        Map<String, String> paths = new LinkedHashMap<>();
        for (Map.Entry<String, CategoryChart> e : charts().entrySet()) {
            String file = pass + "-" + e.getKey() + ".png";
            ImageIO.write(BitmapEncoder.getBufferedImage(e.getValue()), "png", dir.resolve(file).toFile());
            paths.put(e.getKey(), dir.getFileName() + "/" + file);
        }
        return paths;
    }

    CategoryChart busyRatio() {
        CategoryChart c = lines("Busy-queue insertion: how many times DeliQueue is faster", "N pending messages",
                "DeliQueue / legacy (log scale)");
        for (int p = 1; p <= 2; p++) {
            String bench = "BusyQueueBench.producers" + p;
            String who = p + " producer" + (p == 1 ? "" : "s");
            add(c, N, who + ", sustained rate",
                    k -> report.rate(bench, "DELI", Report.NS[k]) / report.rate(bench, "LEGACY", Report.NS[k]));
            add(c, N, who + ", one insert (p50)",
                    k -> Report.pct(report.find(bench, "impl", "LEGACY", "n", Report.NS[k]), "50.0")
                            / Report.pct(report.find(bench, "impl", "DELI", "n", Report.NS[k]), "50.0"));
        }
        return c;
    }

    CategoryChart busyLatency() {
        CategoryChart c = lines("Busy-queue insertion latency percentiles, 2 producers", "N pending messages",
                "microseconds per insert (log scale)");
        for (String impl : new String[] {"LEGACY", "DELI"}) {
            for (String q : new String[] {"50.0", "90.0", "99.0"}) {
                add(c, N, impl + " p" + q.replace(".0", ""), k -> Report.pct(
                        report.find("BusyQueueBench.producers2", "impl", impl, "n", Report.NS[k]), q));
            }
        }
        return c;
    }

    CategoryChart casLimit() {
        CategoryChart c = bars("The limit: a bare CAS loop against DeliQueue's push", "operations per µs, all threads");
        List<String> threads = List.of("1 thread", "2 threads");
        String[][] series = {{"cas", "CAS retry loop"}, {"treiber", "Treiber push"}, {"deliPush", "DeliQueue.push"},
                {"deliEnqueue", "enqueueMessage"}};
        for (String[] s : series) {
            add(c, threads, s[1], t -> Report.score(report.find("CasLimitBench." + s[0] + (t + 1))));
        }
        return c;
    }

    CategoryChart peers() {
        CategoryChart c = lines("Peers at N = 10000: sustained inserts per second (consumer included)", "",
                "inserts per second (log scale)");
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
        c.getStyler().setMarkerSize(12);
        c.getStyler().setYAxisDecimalPattern("#,##0");
        List<String> impls = List.of("DELI", "LEGACY", "DELAY_QUEUE", "STPE", "NETTY");
        for (int p = 1; p <= 2; p++) {
            int producers = p;
            add(c, impls, p + " producer" + (p == 1 ? "" : "s"), k -> report.rate(
                    (k < 2 ? "BusyQueueBench" : "PeersBench") + ".producers" + producers, impls.get(k), "10000"));
        }
        return c;
    }

    // ---------------------------------------------------------------------------------------- chart kinds

    static CategoryChart lines(String title, String xTitle, String yTitle) {
        CategoryChart c = chart(title, xTitle, yTitle);
        c.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        c.getStyler().setOverlapped(true); // every series at its category's x, not side by side as bars are
        c.getStyler().setYAxisLogarithmic(true);
        c.getStyler().setYAxisDecimalPattern("#,##0.###");
        return c;
    }

    private static CategoryChart bars(String title, String yTitle) {
        CategoryChart c = chart(title, "", yTitle);
        c.getStyler().setYAxisDecimalPattern("#,##0");
        c.getStyler().setXAxisTitleVisible(false);
        return c;
    }

    private static CategoryChart chart(String title, String xTitle, String yTitle) {
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        c.getStyler().setLegendPosition(LegendPosition.OutsideS);
        c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        return c;
    }

    /** One series, a value per category; NaN, infinite or non-positive values are gaps; an all-gap series is left out. */
    static void add(CategoryChart c, List<String> categories, String name, IntFunction<Double> value) {
        List<Double> ys = new ArrayList<>(Arrays.asList(new Double[categories.size()]));
        boolean any = false;
        for (int k = 0; k < categories.size(); k++) {
            double v = value.apply(k);
            if (!Double.isNaN(v) && !Double.isInfinite(v) && v > 0) {
                ys.set(k, v);
                any = true;
            }
        }
        if (any) {
            c.addSeries(name, categories, ys).setMarker(SeriesMarkers.CIRCLE);
        }
    }
}
