package org.deliqueue.jpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the JPF version of {@code org.deliqueue.FieldAccess} ({@code src/jpf/java}, used by {@code make jpf} only)
 * honest where JPF is absent: it compiles against the current impl (release 17), declares exactly impl's methods
 * and fields, and its two replacements ({@code xchgFreelist}, {@code decrementWakeRefs}: CAS loops for getAndSet
 * and getAndAdd) give the same results as impl's, sequentially and under real threads (every value returned
 * exactly once: the loops are atomic read-modify-writes).
 *
 * <p>The class is compiled into {@code target/jpf-fieldaccess-test} and loaded in its own class loader, ahead of
 * impl's classes, the way JPF's class path puts it ahead of impl's jar. The test class path never contains it.
 */
class JpfFieldAccessTest {
    static final Path SOURCE = Paths.get("src/jpf/java/org/deliqueue/FieldAccess.java");
    static final Path OUT = Paths.get("target/jpf-fieldaccess-test");
    static final long TEARDOWN = Long.MIN_VALUE;

    static URLClassLoader loader;
    static Class<?> jpfFieldAccess;
    static Class<?> deliQueue;
    static Class<?> message;

    @BeforeAll
    static void compileAndLoad() throws Exception {
        assertTrue(Files.isRegularFile(SOURCE), "missing " + SOURCE.toAbsolutePath());
        Path impl = Paths.get(Class.forName("org.deliqueue.DeliQueue").getProtectionDomain().getCodeSource()
                .getLocation().toURI());
        Files.createDirectories(OUT);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, "--release", "17", "-Xlint:all", "-Werror",
                "-cp", impl.toString(), "-d", OUT.toString(), SOURCE.toString());
        assertEquals(0, rc, "the JPF FieldAccess does not compile against impl:\n"
                + diagnostics.toString(StandardCharsets.UTF_8));
        loader = new URLClassLoader(new URL[] {OUT.toUri().toURL(), impl.toUri().toURL()},
                ClassLoader.getPlatformClassLoader());
        jpfFieldAccess = loader.loadClass("org.deliqueue.FieldAccess");
        deliQueue = loader.loadClass("org.deliqueue.DeliQueue");
        message = loader.loadClass("org.deliqueue.Message");
    }

    @Test
    void shadowsImplsClassAheadOfIt() throws Exception {
        assertEquals(OUT.toUri().toURL().toString(),
                jpfFieldAccess.getProtectionDomain().getCodeSource().getLocation().toString());
        assertSame(loader, deliQueue.getClassLoader(), "impl's DeliQueue binds to the JPF FieldAccess");
    }

    @Test
    void declaresExactlyImplsMethodsAndFields() throws Exception {
        Class<?> real = Class.forName("org.deliqueue.FieldAccess");
        assertEquals(signatures(real), signatures(jpfFieldAccess));
    }

    /**
     * Apart from its class comment and the replaced methods, the JPF version is impl's source text: a change to
     * impl's FieldAccess (a new ordering, a new method) must be made here too, and this test says so.
     */
    @Test
    void isImplsSourceExceptTheReplacedMethods() throws Exception {
        Path impl = Paths.get("../impl/src/main/java/org/deliqueue/FieldAccess.java");
        assertTrue(Files.isRegularFile(impl), "missing " + impl.toAbsolutePath());
        assertEquals(withoutReplaced(Files.readString(impl)), withoutReplaced(Files.readString(SOURCE)),
                "jpf/src/jpf/java/org/deliqueue/FieldAccess.java has drifted from impl's FieldAccess");
    }

    /**
     * The source without its class comment and without the {@link #REPLACED} methods (and their comments):
     * xchgFreelist, decrementWakeRefs, loadFence, backOff (no pause in JPF), lpAsking (JPF's AtomicInteger has no
     * getPlain), and the acquire, opaque and release accessors (volatile in JPF).
     */
    static final String[] REPLACED = {"static Message xchgFreelist(", "static long decrementWakeRefs(",
        "static void loadFence(", "static Message laTop(", "static Message loFreelist(", "static void soWaitWord(",
        "static Message laSleepBarrier(", "static void soSleepBarrier(", "static long laWakeRefs(",
        "static long loWakeRefs(", "static int backOff(", "static int lpAsking("};

    static String withoutReplaced(String source) {
        String s = source.replace("\r\n", "\n");
        int classAt = s.indexOf("\nfinal class FieldAccess");
        int commentAt = s.lastIndexOf("/**", classAt);
        assertTrue(classAt > 0 && commentAt > 0, "no class comment before 'final class FieldAccess'");
        s = s.substring(0, commentAt) + s.substring(classAt + 1);
        for (String method : REPLACED) {
            int at = s.indexOf(method);
            assertTrue(at > 0, "no method " + method);
            int start = s.lastIndexOf("\n\n", at) + 1; // the blank line before the method (and its comment)
            int end = s.indexOf("\n    }\n", at) + "\n    }\n".length();
            s = s.substring(0, start) + s.substring(end);
        }
        return s;
    }

    @Test
    void exchangeReturnsThePreviousFreelist() throws Exception {
        Object q = newQueue();
        Object m1 = newMessage();
        Object m2 = newMessage();
        assertNull(xchg(q, m1));
        assertSame(m1, xchg(q, m2));
        assertSame(m2, xchg(q, null));
        assertNull(field(deliQueue, "freelist").get(q));
    }

    @Test
    void decrementReturnsTheNewCountTeardownBitIncluded() throws Exception {
        Object q = newQueue();
        Field refs = field(deliQueue, "wakeRefs");
        refs.setLong(q, 2);
        assertEquals(1L, decrement(q));
        assertEquals(0L, decrement(q));
        refs.setLong(q, TEARDOWN | 1);
        assertEquals(TEARDOWN, decrement(q), "the last waker out after TEARDOWN sees exactly TEARDOWN");
        assertEquals(TEARDOWN, refs.getLong(q));
    }

    @Test
    void concurrentDecrementsAreAtomic() throws Exception {
        int threads = 4;
        int each = 20_000;
        Object q = newQueue();
        field(deliQueue, "wakeRefs").setLong(q, (long) threads * each);
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        List<Throwable> failures = new ArrayList<>();
        runThreads(threads, () -> {
            for (int i = 0; i < each; i++) {
                long v = decrement(q);
                if (!seen.add(v)) {
                    throw new AssertionError("two decrements returned " + v);
                }
            }
        }, failures);
        assertEquals(List.of(), failures);
        assertEquals(0L, field(deliQueue, "wakeRefs").getLong(q));
        assertEquals((long) threads * each, seen.size());
    }

    @Test
    void concurrentExchangesLoseAndDuplicateNothing() throws Exception {
        int threads = 4;
        int each = 5_000;
        Object q = newQueue();
        Set<Object> returned = ConcurrentHashMap.newKeySet();
        List<Throwable> failures = new ArrayList<>();
        runThreads(threads, () -> {
            for (int i = 0; i < each; i++) {
                Object previous = xchg(q, newMessage());
                if (previous != null && !returned.add(previous)) {
                    throw new AssertionError("a message was exchanged out twice");
                }
            }
        }, failures);
        assertEquals(List.of(), failures);
        Object last = field(deliQueue, "freelist").get(q);
        assertNotNull(last);
        assertTrue(returned.add(last), "the message left in place was also returned");
        assertEquals(threads * each, returned.size(), "every message put in comes out exactly once");
    }

    // ---- helpers ----

    interface Body {
        void run() throws Exception;
    }

    private static void runThreads(int n, Body body, List<Throwable> failures) throws InterruptedException {
        Thread[] ts = new Thread[n];
        for (int i = 0; i < n; i++) {
            ts[i] = new Thread(() -> {
                try {
                    body.run();
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) {
            t.join();
        }
    }

    private static Set<String> signatures(Class<?> c) {
        Set<String> s = new TreeSet<>();
        for (Method m : c.getDeclaredMethods()) {
            if (!m.isSynthetic()) {
                s.add(Modifier.toString(m.getModifiers()) + " " + m.getReturnType().getName() + " " + m.getName()
                        + Arrays.stream(m.getParameterTypes()).map(Class::getName)
                                .collect(Collectors.joining(",", "(", ")")));
            }
        }
        for (Field f : c.getDeclaredFields()) {
            if (!f.isSynthetic()) {
                s.add(Modifier.toString(f.getModifiers()) + " " + f.getType().getName() + " " + f.getName());
            }
        }
        return s;
    }

    private static Object newQueue() throws Exception {
        Class<?> clock = loader.loadClass("org.deliqueue.Clock");
        Object manual = loader.loadClass("org.deliqueue.ManualClock").getConstructor().newInstance();
        return deliQueue.getConstructor(boolean.class, clock).newInstance(true, manual);
    }

    private static Object newMessage() throws Exception {
        return message.getConstructor().newInstance();
    }

    private static Object xchg(Object q, Object update) throws Exception {
        Method m = jpfFieldAccess.getDeclaredMethod("xchgFreelist", deliQueue, message);
        m.setAccessible(true);
        return m.invoke(null, q, update);
    }

    private static long decrement(Object q) throws Exception {
        Method m = jpfFieldAccess.getDeclaredMethod("decrementWakeRefs", deliQueue);
        m.setAccessible(true);
        return (long) m.invoke(null, q);
    }

    private static Field field(Class<?> c, String name) throws Exception {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
