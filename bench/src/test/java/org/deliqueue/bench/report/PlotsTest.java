package org.deliqueue.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

/**
 * The four plots' content on the committed sample pass: each has its series, one value per category, none missing;
 * and a benchmark removed from the pass leaves exactly its value out (the negative control).
 */
class PlotsTest {

    @TempDir
    Path tmp;

    private Map<String, CategoryChart> charts(UnaryOperator<String> edit) throws IOException {
        for (String suffix : new String[] {".json", "-backlog.jsonl", ".env"}) {
            try (InputStream in = getClass().getResourceAsStream("/sample" + suffix)) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                Files.writeString(tmp.resolve("sample" + suffix), suffix.equals(".json") ? edit.apply(text) : text);
            }
        }
        Report r = new Report("sample");
        r.load(tmp);
        return new Plots(r).charts();
    }

    private static List<String> names(CategoryChart c) {
        return c.getSeriesCollection().stream().map(CategorySeries::getName).toList();
    }

    /** The series' values as XChart holds them: a gap (a null given to XChart) is NaN. */
    private static double[] values(CategoryChart c, String series) {
        return c.getSeries(series).getYData();
    }

    @Test
    void everyPlotHasItsSeriesComplete() throws IOException {
        Map<String, CategoryChart> charts = charts(s -> s);
        assertEquals(Plots.NAMES, List.copyOf(charts.keySet()));
        assertEquals(List.of("1 producer, sustained rate", "1 producer, one insert (p50)",
                "2 producers, sustained rate", "2 producers, one insert (p50)"), names(charts.get("busy-ratio")));
        assertEquals(List.of("LEGACY p50", "LEGACY p90", "LEGACY p99", "DELI p50", "DELI p90", "DELI p99"),
                names(charts.get("busy-latency")));
        assertEquals(List.of("CAS retry loop", "Treiber push", "DeliQueue.push", "enqueueMessage"),
                names(charts.get("cas-limit")));
        assertEquals(List.of("1 producer", "2 producers"), names(charts.get("peers")));
        for (Map.Entry<String, CategoryChart> e : charts.entrySet()) {
            int categories = switch (e.getKey()) {
                case "cas-limit" -> 2;           // 1 and 2 threads
                case "peers" -> 5;               // DELI, LEGACY and three peers
                default -> Report.NS.length;     // N
            };
            for (CategorySeries s : e.getValue().getSeriesCollection()) {
                double[] ys = values(e.getValue(), s.getName());
                assertEquals(categories, ys.length, e.getKey() + " / " + s.getName());
                assertFalse(Arrays.stream(ys).anyMatch(Double::isNaN),
                        e.getKey() + " / " + s.getName() + " has a gap: " + Arrays.toString(ys));
            }
        }
    }

    @Test
    void missingBenchmarkIsAGapInItsPlot() throws IOException {
        Map<String, CategoryChart> charts = charts(s -> s.replace("CasLimitBench.deliEnqueue2", "CasLimitBench.renamed"));
        double[] enqueue = values(charts.get("cas-limit"), "enqueueMessage");
        assertFalse(Double.isNaN(enqueue[0]), "1 thread is still there");
        assertTrue(Double.isNaN(enqueue[1]), "2 threads is missing");
    }
}
