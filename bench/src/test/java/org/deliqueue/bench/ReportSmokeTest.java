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
 * JSON, find every benchmark the page needs, and write the page and its four plots (their series: PlotsTest). The
 * negative controls damage the sample (a truncated file, a result without its metric, a benchmark removed) and require
 * the report to refuse or to name what is missing; a pass of one class still renders. A pass writes its own page and
 * plots and leaves the reference page alone unless asked to replace it. No benchmark runs here and nothing is timed.
 */
public class ReportSmokeTest {

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

    /**
     * The sample's CAS results with an error of a tenth of their score: the sample ran 2 iterations, too few for JMH
     * to give one ("NaN"), which a full pass has.
     */
    public static String withCasErrors(String json) {
        try {
            ObjectMapper mapper = new ObjectMapper();
            ArrayNode all = (ArrayNode) mapper.readTree(json);
            all.forEach(r -> {
                if (r.get("benchmark").asText().contains("CasLimitBench")) {
                    com.fasterxml.jackson.databind.node.ObjectNode metric =
                            (com.fasterxml.jackson.databind.node.ObjectNode) r.get("primaryMetric");
                    metric.put("scoreError", metric.get("score").asDouble() / 10);
                }
            });
            return mapper.writeValueAsString(all);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Stripping drops every raw-data field and nothing the report reads: the page is the same before and after. */
    @Test
    void strippingRawDataKeepsThePage() throws IOException {
        Path results = sample(s -> s);
        Path json = results.resolve("sample.json");
        assertTrue(Files.readString(json).contains("\"rawData\""), "the sample carries raw data to strip");
        Report.generate("sample", results, tmp.resolve("before"), true);
        String before = Files.readString(tmp.resolve("before").resolve("results.md"));
        org.deliqueue.bench.report.StripRawData.main(new String[] {json.toString()});
        String stripped = Files.readString(json);
        assertTrue(!stripped.contains("\"rawData\"") && !stripped.contains("\"rawDataHistogram\""), "raw data left");
        Report.generate("sample", results, tmp.resolve("after"), true);
        String after = Files.readString(tmp.resolve("after").resolve("results.md"));
        assertEquals(before, after);
    }

    @Test
    void generatesPageAndPlotsFromSample() throws IOException {
        Path docs = tmp.resolve("docs");
        Report report = Report.generate("sample", sample(ReportSmokeTest::withCasErrors), docs, true);
        assertEquals(Set.of(), report.missing(), "the sample holds every benchmark the page needs");

        String md = Files.readString(docs.resolve("results.md"));
        for (String heading : new String[] {"## Headline", "## 1. Busy-queue insertion", "## 2. Comparator",
                "## 3. The limit", "## 4. End to end", "## 5. Peers", "## 6. Message pool strategies",
                "## 7. Atomic bulk removal",
                "## Notes"}) {
            assertTrue(md.contains(heading), "missing section " + heading);
        }
        assertTrue(md.contains("bench/run.sh sample"), "the page names the command that produced it");
        assertTrue(md.contains("`sample.json`, `sample-backlog.jsonl`, `sample.env`"), "the page names its files");
        assertTrue(md.contains("org.deliqueue.bench.report.Report --reference sample bench/results docs"),
                "the page says how to redraw it from its files");
        assertTrue(md.contains("only `make bench-full REFERENCE=1`"), "the page says what replaces it");
        assertTrue(!md.contains("`make bench` (quick pass) or `make bench-full` regenerates it"),
                "no claim that any pass regenerates the reference page");
        assertTrue(md.matches("(?s).*\\| 1 \\| [0-9.,]+ ± [0-9.,]+ \\| [0-9.,]+ ± [0-9.,]+ \\|.*"),
                "the CAS table prints JMH's error, which its plot draws as error bars");
        Report.generate("sample", sample(s -> s), tmp.resolve("no-errors"), true);
        assertTrue(Files.readString(tmp.resolve("no-errors").resolve("results.md"))
                        .matches("(?s).*\\| 1 \\| [0-9.,]+ \\| [0-9.,]+ \\| [0-9.,]+ \\| [0-9.,]+ \\| [0-9]+% \\|.*"),
                "where JMH gave no error (too few iterations), the CAS table prints the score alone");
        assertTrue(md.contains("| 1000 | ScheduledThreadPoolExecutor | 1 |") && !md.contains("| STPE |"),
                "the peers table names the queues, not the benchmark's enum");
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
            assertEquals(1000, png.getWidth(), file);
            assertEquals(480, png.getHeight(), file);
            Set<Integer> colours = new HashSet<>();
            for (int y = 0; y < png.getHeight(); y += 3) {
                for (int x = 0; x < png.getWidth(); x += 3) {
                    colours.add(png.getRGB(x, y));
                }
            }
            assertTrue(colours.size() > 10, file + " has lines or bars drawn, not only a background");
        }
    }

    /** What `make bench` does on any machine: a pass not asked to replace the reference leaves it, and its plots, alone. */
    @Test
    void aPassWritesItsOwnPageAndLeavesTheReferenceAlone() throws IOException {
        Path results = sample(s -> s);
        Path docs = Files.createDirectories(tmp.resolve("docs").resolve("results")).getParent();
        Files.writeString(docs.resolve("results.md"), "the reference page\n");
        Files.writeString(docs.resolve("results").resolve("full-busy-ratio.png"), "the reference plot\n");
        Report report = Report.generate("sample", results, docs);
        assertEquals("results-sample.md", report.pageName());
        assertEquals("the reference page\n", Files.readString(docs.resolve("results.md")));
        assertEquals("the reference plot\n", Files.readString(docs.resolve("results").resolve("full-busy-ratio.png")));
        String md = Files.readString(docs.resolve("results-sample.md"));
        assertTrue(md.contains("Report sample bench/results docs`") && !md.contains("--reference"),
                "the page says how to redraw it, as a page of its own");
        assertTrue(!md.contains("**shared**") && !md.contains("## Notes"), "no claim written for the shared machine");
        assertTrue(md.contains("](results.md)"), "the page points to the reference page and its notes");
    }

    @Test
    void passOnAnotherMachineDescribesItsMachine() throws IOException {
        Path results = sample(s -> s);
        Files.writeString(results.resolve("sample.env"), "machine=a lent 16-core machine, otherwise idle\n",
                java.nio.file.StandardOpenOption.APPEND);
        Path docs = tmp.resolve("docs");
        Report.generate("sample", results, docs);
        assertTrue(!Files.exists(docs.resolve("results.md")), "the reference page is left alone");
        String md = Files.readString(docs.resolve("results-sample.md"));
        assertTrue(md.contains("a lent 16-core machine, otherwise idle"), "the page describes its machine");
        assertTrue(!md.contains("**shared**"), "no claim written for the shared machine");
    }

    /** The notes quote the pass's own figures, and say which pass their words were checked against. */
    @Test
    void theNotesQuoteThisPassAndAreDated() throws IOException {
        Path docs = tmp.resolve("docs");
        Report.generate("sample", sample(s -> s), docs, true);
        String md = Files.readString(docs.resolve("results.md"));
        java.util.regex.Matcher headline = java.util.regex.Pattern
                .compile("\\| 1 producer: one insert \\(p50 time\\), legacy / DeliQueue(?: \\| [^|]+){3} \\| ([^|]+) \\|")
                .matcher(md);
        assertTrue(headline.find(), "the headline has the p50 ratio at N = 100000");
        String notes = md.substring(md.indexOf("## Notes"));
        assertTrue(notes.contains("reaches " + headline.group(1).trim() + " (1 producer)"),
                "the notes quote the headline's p50 ratio, " + headline.group(1));
        assertTrue(notes.contains("written for the pass of " + "2026-11-23 07:23 UTC" + ", not this one (2026-11-22"),
                "the notes say their words were written for another pass than the sample's");
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
        assertTrue(Files.readString(tmp.resolve("docs").resolve("results-sample.md")).contains("n/a"));
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
