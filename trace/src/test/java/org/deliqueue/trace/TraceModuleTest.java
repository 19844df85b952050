package org.deliqueue.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run's uptimes as the spec's small clock sees them: ranks, and a clock jump laid out as ticks of one; and the
 * constants of the generated module: every removal is Fickle (its answers come from the log), no query is; the
 * operations that must have returned are those of the threads that finished.
 */
class TraceModuleTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long NO_DEADLINE = Long.MAX_VALUE >>> 2;

    private static TraceModule.ThreadLog log(String thread, String... events) throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (String e : events) {
            nodes.add(JSON.readTree(e));
        }
        return new TraceModule.ThreadLog(thread, nodes);
    }

    private static List<String> field(TraceModule.ThreadLog t, String name) {
        List<String> out = new ArrayList<>();
        t.events().forEach(e -> out.add(e.get("a").asText() + "=" + (e.has(name) ? e.get(name).asText() : "-")));
        return out;
    }

    @Test
    void uptimesBecomeRanksAndAJumpBecomesTicksOfOne() throws Exception {
        List<TraceModule.ThreadLog> ranked = TraceModule.rankUptimes(List.of(
                log("Clock", "{\"a\":\"tick\",\"now\":5,\"ts\":100}", "{\"a\":\"tick\",\"now\":9,\"ts\":200}"),
                log("p1", "{\"a\":\"push_readTop\",\"when\":3}", "{\"a\":\"push_readTop\",\"when\":0}",
                        "{\"a\":\"signalIfEarlier_cas\",\"deadline\":9}"),
                log("Looper", "{\"a\":\"sleep_publish\",\"dl\":" + NO_DEADLINE + "}",
                        "{\"a\":\"sweep_readTop\",\"now\":5}")));
        // uptimes 0, 3, 5, 9 are ranks 0..3; the jump 0 -> 5 passes 3, no thread's reading: tick 1, then tick 2
        assertEquals(List.of("tick=1", "tick=2", "tick=3"), field(ranked.get(0), "now"));
        assertEquals(List.of("tick=100", "tick=-", "tick=-"), field(ranked.get(0), "after"),
                "an added tick: the next one may have happened as early as the event before the jump (here the first)");
        assertEquals(List.of("push_readTop=1", "push_readTop=0"), field(ranked.get(1), "when").subList(0, 2));
        assertEquals("signalIfEarlier_cas=3", field(ranked.get(1), "deadline").get(2));
        assertEquals("sleep_publish=" + NO_DEADLINE, field(ranked.get(2), "dl").get(0), "no deadline stays INF");
        assertEquals("sweep_readTop=2", field(ranked.get(2), "now").get(1));
    }

    @Test
    void aRunThatMovesItsClockByOneThroughEveryUptimeIsUnchanged() throws Exception {
        List<TraceModule.ThreadLog> run = List.of(
                log("Clock", "{\"a\":\"tick\",\"now\":1}", "{\"a\":\"tick\",\"now\":2}"),
                log("p1", "{\"a\":\"push_readTop\",\"when\":2}", "{\"a\":\"push_readTop\",\"when\":0}"));
        List<TraceModule.ThreadLog> ranked = TraceModule.rankUptimes(run);
        for (int i = 0; i < run.size(); i++) {
            assertEquals(run.get(i).events().toString(), ranked.get(i).events().toString());
        }
    }

    @Test
    void aNegativeNowMeansNoReadingAndStaysAsItIs() throws Exception {
        List<TraceModule.ThreadLog> ranked = TraceModule.rankUptimes(List.of(
                log("Looper", "{\"a\":\"sweep_readTop\",\"now\":-1}", "{\"a\":\"sweep_readTop\",\"now\":7}")));
        assertEquals(List.of("sweep_readTop=-1", "sweep_readTop=1"), field(ranked.get(0), "now"));
    }

    @Test
    void everyRemovalIsFickleAndNoQueryIs(@TempDir Path dir) throws Exception {
        Path ndjson = dir.resolve("run.ndjson");
        Files.write(ndjson, List.of(
                "{\"meta\":true,\"t\":\"h1\",\"op\":\"has\",\"matches\":[\"m1\"]}",
                "{\"meta\":true,\"t\":\"r1\",\"op\":\"remove\",\"matches\":[\"m1\"]}",
                "{\"thread\":\"p1\",\"a\":\"push_readTop\",\"t\":\"m1\",\"kind\":\"sync\",\"when\":0,\"top\":\"Nil\","
                        + "\"ts\":1000}",
                "{\"thread\":\"q\",\"a\":\"traverse_readTop\",\"t\":\"h1\",\"top\":\"m1\",\"ts\":2000}",
                "{\"thread\":\"r\",\"a\":\"traverse_readTop\",\"t\":\"r1\",\"top\":\"m1\",\"ts\":3000}",
                "{\"thread\":\"r\",\"a\":\"removeMatching_ask\",\"t\":\"r1\",\"m\":\"m1\",\"removed\":false,"
                        + "\"answer\":true,\"ts\":4000}"));
        String tla = TraceModule.read(ndjson).toTla("run.ndjson");
        assertTrue(tla.contains("TTraversers == {\"h1\", \"r1\"}\n"), tla);
        assertTrue(tla.contains("TOp == [h1 |-> \"has\", r1 |-> \"remove\"]\n"), tla);
        assertTrue(tla.contains("TFickle == {\"r1\"}\n"), "the removal's answers come from its log: " + tla);
        assertTrue(tla.contains("[a |-> \"removeMatching_ask\", t |-> \"r1\", m |-> \"m1\", removed |-> FALSE, "
                + "answer |-> TRUE, ts |-> 3]"), tla);
    }

    @Test
    void theOperationsOfAHungThreadNeedNotHaveReturned(@TempDir Path dir) throws Exception {
        Path ndjson = dir.resolve("hung.ndjson");
        Files.write(ndjson, List.of(
                "{\"meta\":\"pred\",\"t\":\"h1\",\"op\":\"has\",\"matches\":[\"m1\"]}",
                "{\"meta\":\"hung\",\"threads\":[\"r1-looper\"]}",
                "{\"thread\":\"p1\",\"a\":\"push_readTop\",\"t\":\"m1\",\"kind\":\"sync\",\"when\":0,\"top\":\"Nil\","
                        + "\"ts\":1000}",
                "{\"thread\":\"q\",\"a\":\"traverse_readTop\",\"t\":\"h1\",\"top\":\"m1\",\"ts\":2000}",
                "{\"thread\":\"r1-looper\",\"a\":\"sleep_park\",\"t\":\"Looper\",\"ts\":3000}",
                "{\"thread\":\"c\",\"a\":\"tick\",\"t\":\"Clock\",\"now\":1,\"ts\":4000}"));
        String tla = TraceModule.read(ndjson).toTla("hung.ndjson");
        assertTrue(tla.contains("TEnded == {\"h1\", \"m1\"}\n"),
                "the Looper's thread hung, so its operation need not have returned; the clock has none: " + tla);
    }
}
