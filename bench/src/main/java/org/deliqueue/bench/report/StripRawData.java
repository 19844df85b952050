package org.deliqueue.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;

/**
 * Drops JMH's per-iteration raw data ({@code rawData}, and the histograms of sample mode, {@code rawDataHistogram})
 * from result files, in place: the report reads scores, errors and percentiles only, and the raw histograms of one
 * full pass came to 43 MB. Everything else JMH wrote stays. {@code bench/run.sh} runs it after each pass.
 */
public final class StripRawData {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StripRawData() {
    }

    public static void main(String[] args) throws IOException {
        for (String file : args) {
            strip(Path.of(file));
        }
    }

    /** Rewrites {@code file} (a JMH JSON result array) without raw data. */
    static void strip(Path file) throws IOException {
        JsonNode results = JSON.readTree(file.toFile());
        for (JsonNode result : results) {
            dropRaw(result.get("primaryMetric"));
            JsonNode secondary = result.get("secondaryMetrics");
            if (secondary != null) {
                for (Iterator<JsonNode> it = secondary.elements(); it.hasNext(); ) {
                    dropRaw(it.next());
                }
            }
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), results);
    }

    private static void dropRaw(JsonNode metric) {
        if (metric instanceof ObjectNode m) {
            m.remove("rawData");
            m.remove("rawDataHistogram");
        }
    }
}
