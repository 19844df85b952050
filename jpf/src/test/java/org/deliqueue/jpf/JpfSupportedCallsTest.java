package org.deliqueue.jpf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import org.junit.jupiter.api.Test;

/**
 * Keeps the code JPF runs (impl's classes, its mutants and the harnesses) within what JPF can execute, where JPF
 * is absent. JPF runs the JDK's own code for most of {@code java.util.concurrent.atomic}, and that code goes through
 * {@code Unsafe} or a {@code VarHandle}, which JPF leaves null or does not model: {@code AtomicInteger.getPlain}
 * stops every harness at its first push with a NullPointerException (it did: a plain read of a counter, added to
 * DeliQueue.push on 2026-11-26, broke 45 of the 46 runs of {@code make jpf}, and no test without JPF noticed). So
 * outside {@code FieldAccess}, which has a JPF version of its own ({@link JpfFieldAccessTest}), the code may call
 * only:
 * <ul>
 *   <li>the {@code AtomicInteger} and {@code AtomicReference} methods JPF implements natively (its peers
 *       {@code JPF_java_util_concurrent_atomic_AtomicInteger} and {@code ..._AtomicReference} in jpf-core's
 *       {@code src/peers}), and those whose JDK code only reads or writes the volatile {@code value} field;</li>
 *   <li>no other atomic class ({@code AtomicLong} is an old stub in JPF), no {@code VarHandle}, no {@code Unsafe},
 *       no {@code Thread.onSpinWait};</li>
 *   <li>of {@code ThreadLocal}, {@code get} and {@code set} only: JPF's model of it fails on a {@code set} after a
 *       {@code remove} on one thread (its peer copies from an empty array: "illegal array offset: -1", which stopped
 *       {@code SleepBehindBarrier remove}, whose remover walks twice).</li>
 * </ul>
 * Two calls are known to stay outside JPF's runs ({@link #NEVER_UNDER_JPF}). The scan reads the byte code with
 * {@code javap}. Its negative control compiles a class that calls {@code getPlain}, {@code onSpinWait} and
 * {@code ThreadLocal.remove} and requires each to be reported.
 */
class JpfSupportedCallsTest {
    /** Implemented by JPF's peers, or plain accesses of the volatile {@code value} field in the JDK's code. */
    static final Set<String> SUPPORTED = Set.of(
            "java/util/concurrent/atomic/AtomicInteger.<init>",
            "java/util/concurrent/atomic/AtomicInteger.get",
            "java/util/concurrent/atomic/AtomicInteger.set",
            "java/util/concurrent/atomic/AtomicInteger.intValue",
            "java/util/concurrent/atomic/AtomicInteger.compareAndSet",
            "java/util/concurrent/atomic/AtomicInteger.weakCompareAndSet",
            "java/util/concurrent/atomic/AtomicInteger.getAndSet",
            "java/util/concurrent/atomic/AtomicInteger.getAndAdd",
            "java/util/concurrent/atomic/AtomicInteger.addAndGet",
            "java/util/concurrent/atomic/AtomicInteger.getAndIncrement",
            "java/util/concurrent/atomic/AtomicInteger.getAndDecrement",
            "java/util/concurrent/atomic/AtomicInteger.incrementAndGet",
            "java/util/concurrent/atomic/AtomicInteger.decrementAndGet",
            "java/util/concurrent/atomic/AtomicInteger.lazySet",
            "java/util/concurrent/atomic/AtomicReference.<init>",
            "java/util/concurrent/atomic/AtomicReference.get",
            "java/util/concurrent/atomic/AtomicReference.set",
            "java/util/concurrent/atomic/AtomicReference.compareAndSet",
            "java/util/concurrent/atomic/AtomicReference.getAndSet",
            "java/lang/ThreadLocal.<init>",
            "java/lang/ThreadLocal.withInitial",
            "java/lang/ThreadLocal.get",
            "java/lang/ThreadLocal.set");

    /** Calls JPF never executes, each with the reason; every one must still be found (no stale entry). */
    static final Map<String, String> NEVER_UNDER_JPF = Map.of(
            "org.deliqueue.Mutant$WeakModes calls java/lang/invoke/VarHandle.getAcquire",
            "the memory-ordering mutants' weaker access mode: jcstress twins, which no JPF run creates",
            "org.deliqueue.jpf.Harness calls java/lang/Thread.onSpinWait",
            "Harness.spin, the start-up jitter of the plain-JVM runs (Harness.plainJvm)");

