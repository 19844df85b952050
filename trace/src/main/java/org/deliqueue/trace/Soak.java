package org.deliqueue.trace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.deliqueue.DeliQueue;
import org.deliqueue.MessageQueue;
import org.deliqueue.TracedRun;

/**
 * {@code make trace [TRACES=n] [SECONDS=s]}: traced runs of DeliQueue (2 or 3 producers, an asker, two removers, the
 * clock, a quitter), each validated by TLC as soon as it is written, until {@code n} traces are written (100 when neither is
 * given) or {@code s} seconds have passed, whichever comes first; prints each verdict, the figures (traces, events
 * per trace, time per trace) and the coverage of DeliQueue's actions by the matched events. Exits 1 if any trace is
 * rejected, if a run hangs, if fewer than {@code n} traces of at least {@value #MIN_EVENTS} events were accepted, or if any action of
 * DeliQueue that traced runs can take was never matched.
 */
public final class Soak {
    /** Actions of DeliQueue that traced runs need not take, and why. */
    static final TreeMap<String, String> UNTRACED = new TreeMap<>(java.util.Map.of(
            "resolve_reserved", "a query or removal meets a reservation only between the Looper's claim and its "
                    + "resolve: matched when a run hits that window, not required (a scripted run of "
                    + "TraceValidationTest takes it)",
            "takeDueOrNull_liveHead", "a dead heap head needs a tombstone or a swept descriptor between the "
                    + "Looper's drain and its look at the heads: matched when a run hits that window, not required "
                    + "(a scripted run of TraceValidationTest takes it)",
            "parkUntil_early", "an interrupt that ends a park logs no event of its own: its park logs sleep_park or "
                    + "teardown_park, which the trace model matches with this step or the permit's"));

    /** Posts per producer with two producers: with the rest, at least {@value #MIN_EVENTS} events per trace. */
    static final int SIZE = 5;
    /** The fewest events a trace must have to count towards the {@code TRACES} target. */
    static final int MIN_EVENTS = 50;
    /** The {@code TRACES} target when neither a count nor a time is given. */
    static final int DEFAULT_TRACES = 100;

    private static final Pattern DEFINITION = Pattern.compile("(?m)^([a-z][A-Za-z]*_[A-Za-z]+)\\s*(?:\\([^)]*\\))?\\s*==");

    private Soak() {
    }

    /**
     * The traced run of {@code seed} with {@code producers} producers (2 or 3) posting about the same messages in all
     * (5 + 5, or 3 + 3 + 3), an asker, {@code removers} removers, the clock and a quitter. Only one exhaustive model
     * has three producers (MCThreeProducers, three posts and the Looper alone): these runs push from three threads at
     * once against removals, a query, the clock and a quit.
     */
    static TracedRun run(MessageQueue.Factory factory, long seed, int producers, int removers) {
        return new TracedRun(factory, seed, producers, 2 * SIZE / producers, 3, 2, removers);
    }

