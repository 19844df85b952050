package org.deliqueue.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

/**
 * The scaling page judges each target from the pass's own figures: a target met at one thread count and missed at
 * another is reported as such (the negative control is the missed one), and a thread count above the machine's
 * cores is marked time-shared. Its plot draws JMH's error as error bars, one colour per structure (the colours of the
 * benchmark page's plots), and names the machine and the pass in its title.
 */
class ScalingReportTest {
    @TempDir
    Path dir;

    private void result(int threads, Map<String, Double> scores) throws IOException {
        StringBuilder json = new StringBuilder("[");
        scores.forEach((method, score) -> json.append(json.length() > 1 ? "," : "")
                .append("{\"benchmark\":\"org.deliqueue.ContentionBench.").append(method)
                .append("\",\"mode\":\"thrpt\",\"threads\":").append(threads)
                .append(",\"primaryMetric\":{\"score\":").append(score)
                .append(",\"scoreError\":0.5,\"scoreUnit\":\"ops/us\"}}"));
        Files.writeString(dir.resolve("two-t" + threads + ".json"), json.append(']').toString());
    }

    @Test
    void eachTargetIsJudgedAtEachThreadCountFromThatPassAlone() throws IOException {
        Files.writeString(dir.resolve("two.env"), "cores=2\ncpu=AMD EPYC\ndate=2026-11-26 00:00 UTC\n"
                + "jvm=OpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)\ncommand=bench/scaling.sh\n");
        result(1, Map.of("xchg", 100.0, "cas", 80.0, "casBackOff", 90.0, "deliEnqueue", 60.0, "concurrentLinkedQueue", 30.0,
                "delayQueue", 20.0));
        result(4, Map.of("xchg", 10.0, "cas", 8.0, "casBackOff", 9.0, "deliEnqueue", 4.0, "concurrentLinkedQueue", 3.0,
                "delayQueue", 5.0));
        ScalingReport r = ScalingReport.read("two", dir);
        assertEquals(List.of(1, 4), r.threads());
        String page = r.page("plot.png");
        assertTrue(page.contains("| at least 0.5x getAndSet on one word | 0.60x met | 0.40x **NOT met** |"), page);
        assertTrue(page.contains("| at least 1.0x DelayQueue.offer | 3.00x met | 0.80x **NOT met** |"), page);
        assertTrue(page.contains("| structure | 1 | 4 (time-shared) |"), page);
        assertTrue(page.contains("| DeliQueue.enqueueMessage | 60.0 ± 0.50 | 4.00 ± 0.50 |"), page);
        assertTrue(page.contains("`java -cp bench/target/benchmarks.jar org.deliqueue.bench.report.ScalingReport two "
                + "bench/results/scaling docs`"), "the page says how to redraw it from its files");
        assertTrue(!page.toLowerCase(java.util.Locale.ROOT).contains("issue"), "the page cites no issue tracker");

        CategoryChart c = r.chart();
        assertEquals(ScalingReport.STRUCTURES.size(), c.getSeriesCollection().size());
        assertTrue(c.getTitle().endsWith(" — 2-core AMD EPYC, JDK 17, pass two, 2026-11-26"), c.getTitle());
        CategorySeries deli = c.getSeries("DeliQueue.enqueueMessage");
        assertEquals(List.of(0.5, 0.5), Arrays.stream(deli.getExtraValues()).boxed().toList(), "JMH's error as error bars");
        assertEquals(Plots.colour("DeliQueue"), deli.getLineColor(), "DeliQueue's colour on every plot");
        assertEquals(Plots.colour("DelayQueue"), c.getSeries("DelayQueue.offer (one lock)").getLineColor());
        assertEquals(ScalingReport.STRUCTURES.size(),
                c.getSeriesCollection().stream().map(CategorySeries::getLineColor).distinct().count(),
                "one colour per structure");
    }
}