    /** A call in javap's listing: {@code // Method owner.name:descriptor} (or InterfaceMethod). */
    static final Pattern CALL = Pattern.compile("// (?:Interface)?Method ([\\w/$]+)\\.\"?([\\w<>$]+)\"?:");
    static final Pattern WATCHED = Pattern.compile(
            "java/util/concurrent/atomic/.*|java/lang/invoke/VarHandle|sun/misc/Unsafe|jdk/internal/misc/Unsafe"
                    + "|java/lang/ThreadLocal");

    @Test
    void implAndTheHarnessesCallOnlyWhatJpfRuns() throws Exception {
        List<String> found = new ArrayList<>();
        found.addAll(unsupportedCalls(codeSource("org.deliqueue.DeliQueue"), cls -> true));
        // impl's test jar: only the mutants run under JPF
        found.addAll(unsupportedCalls(codeSource("org.deliqueue.Mutant"),
                cls -> cls.startsWith("org.deliqueue.Mutant")));
        found.addAll(unsupportedCalls(codeSource("org.deliqueue.jpf.Harness"), cls -> true));
        assertTrue(found.containsAll(NEVER_UNDER_JPF.keySet()), "stale entries in NEVER_UNDER_JPF: " + found);
        found.removeAll(NEVER_UNDER_JPF.keySet());
        assertEquals(List.of(), found, "calls JPF cannot run, outside FieldAccess (move them into FieldAccess, whose "
                + "JPF version in jpf/src/jpf replaces them, or use a call JPF implements):");
    }

    /** Negative control: a class that calls AtomicInteger.getPlain, Thread.onSpinWait, ThreadLocal.remove. */
    @Test
    void reportsAPlainReadOfAnAtomicAndASpinHint() throws Exception {
        Path dir = Paths.get("target/jpf-supported-calls-control");
        Path src = dir.resolve("src/Control.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, "class Control {\n"
                + "    static int f(java.util.concurrent.atomic.AtomicInteger a, ThreadLocal<Integer> t) {\n"
                + "        Thread.onSpinWait();\n"
                + "        t.set(1);\n"
                + "        t.remove();\n"
                + "        return a.getPlain() + a.get();\n"
                + "    }\n"
                + "}\n");
        Path classes = dir.resolve("classes");
        JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        assertEquals(0, javac.run(null, diagnostics, diagnostics, "--release", "17", "-d", classes.toString(),
                src.toString()), diagnostics.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("Control calls java/lang/Thread.onSpinWait", "Control calls java/lang/ThreadLocal.remove",
                "Control calls java/util/concurrent/atomic/AtomicInteger.getPlain"),
                unsupportedCalls(classes, cls -> true));
    }

    /**
     * The calls JPF cannot run in the classes {@code which} selects under {@code root} (a directory or a jar),
     * FieldAccess aside.
     */
    static List<String> unsupportedCalls(Path root, Predicate<String> which) throws IOException {
        Set<String> found = new TreeSet<>();
        for (String cls : classNames(root)) {
            if (!which.test(cls) || cls.equals("org.deliqueue.FieldAccess")) {
                continue; // its JPF version replaces it: JpfFieldAccessTest
            }
            Matcher m = CALL.matcher(javap(root, cls));
            while (m.find()) {
                String owner = m.group(1);
                String call = owner + "." + m.group(2);
                boolean spinHint = call.equals("java/lang/Thread.onSpinWait");
                if (spinHint || WATCHED.matcher(owner).matches() && !SUPPORTED.contains(call)) {
                    found.add(cls + " calls " + call);
                }
            }
        }
        return new ArrayList<>(found);
    }

    static String javap(Path root, String cls) {
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = javap.run(new PrintWriter(out), new PrintWriter(err), "-c", "-p", "-cp", root.toString(), cls);
        assertEquals(0, rc, "javap " + cls + ": " + err);
        return out.toString();
    }

    static List<String> classNames(Path root) throws IOException {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> files = Files.walk(root)) {
                files.filter(f -> f.toString().endsWith(".class"))
                        .forEach(f -> names.add(className(root.relativize(f).toString().replace('\\', '/'))));
            }
        } else {
            try (JarFile jar = new JarFile(root.toFile())) {
                for (JarEntry e : jar.stream().toList()) {
                    if (e.getName().endsWith(".class") && !e.getName().endsWith("module-info.class")) {
                        names.add(className(e.getName()));
                    }
                }
            }
        }
        assertTrue(!names.isEmpty(), "no classes in " + root);
        return names;
    }

    static String className(String path) {
        return path.substring(0, path.length() - ".class".length()).replace('/', '.');
    }

    static Path codeSource(String cls) throws ClassNotFoundException, URISyntaxException {
        return Paths.get(Class.forName(cls).getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
