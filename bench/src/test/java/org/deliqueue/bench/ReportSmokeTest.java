package org.deliqueue.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.deliqueue.bench.report.Json;
import org.deliqueue.bench.report.Report;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report generator on a small committed sample of a real pass (src/test/resources/sample*): it must parse JMH's
 * JSON and write the page and the SVG plots. No benchmark runs here and nothing is timed.
 */
class ReportSmokeTest {

    @Test
    void jsonReaderHandlesJmhShapes() {
        Object v = Json.parse("[{\"a\" : 1.5e3, \"b\" : [true, false, null], \"c\" : \"x\\\"y\\u0041\", "
                + "\"d\" : {}, \"e\" : []}]");
        Map<?, ?> m = (Map<?, ?>) ((List<?>) v).get(0);
        assertEquals(1500.0, m.get("a"));
        assertEquals(List.of(true, false), ((List<?>) m.get("b")).subList(0, 2));
        assertEquals("x\"yA", m.get("c"));
    }

    @Test
    void generatesPageAndPlotsFromSample(@TempDir Path tmp) throws IOException {
        Path results = Files.createDirectories(tmp.resolve("results"));
        for (String suffix : new String[] {".json", "-backlog.jsonl", ".env"}) {
            try (InputStream in = getClass().getResourceAsStream("/sample" + suffix)) {
                Files.copy(in, results.resolve("sample" + suffix));
            }
        }
        Path docs = tmp.resolve("docs");
        Path page = Report.generate("sample", results, docs);

        String md = Files.readString(page);
        for (String heading : new String[] {"## Headline", "## 1. Busy-queue insertion", "## 2. Comparator",
                "## 3. The limit", "## 4. End to end", "## 5. Peers", "## 6. Message pool strategies", "## Notes"}) {
            assertTrue(md.contains(heading), "missing section " + heading);
        }
        assertTrue(md.contains("bench/run.sh sample"), "the page names the command that produced it");
        assertTrue(md.matches("(?s).*\\| 2 \\| 100000 \\| [0-9.,]+ \\| [0-9.,]+ \\| \\*\\*[0-9.,]+x\\*\\*.*"),
                "the busy-queue table has a ratio for 2 producers at N = 100000");
        assertTrue(md.contains("LOCKED_LIST | 100%"), "the pool table is relative to the locked list");

        for (String svg : new String[] {"sample-busy-ratio.svg", "sample-busy-latency.svg"}) {
            String text = Files.readString(docs.resolve("results").resolve(svg));
            assertTrue(text.startsWith("<svg"), svg);
            assertTrue(text.contains("<polyline"), svg + " has lines");
            assertTrue(text.trim().endsWith("</svg>"), svg);
        }
    }
}