    /** Arguments: {@code --traces n} and {@code --seconds s}, each optional (0: no limit of that kind). */
    public static void main(String[] args) throws Exception {
        long target = 0;
        long seconds = 0;
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 == args.length || !args[i].matches("--(traces|seconds)") || !args[i + 1].matches("\\d+")) {
                System.err.println("usage: Soak [--traces n] [--seconds s] (got " + String.join(" ", args) + ")");
                System.exit(2);
            }
            if (args[i].equals("--traces")) {
                target = Long.parseLong(args[i + 1]);
            } else {
                seconds = Long.parseLong(args[i + 1]);
            }
        }
        if (target == 0 && seconds == 0) {
            target = DEFAULT_TRACES;
        }
        long started = System.nanoTime();
        Path dir = Path.of(System.getProperty("trace.dir", "target/traces"));
        TraceCheck check = TraceCheck.fromSystemProperties();
        System.out.printf("make trace: traced runs of DeliQueue validated by TLC, %s%s (2 or 3 producers, an asker, "
                + "two removers, the clock, a quitter; traces in %s)%n", target > 0 ? target + " traces" : "",
                seconds > 0 ? (target > 0 ? " or " : "") + seconds + " s, whichever comes first" : "", dir);
        int traces = 0;
        int rejected = 0;
        int hung = 0;
        int acceptedLarge = 0;
        Set<String> matched = new TreeSet<>();
        List<Integer> events = new ArrayList<>();
        double time = 0;
        // Runs are written one at a time (each is short); TLC checks them on every core meanwhile.
        ExecutorService tlc = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        List<Future<TraceCheck.Verdict>> verdicts = new ArrayList<>();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        for (long seed = 1; seed == 1 || (seconds == 0 || System.nanoTime() < end) && (target == 0 || seed <= target);
                seed++) {
            Path out = dir.resolve("soak-" + seed + ".ndjson");
            int producers = seed % 2 == 0 ? 3 : 2; // three producers every other run
            TracedRun.Written written = run(DeliQueue::new, seed, producers, 2).runTo(out);
            if (!written.finished()) {
                hung++;
                System.out.println("HUNG: run " + seed + ", threads " + written.hung() + " (the trace up to the hang: "
                        + out + ")");
            }
            verdicts.add(tlc.submit(() -> check.check(out)));
            while (verdicts.stream().filter(f -> !f.isDone()).count() > 2L * Runtime.getRuntime().availableProcessors()) {
                Thread.sleep(50); // keep the backlog short, so that the time budget holds
            }
        }
        tlc.shutdown();
        for (Future<TraceCheck.Verdict> f : verdicts) {
            TraceCheck.Verdict v = f.get();
            System.out.println(v);
            traces++;
            events.add(v.events());
            time += v.seconds();
            if (v.accepted()) {
                acceptedLarge += v.events() >= MIN_EVENTS ? 1 : 0;
                matched.addAll(TraceModule.read(dir.resolve(v.trace() + ".ndjson")).actions());
            } else {
                rejected++;
            }
        }
        events.sort(null);
        long large = events.stream().filter(e -> e >= MIN_EVENTS).count();
        System.out.printf("%d traces of at least %d events%n", large, MIN_EVENTS);
        System.out.printf("%n%d traces, %d accepted, %d rejected; events per trace: min %d, median %d, max %d; "
                + "TLC %.1f s per trace, %d in parallel; %.0f s in all%n", traces, traces - rejected, rejected, events.get(0),
                events.get(events.size() / 2), events.get(events.size() - 1), time / traces,
                Runtime.getRuntime().availableProcessors(), (System.nanoTime() - started) / 1e9);
        List<String> missing = coverage(check, matched);
        boolean enough = acceptedLarge >= target;
        if (!enough) {
            System.out.printf("FEWER TRACES THAN ASKED: %d accepted of at least %d events, %d asked for%n",
                    acceptedLarge, MIN_EVENTS, target);
        }
        if (hung > 0) {
            System.out.printf("HUNG RUNS: %d (DeliQueue left a thread parked for good)%n", hung);
        }
        System.exit(rejected == 0 && hung == 0 && missing.isEmpty() && enough ? 0 : 1);
    }

    /**
     * Prints which actions of DeliQueue the accepted traces matched; returns those that traced runs can take and
     * none matched (the actions of spec/DeliQueue.tla are its definitions named {@code method_step}, less the
     * parametrized forms another action quantifies over, plus tick).
     */
    static List<String> coverage(TraceCheck check, Set<String> matched) throws java.io.IOException {
        String spec = Files.readString(check.specDir().resolve("DeliQueue.tla"));
        Set<String> actions = new TreeSet<>(Set.of("tick"));
        Matcher m = DEFINITION.matcher(spec);
        while (m.find()) {
            actions.add(m.group(1));
        }
        actions.removeIf(a -> actions.stream().anyMatch(b -> !b.equals(a) && a.startsWith(b)));
        List<String> missing = new ArrayList<>();
        System.out.println("Coverage of DeliQueue's actions by matched events:");
        for (String a : actions) {
            String status = matched.contains(a) ? "matched" : UNTRACED.containsKey(a) ? "not traced: " + UNTRACED.get(a) : "NEVER MATCHED";
            System.out.printf("  %-30s %s%n", a, status);
            if (status.equals("NEVER MATCHED")) {
                missing.add(a);
            }
        }
        return missing;
    }
}
