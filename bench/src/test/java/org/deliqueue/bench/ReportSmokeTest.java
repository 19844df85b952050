package org.deliqueue.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import javax.imageio.ImageIO;
import org.deliqueue.bench.report.Report;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report generator on a small committed sample of a real pass (src/test/resources/sample*): it must read JMH's
 * JSON, find every benchmark the page needs, and write the page and its four plots (their series: PlotsTest). The negative controls
 * damage the sample (a truncated file, a result without its metric, a benchmark removed) and require the report
 * to refuse or to name what is missing; a pass of one class still renders. No benchmark runs here and nothing is
 * timed.
 */
class ReportSmokeTest {

    @TempDir
    Path tmp;

    /** Copies the sample pass into tmp/results, letting {@code edit} change the JMH JSON first. */
    private Path sample(java.util.function.UnaryOperator<String> edit) throws IOException {
        Path results = Files.createDirectories(tmp.resolve("results"));
        for (String suffix : new String[] {".json", "-backlog.jsonl", ".env"}) {
            try (InputStream in = getClass().getResourceAsStream("/sample" + suffix)) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                Files.writeString(results.resolve("sample" + suffix), suffix.equals(".json") ? edit.apply(text) : text);
            }
        }
        return results;
    }

    /** Stripping drops every raw-data field and nothing the report reads: the page is the same before and after. */
    @Test
    void strippingRawDataKeepsThePage() throws IOException {
        Path results = sample(s -> s);
        Path json = results.resolve("sample.json");
        assertTrue(Files.readString(json).contains("\"rawData\""), "the sample carries raw data to strip");
        Report.generate("sample", results, tmp.resolve("before"));
        String before = Files.readString(tmp.resolve("before").resolve("results.md"));
        org.deliqueue.bench.report.StripRawData.main(new String[] {json.toString()});
        String stripped = Files.readString(json);
        assertTrue(!stripped.contains("\"rawData\"") && !stripped.contains("\"rawDataHistogram\""), "raw data left");
        Report.generate("sample", results, tmp.resolve("after"));
        String after = Files.readString(tmp.resolve("after").resolve("results.md"));
        assertEquals(before, after);
    }

    @Test
    void generatesPageAndPlotsFromSample() throws IOException {
        Path docs = tmp.resolve("docs");
        Report report = Report.generate("sample", sample(s -> s), docs);
        assertEquals(Set.of(), report.missing(), "the sample holds every benchmark the page needs");

        String md = Files.readString(docs.resolve("results.md"));
        for (String heading : new String[] {"## Headline", "## 1. Busy-queue insertion", "## 2. Comparator",
                "## 3. The limit", "## 4. End to end", "## 5. Peers", "## 6. Message pool strategies",
                "## 7. Atomic bulk removal",
                "## Notes"}) {
            assertTrue(md.contains(heading), "missing section " + heading);
        }
        assertTrue(md.contains("bench/run.sh sample"), "the page names the command that produced it");
        assertTrue(md.matches("(?s).*\\| 2 \\| 100000 \\| [0-9.,]+ \\| [0-9.,]+ \\| \\*\\*[0-9.,]+x\\*\\*.*"),
                "the busy-queue table has a ratio for 2 producers at N = 100000");
        assertTrue(md.contains("LOCKED_LIST | 100%"), "the pool table is relative to the locked list");
        assertTrue(!md.contains("n/a"), "no cell of the page is n/a on a complete pass");

        // Each plot: linked from the page, a PNG of the chart's size with more than the background drawn.
        for (String name : new String[] {"busy-ratio", "busy-latency", "cas-limit", "peers"}) {
            String file = "sample-" + name + ".png";
            assertTrue(md.contains("](results/" + file + ")"), "the page links " + file);
            BufferedImage png = ImageIO.read(docs.resolve("results").resolve(file).toFile());
            assertNotNull(png, file + " is an image");
            assertEquals(800, png.getWidth(), file);
            assertEquals(420, png.getHeight(), file);
            Set<Integer> colours = new HashSet<>();
            for (int y = 0; y < png.getHeight(); y += 3) {
                for (int x = 0; x < png.getWidth(); x += 3) {
                    colours.add(png.getRGB(x, y));
                }
            }
            assertTrue(colours.size() > 10, file + " has lines or bars drawn, not only a background");
        }
    }

    @Test
    void passOnAnotherMachineGetsItsOwnPageWithoutTheSharedMachinesNotes() throws IOException {
        Path results = sample(s -> s);
        Files.writeString(results.resolve("sample.env"), "machine=a lent 16-core machine, otherwise idle\n",
                java.nio.file.StandardOpenOption.APPEND);
        Path docs = tmp.resolve("docs");
        Report.generate("sample", results, docs);
        assertTrue(!Files.exists(docs.resolve("results.md")), "the shared machine's page is left alone");
        String md = Files.readString(docs.resolve("results-sample.md"));
        assertTrue(md.contains("a lent 16-core machine, otherwise idle"), "the page describes its machine");
        assertTrue(!md.contains("**shared**") && !md.contains("## Notes"), "no claim written for the shared machine");
        assertTrue(md.contains("](results.md)"), "the page points to the notes");
    }

    @Test
    void malformedJsonFailsTheReport() throws IOException {
        Path results = sample(s -> s.substring(0, s.length() / 2));
        assertThrows(IOException.class, () -> Report.generate("sample", results, tmp.resolve("docs")));
    }

    @Test
    void resultWithoutItsMetricFailsTheReport() throws IOException {
        Path results = sample(s -> s.replaceFirst("\"primaryMetric\"", "\"renamedMetric\""));
        assertThrows(IOException.class, () -> Report.generate("sample", results, tmp.resolve("docs")));
    }

    @Test
    void missingBenchmarkIsNamed() throws IOException {
        Path results = sample(s -> s.replace("CasLimitBench.deliEnqueue2", "CasLimitBench.renamed"));
        Report report = Report.generate("sample", results, tmp.resolve("docs"));
        assertEquals(Set.of("CasLimitBench.deliEnqueue2"), report.missing());
        assertTrue(Files.readString(tmp.resolve("docs").resolve("results.md")).contains("n/a"));
    }

    @Test
    void partialPassRendersAndNamesWhatIsMissing() throws IOException {
        ObjectMapper json = new ObjectMapper();
        Path results = sample(s -> {
            try {
                ArrayNode all = (ArrayNode) json.readTree(s);
                ArrayNode casOnly = json.createArrayNode();
                all.forEach(r -> {
                    if (r.get("benchmark").asText().contains("CasLimitBench")) {
                        casOnly.add(r);
                    }
                });
                return json.writeValueAsString(casOnly);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Files.delete(results.resolve("sample-backlog.jsonl"));
        Report report = Report.generate("sample", results, tmp.resolve("docs"));
        assertTrue(report.missing().contains("BusyQueueBench.producers2 impl,DELI,n,100000"), report.missing().toString());
        assertTrue(report.missing().stream().noneMatch(m -> m.startsWith("CasLimitBench")), report.missing().toString());
        for (String name : new String[] {"busy-ratio", "busy-latency", "cas-limit", "peers"}) {
            assertNotNull(ImageIO.read(tmp.resolve("docs/results/sample-" + name + ".png").toFile()), name);
        }
    }
}
