package org.deliqueue.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.internal.series.Series;

/**
 * The four plots on the committed sample pass: each has its series, one value per N or category, none missing; what a
 * reader relies on at a glance holds (N on a logarithmic numeric axis, the 1x line on the ratio plot, one colour per
 * queue and one dash per percentile, error bars from JMH's error, queue names, the machine and pass in each title);
 * and a benchmark removed from the pass leaves exactly its value out (the negative control).
 */
class PlotsTest {

    @TempDir
    Path tmp;

    private static final String MACHINE = "2 cores, JDK 17, pass sample, 2026-11-22";

    private Report report(UnaryOperator<String> edit) throws IOException {
        for (String suffix : new String[] {".json", "-backlog.jsonl", ".env"}) {
            try (InputStream in = getClass().getResourceAsStream("/sample" + suffix)) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                Files.writeString(tmp.resolve("sample" + suffix), suffix.equals(".json") ? edit.apply(text) : text);
            }
        }
        Report r = new Report("sample");
        r.load(tmp);
        return r;
    }

    private Map<String, Chart<?, ?>> charts(UnaryOperator<String> edit) throws IOException {
        return new Plots(report(edit)).charts();
    }

    private static List<String> names(Chart<?, ?> c) {
        return c.getSeriesCollection().stream().map(Series::getName).toList();
    }

    /** An XY series' values by N (N = 0 at {@link Plots#ZERO_AT}), leaving out the break between N = 0 and the rest. */
    private static Map<Double, Double> byN(XYChart c, String series) {
        XYSeries s = c.getSeries(series);
        Map<Double, Double> out = new LinkedHashMap<>();
        for (int k = 0; k < s.getXData().length; k++) {
            double x = s.getXData()[k];
            if (x == Plots.ZERO_AT || x >= 1000) {
                out.put(x, s.getYData()[k]);
            }
        }
        return out;
    }

    @Test
    void everyPlotHasItsSeriesComplete() throws IOException {
        Map<String, Chart<?, ?>> charts = charts(s -> s);
        assertEquals(Plots.NAMES, List.copyOf(charts.keySet()));
        assertEquals(List.of("1x: as fast as the legacy queue", "1 producer: sustained rate",
                "1 producer: one insert (p50)", "2 producers: sustained rate", "2 producers: one insert (p50)"),
                names(charts.get("busy-ratio")));
        assertEquals(List.of("legacy locked queue p50", "legacy locked queue p90", "legacy locked queue p99",
                "DeliQueue p50", "DeliQueue p90", "DeliQueue p99"), names(charts.get("busy-latency")));
        assertEquals(List.of("CAS retry loop", "Treiber push", "DeliQueue.push", "DeliQueue.enqueueMessage"),
                names(charts.get("cas-limit")));
        assertEquals(10, names(charts.get("peers")).size(), "five queues, 1 and 2 producers");
        assertTrue(names(charts.get("peers")).containsAll(List.of("DeliQueue, 1 producer", "DelayQueue, 2 producers",
                "ScheduledThreadPoolExecutor, 1 producer", "Netty DefaultEventExecutor, 2 producers")));
        for (String plot : List.of("busy-ratio", "busy-latency", "peers")) {
            XYChart c = (XYChart) charts.get(plot);
            List<Double> ns = plot.equals("peers") ? List.of(1000.0, 10000.0, 100000.0)
                    : List.of(Plots.ZERO_AT, 1000.0, 10000.0, 100000.0);
            for (String series : names(c)) {
                if (series.startsWith("1x")) {
                    continue;
                }
                Map<Double, Double> ys = byN(c, series);
                assertEquals(ns, List.copyOf(ys.keySet()), plot + " / " + series);
                assertFalse(ys.values().stream().anyMatch(d -> d.isNaN()), plot + " / " + series + " has a gap: " + ys);
            }
        }
        CategoryChart cas = (CategoryChart) charts.get("cas-limit");
        for (String series : names(cas)) {
            double[] ys = cas.getSeries(series).getYData();
            assertEquals(2, ys.length, series);
            assertFalse(Arrays.stream(ys).anyMatch(Double::isNaN), series + " has a gap: " + Arrays.toString(ys));
        }
    }

    @Test
    void nIsANumberOnALogarithmicAxisWithZeroApart() throws IOException {
        Map<String, Chart<?, ?>> charts = charts(s -> s);
        for (String plot : List.of("busy-ratio", "busy-latency", "peers")) {
            XYChart c = assertInstanceOf(XYChart.class, charts.get(plot), plot + " draws N as a number");
            assertTrue(c.getStyler().isXAxisLogarithmic(), plot + ": N's axis is logarithmic");
            assertTrue(c.getStyler().isYAxisLogarithmic(), plot);
            assertEquals("0", c.getStyler().getxAxisTickLabelsFormattingFunction().apply(Plots.ZERO_AT), plot);
            assertEquals("10,000", c.getStyler().getxAxisTickLabelsFormattingFunction().apply(10_000.0), plot);
        }
        XYSeries p50 = ((XYChart) charts.get("busy-latency")).getSeries("DeliQueue p50");
        double[] xs = p50.getXData();
        double[] ys = p50.getYData();
        assertEquals(Plots.ZERO_AT, xs[0]);
        assertTrue(xs[1] > Plots.ZERO_AT && xs[1] < 1000 && Double.isNaN(ys[1]),
                "N = 0 is not joined to N = 1000: a gap between them");
    }

    @Test
    void theRatioPlotHasItsOneXLine() throws IOException {
        XYChart ratio = (XYChart) charts(s -> s).get("busy-ratio");
        XYSeries one = ratio.getSeries("1x: as fast as the legacy queue");
        assertTrue(Arrays.stream(one.getYData()).allMatch(y -> y == 1.0), "the 1x line is at 1");
        assertTrue(one.getXData()[0] < Plots.ZERO_AT && one.getXData()[one.getXData().length - 1] > 100_000,
                "the 1x line spans the whole N axis");
    }

    @Test
    void everyTitleNamesTheMachineAndThePass() throws IOException {
        Map<String, Chart<?, ?>> charts = charts(s -> s);
        for (Map.Entry<String, Chart<?, ?>> e : charts.entrySet()) {
            assertTrue(e.getValue().getTitle().endsWith(" — " + MACHINE), e.getKey() + ": " + e.getValue().getTitle());
        }
        assertEquals("16-core x86-64 (Intel Xeon), JDK 17, pass cores16, 2026-11-23", Plots.machine(Map.of(
                "cores", "16", "date", "2026-11-23 06:57-07:23 UTC",
                "machine", "x86-64 (Intel Xeon), **lent for this pass and otherwise idle**: every thread",
                "jvm", "OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)"), "cores16"));
        assertEquals("2-core AMD EPYC, JDK 21, pass quick-cores2, 2026-11-26", Plots.machine(Map.of("cores", "2",
                "cpu", "AMD EPYC", "jvm", "OpenJDK Runtime Environment (build 21.0.2+13)", "date", "2026-11-26 18:27 UTC"),
                "quick-cores2"));
    }

    /**
     * A title XChart cannot fit is cut at both ends: each fits, with the committed 16-core pass's machine at the full
     * title size and with a long CPU model name in a smaller font, never below 8 points.
     */
    @Test
    void everyTitleFitsWithItsMachine() throws IOException {
        java.awt.Graphics2D g = new java.awt.image.BufferedImage(1, 1, java.awt.image.BufferedImage.TYPE_INT_RGB)
                .createGraphics();
        Report r = report(s -> s);
        r.env.put("cores", "16");
        r.env.put("machine", "x86-64 (Intel Xeon), **lent for this pass and otherwise idle**: every thread");
        r.env.put("date", "2026-11-23 06:57-07:23 UTC");
        for (Map.Entry<String, Chart<?, ?>> e : new Plots(r).charts().entrySet()) {
            String title = e.getValue().getTitle();
            java.awt.Font font = e.getValue().getStyler().getChartTitleFont();
            assertTrue(title.contains("16-core x86-64 (Intel Xeon), JDK 17, pass sample"), title);
            assertEquals(Plots.TITLE_FONT.getSize(), font.getSize(), e.getKey() + ": the full size fits " + title);
            assertTrue(g.getFontMetrics(font).stringWidth(title) <= Plots.TITLE_MAX_WIDTH, e.getKey() + ": " + title);
        }
        r.env.put("cpu", "Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz"); // /proc/cpuinfo's model name
        for (Map.Entry<String, Chart<?, ?>> e : new Plots(r).charts().entrySet()) {
            String title = e.getValue().getTitle();
            java.awt.Font font = e.getValue().getStyler().getChartTitleFont();
            assertTrue(font.getSize() < Plots.TITLE_FONT.getSize() && font.getSize() >= 8, e.getKey() + ": " + font);
            assertTrue(g.getFontMetrics(font).stringWidth(title) <= Plots.TITLE_MAX_WIDTH, e.getKey() + ": " + title);
        }
    }

    @Test
    void seriesCarryQueueNamesNotEnumNames() throws IOException {
        for (Map.Entry<String, Chart<?, ?>> e : charts(s -> s).entrySet()) {
            for (String name : names(e.getValue())) {
                assertFalse(name.matches(".*\\b(DELI|LEGACY|DELAY_QUEUE|STPE|NETTY)\\b.*"), e.getKey() + ": " + name);
            }
        }
    }

    @Test
    void oneColourPerQueueAndOneDashPerPercentile() throws IOException {
        Map<String, Chart<?, ?>> charts = charts(s -> s);
        XYChart latency = (XYChart) charts.get("busy-latency");
        XYChart peers = (XYChart) charts.get("peers");
        Color deli = latency.getSeries("DeliQueue p50").getLineColor();
        Color legacy = latency.getSeries("legacy locked queue p50").getLineColor();
        assertNotEquals(deli, legacy);
        for (String q : List.of("p50", "p90", "p99")) {
            assertEquals(deli, latency.getSeries("DeliQueue " + q).getLineColor(), "DeliQueue " + q);
            assertEquals(legacy, latency.getSeries("legacy locked queue " + q).getLineColor(), "legacy " + q);
            assertArrayEquals(latency.getSeries("DeliQueue " + q).getLineStyle().getDashArray(),
                    latency.getSeries("legacy locked queue " + q).getLineStyle().getDashArray(), q + ": one dash for both queues");
        }
        assertFalse(Arrays.equals(latency.getSeries("DeliQueue p50").getLineStyle().getDashArray(),
                latency.getSeries("DeliQueue p90").getLineStyle().getDashArray()), "p50 and p90 dashes differ");
        assertFalse(Arrays.equals(latency.getSeries("DeliQueue p90").getLineStyle().getDashArray(),
                latency.getSeries("DeliQueue p99").getLineStyle().getDashArray()), "p90 and p99 dashes differ");
        // The same queue has the same colour on another plot; the five queues have five colours.
        assertEquals(deli, peers.getSeries("DeliQueue, 2 producers").getLineColor());
        assertEquals(legacy, peers.getSeries("legacy locked queue, 1 producer").getLineColor());
        assertEquals(5, peers.getSeriesCollection().stream().map(XYSeries::getLineColor).distinct().count());
        assertEquals(deli, ((CategoryChart) charts.get("cas-limit")).getSeries("DeliQueue.enqueueMessage")
                .getFillColor());
    }

    @Test
    void theCasPlotDrawsJmhErrorAsErrorBars() throws IOException {
        Report r = report(org.deliqueue.bench.ReportSmokeTest::withCasErrors);
        CategoryChart cas = new Plots(r).casLimit();
        CategorySeries enqueue = cas.getSeries("DeliQueue.enqueueMessage");
        double error1 = r.find("CasLimitBench.deliEnqueue1").primaryMetric().scoreError();
        assertTrue(error1 > 0, "the sample has an error to draw");
        assertEquals(error1, enqueue.getExtraValues()[0], 1e-9);
        assertEquals(Report.error(r.find("CasLimitBench.deliEnqueue2")), enqueue.getExtraValues()[1], 1e-9);
    }

    @Test
    void missingBenchmarkIsAGapInItsPlot() throws IOException {
        Map<String, Chart<?, ?>> charts = charts(s -> s.replace("CasLimitBench.deliEnqueue2", "CasLimitBench.renamed"));
        double[] enqueue = ((CategoryChart) charts.get("cas-limit")).getSeries("DeliQueue.enqueueMessage")
                .getYData();
        assertFalse(Double.isNaN(enqueue[0]), "1 thread is still there");
        assertTrue(Double.isNaN(enqueue[1]), "2 threads is missing");
    }
}
