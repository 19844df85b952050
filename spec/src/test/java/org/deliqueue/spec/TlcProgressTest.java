package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a long TLC run shows as it comes, and where it resumes from: the lines are TLC 2.18's own (a run of MCRemoval
 * with {@code -checkpoint 1}, then resumed with {@code -recover}); the negative controls are the lines it must not
 * show (the parse log, the witness report, the trace) and the metadirs it must not resume from.
 */
class TlcProgressTest {

    @TempDir
    Path tmp;

    @Test
    void progressCheckpointsRecoveryAndTheResultAreShown() {
        for (String line : List.of(
                "Starting... (2026-11-26 21:36:17)",
                "Finished computing initial states: 1 distinct state generated at 2026-11-26 21:36:18.",
                "Progress(19) at 2026-11-26 21:37:21: 422,956 states generated (415,637 s/min), 137,326 distinct "
                        + "states found (134,124 ds/min), 35,816 states left on queue.",
                "Checkpointing of run /work/main/spec/target/tlc-meta/MCRemoval-27444176046297/26-11-26-21-36-16",
                "Checkpointing completed at (2026-11-26 21:37:21)",
                "Progress: 1204356 states checked, 6021 traces generated (trace length: mean=200, var(x)=0, sd=0)",
                "Starting recovery from checkpoint /tmp/cpt-meta/26-11-26-21-32-39/",
                "Recovery completed. 97253 states examined. 26448 states on queue.",
                "Model checking completed. No error has been found.",
                "Error: Invariant NoLostWakeup is violated.",
                "3614 states generated, 1535 distinct states found, 0 states left on queue.",
                "The depth of the complete state graph search is 51.",
                "Finished in 02s at (2026-11-26 19:17:28)")) {
            assertTrue(Tlc.isProgress(line), line);
        }
        for (String line : List.of(
                "Parsing file /work/main/spec/models/MCRemoval.tla",
                "Semantic processing of module DeliQueue",
                "<<\"witness reached\", \"NoLostMessage\", \"pendingBelowOwner\">>",
                "State 4: <push_casTop(m1) line 193, col 3 to line 200, col 40 of module DeliQueue>",
                "/\\ top = m1",
                "  Progress(3) indented is not TLC's")) {
            assertFalse(Tlc.isProgress(line), line);
        }
    }

    @Test
    void aMetadirNamesItsModel() {
        assertEquals("MCRemoval", Tlc.modelOfMetadir(Path.of("spec/target/tlc-meta/MCRemoval-27444176046297")));
        assertEquals("MC_LOST_WAKEUP", Tlc.modelOfMetadir(Path.of("/x/MC_LOST_WAKEUP-1")));
        assertNull(Tlc.modelOfMetadir(Path.of("spec/target/tlc-meta")));
        assertNull(Tlc.modelOfMetadir(Path.of("spec/target/tlc-meta/MCRemoval-27444176046297/26-11-26-21-36-16")));
    }

    @Test
    void theNewestCheckpointOfAMetadirIsResumed() throws IOException {
        Path meta = tmp.resolve("MCRemoval-1");
        assertThrows(IllegalArgumentException.class, () -> Tlc.checkpointIn(meta), "no such metadir");
        Files.createDirectories(meta.resolve("26-11-26-21-36-16"));
        Files.createDirectories(meta.resolve("26-11-26-22-00-00"));
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> Tlc.checkpointIn(meta),
                "a run that stopped before its first checkpoint");
        assertTrue(none.getMessage().contains("holds no TLC checkpoint"), none.getMessage());
        Files.writeString(meta.resolve("26-11-26-21-36-16/queue.chkpt"), "");
        assertEquals(meta.resolve("26-11-26-21-36-16"), Tlc.checkpointIn(meta), "the only one with a checkpoint");
        Files.writeString(meta.resolve("26-11-26-22-00-00/queue.chkpt"), "");
        assertEquals(meta.resolve("26-11-26-22-00-00"), Tlc.checkpointIn(meta), "the newest");
        assertEquals(meta.resolve("26-11-26-21-36-16"), Tlc.checkpointIn(meta.resolve("26-11-26-21-36-16")),
                "TLC's own folder, given directly");
    }
}
