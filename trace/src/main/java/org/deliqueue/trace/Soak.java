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
import org.deliqueue.TracedRun;

/**
 * {@code make trace SECONDS=n}: for {@code n} seconds, traced runs of DeliQueue (2 producers, an asker, a remover, the
 * clock, a quitter), each validated by TLC as soon as it is written; prints each verdict, the figures (traces, events per trace, time
 * per trace) and the coverage of DeliQueue's actions by the matched events. Exits 1 if any trace is rejected or
 * any action of DeliQueue that traced runs can take was never matched.
 */
public final class Soak {
    /** Actions of DeliQueue that traced runs need not take, and why. */
    static final TreeMap<String, String> UNTRACED = new TreeMap<>(java.util.Map.of(
            "resolve_reserved", "a query or removal meets a reservation only between the Looper's claim and its "
                    + "resolve: matched when a run hits that window, not required",
            "takeDueOrNull_liveHead", "a dead heap head needs a tombstone or a swept descriptor between the "
                    + "Looper's drain and its look at the heads: matched when a run hits that window, not required"));

    /** Posts per producer in a soak run: with the rest, at least 50 events per trace. */
    static final int SIZE = 5;

    private static final Pattern DEFINITION = Pattern.compile("(?m)^([a-z][A-Za-z]*_[A-Za-z]+)\\s*(?:\\([^)]*\\))?\\s*==");

    private Soak() {
    }

    public static void main(String[] args) throws Exception {
        long seconds = args.length > 0 ? Long.parseLong(args[0]) : 600;
        long started = System.nanoTime();
        Path dir = Path.of(System.getProperty("trace.dir", "target/traces"));
        TraceCheck check = TraceCheck.fromSystemProperties();
        System.out.printf("make trace: traced runs of DeliQueue validated by TLC for %d s (2 producers, an asker, "
                + "a remover, the clock, a quitter; traces in %s)%n", seconds, dir);
        int traces = 0;
        int rejected = 0;
        Set<String> matched = new TreeSet<>();
        List<Integer> events = new ArrayList<>();
        double time = 0;
        // Runs are written one at a time (each is short); TLC checks them on every core meanwhile.
        ExecutorService tlc = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        List<Future<TraceCheck.Verdict>> verdicts = new ArrayList<>();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        for (long seed = 1; System.nanoTime() < end || seed == 1; seed++) {
            Path out = dir.resolve("soak-" + seed + ".ndjson");
            new TracedRun(DeliQueue::new, seed, 2, SIZE, 3, 2).runTo(out);
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
                matched.addAll(TraceModule.read(dir.resolve(v.trace() + ".ndjson")).actions());
            } else {
                rejected++;
            }
        }
        events.sort(null);
        System.out.printf("%d traces of at least 50 events%n", events.stream().filter(e -> e >= 50).count());
        System.out.printf("%n%d traces, %d accepted, %d rejected; events per trace: min %d, median %d, max %d; "
                + "TLC %.1f s per trace, %d in parallel; %.0f s in all%n", traces, traces - rejected, rejected, events.get(0),
                events.get(events.size() / 2), events.get(events.size() - 1), time / traces,
                Runtime.getRuntime().availableProcessors(), (System.nanoTime() - started) / 1e9);
        List<String> missing = coverage(check, matched);
        System.exit(rejected == 0 && missing.isEmpty() ? 0 : 1);
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
