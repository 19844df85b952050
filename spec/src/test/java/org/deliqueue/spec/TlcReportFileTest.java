package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Where a TLC run's JUnit XML goes: spec/target/tlc-junit.xml is the whole run's report (CI uploads it, the
 * obligation matrix reads it), so only a run of every CI model writes it; a narrowed or partial run writes its own.
 */
class TlcReportFileTest {

    @Test
    void onlyAWholeRunWritesTheReportCiUploads() {
        assertEquals("tlc-junit.xml", Tlc.junitFileName("ci", ""));
        assertEquals("tlc-junit.xml", Tlc.junitFileName("all", ""));
        assertEquals("tlc-junit.xml", Tlc.junitFileName("ci", null));
    }

    @Test
    void narrowedAndPartialRunsWriteTheirOwn() {
        assertEquals("tlc-junit-only.xml", Tlc.junitFileName("ci", "MCNoQuit"));
        assertEquals("tlc-junit-only.xml", Tlc.junitFileName("all", "MC_.*"));
        assertEquals("tlc-junit-only.xml", Tlc.junitFileName("mutants", "MC_LOST_WAKEUP"));
        assertEquals("tlc-junit-only.xml", Tlc.junitFileName("full", "MCRemoval"));
        assertEquals("tlc-junit-mutants.xml", Tlc.junitFileName("mutants", ""));
        assertEquals("tlc-junit-full.xml", Tlc.junitFileName("full", ""));
        assertEquals("tlc-junit-sim.xml", Tlc.junitFileName("sim", ""));
    }
}
