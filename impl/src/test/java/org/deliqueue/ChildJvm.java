package org.deliqueue;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a scenario that may never return - a seeded bug that spins - in a JVM of its own. A thread spinning in the
 * test's JVM can be neither stopped nor left behind (it would burn a core for the rest of the suite), so a test
 * that must show a spin runs its scenario here; the same scenario on the real queue runs the same way, which shows
 * that the harness reports a return as well as a spin.
 *
 * <p>The child ({@link #main}) runs the scenario on a daemon thread and waits {@link #LIMIT} for it, counted from
 * the scenario's start, not the JVM's: a scenario of the real queue takes milliseconds, so the limit is generous
 * however loaded the machine. It then prints the result, what the scenario threw, or the scenario thread's stack
 * (where it spins), and exits; a spinning daemon thread does not hold the JVM up.
 */
final class ChildJvm {
    /** How long the scenario may run in the child before it counts as hung. */
    static final long LIMIT_SECONDS = 10;
    /** How long the parent waits for the child in all, JVM start included: a safety net, never reached in practice. */
    private static final long PROCESS_LIMIT_SECONDS = 300;
    private static final String RESULT = "result: ";
    private static final String THREW = "threw: ";
    private static final String HUNG = "hung at: ";

    private ChildJvm() {
    }

    /**
     * What a run came to: the scenario's result as text, or the frames (class.method) of the scenario thread still
     * running at the limit, or neither (it threw: {@code output} says what).
     */
    record Outcome(String result, List<String> hungAt, String output) {
        /** Whether the scenario was still running at the limit inside {@code method} (as {@code Class.method}). */
        boolean hungIn(String method) {
            return hungAt != null && hungAt.contains(method);
        }
    }

    /**
     * Runs {@code owner.scenario(factory)} in a new JVM: {@code scenario} is a method of {@code owner} (static, or
     * an instance method, {@code owner} then made with its no-argument constructor) that takes the
     * {@link MessageQueue.Factory} {@code factory} names (a {@link QueueFactories#resolve} item).
     */
    static Outcome run(Class<?> owner, String scenario, String factory) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-ea", "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), ChildJvm.class.getName(),
                owner.getName(), scenario, factory).redirectErrorStream(true);
        Path log = null;
        try {
            log = Files.createTempFile("child-jvm-", ".log");
            Process p = pb.redirectOutput(log.toFile()).start();
            if (!p.waitFor(PROCESS_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("the child JVM for " + scenario + " on " + factory + " did not exit in "
                        + PROCESS_LIMIT_SECONDS + " s");
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            String result = null;
            List<String> hungAt = null;
            for (String line : output.split("\n")) {
                if (line.startsWith(RESULT)) {
                    result = line.substring(RESULT.length());
                } else if (line.startsWith(HUNG)) {
                    hungAt = Arrays.asList(line.substring(HUNG.length()).split(" "));
                }
            }
            return new Outcome(result, hungAt, output);
        } catch (IOException e) {
            throw new AssertionError("cannot start a JVM: " + pb.command(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for the child JVM", e);
        } finally {
            deleteQuietly(log);
        }
    }

    private static void deleteQuietly(Path log) {
        if (log != null) {
            try {
                Files.deleteIfExists(log);
            } catch (IOException e) {
                // a temporary file left behind: nothing to report
            }
        }
    }

    /** The child: {@code owner scenario factory}, as {@link #run} passes them. */
    public static void main(String[] args) throws Exception {
        Class<?> owner = Class.forName(args[0]);
        Method scenario = owner.getDeclaredMethod(args[1], MessageQueue.Factory.class);
        scenario.setAccessible(true);
        Object target = null;
        if (!Modifier.isStatic(scenario.getModifiers())) {
            var constructor = owner.getDeclaredConstructor();
            constructor.setAccessible(true);
            target = constructor.newInstance();
        }
        MessageQueue.Factory factory = QueueFactories.resolve(args[2]).get(0).getPayload();
        Object[] outcome = new Object[1];
        Object instance = target;
        Thread t = new Thread(() -> {
            try {
                outcome[0] = RESULT + scenario.invoke(instance, factory);
            } catch (InvocationTargetException e) {
                outcome[0] = THREW + e.getCause();
                e.getCause().printStackTrace(System.out);
            } catch (ReflectiveOperationException e) {
                outcome[0] = THREW + e;
            }
        }, "scenario");
        t.setDaemon(true);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(LIMIT_SECONDS));
        if (t.isAlive()) {
            StringBuilder frames = new StringBuilder(HUNG);
            for (StackTraceElement f : t.getStackTrace()) {
                String cls = f.getClassName();
                frames.append(cls.substring(cls.lastIndexOf('.') + 1)).append('.').append(f.getMethodName()).append(' ');
            }
            System.out.println(frames.toString().trim());
        } else {
            System.out.println(outcome[0]);
        }
        System.out.flush();
        System.exit(0);
    }
}
