package org.deliqueue.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A logged run (ndjson, written by {@code org.deliqueue.TracedRun}) as the TLA+ module {@code TraceLog} that
 * {@code spec/trace/MCTrace.tla} extends: the constants of {@code spec/DeliQueue.tla} for that run (its messages with
 * their kind and when, its queries and removals with what their predicates match, the removals as {@code Fickle}
 * (the spec takes each answer of a removal's predicate from its {@code removeMatching_ask} event, so a predicate
 * that answers differently at each call is checked as it ran), the quit mode, the largest uptime, the spec threads
 * of the Java threads that finished (those of a hung run's parked threads are not: their operations need not have
 * returned) and the events, one sequence per Java thread. This TLC has no Json module, so the trace is handed over as TLA+ source.
 *
 * <p>Times: {@code ts} (System.nanoTime) becomes microseconds since the run's first event, which fits TLC's
 * 32-bit integers. Deadlines: impl's "no deadline" ({@code Long.MAX_VALUE}, stored in the wait word as its largest value) is
 * the spec's {@code INF = MaxTime + 1}.
 *
 * <p>Uptimes ({@link #TIME_FIELDS}) become their ranks among the uptimes of the run, 0 included (0 stays 0: it is
 * the front of the queue). DeliQueue only compares uptimes with each other, and ranks keep every comparison, so the
 * spec's small clock ({@code now} in 0..MaxTime, moved by {@code tick} one step at a time) can follow a run whose
 * clock jumped: a {@code tick} event that moves the clock by k ranks is laid out as k ticks of one rank, the last
 * one carrying the logged value. The steps between are uptimes no thread read, and the spec lets any thread move
 * between them. Each added tick carries {@code after}, the log time of the clock thread's event before the jump:
 * the time box ({@code spec/trace/TraceDeliQueue.tla}, {@code Since}) must not take the added tick's log time as a bound
 * on the next tick of the same jump (one access, logged once, possibly long after another thread read its
 * value).
 */
public final class TraceModule {
    /** DeliQueue.MAX_DEADLINE: a deadline at or above it is "none". */
    private static final long MAX_DEADLINE = Long.MAX_VALUE >>> 2;
    /** The event fields that hold uptimes (ms): a message's {@code when}, a clock reading, a sleep's deadline. */
    static final List<String> TIME_FIELDS = List.of("when", "now", "dl", "deadline");

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The events of one Java thread, in program order. */
    public record ThreadLog(String thread, List<JsonNode> events) {
    }

    private final List<ThreadLog> threads;
    private final Map<String, JsonNode> firstPush = new TreeMap<>();
    private final Map<String, Set<String>> preds = new TreeMap<>();
    private final Set<String> removers = new TreeSet<>();
    private final Set<String> modes = new TreeSet<>();
    private final Set<String> ended = new TreeSet<>();
    private final long maxTime;
    private final long firstNanos;

    private TraceModule(List<ThreadLog> threads, Map<String, Set<String>> declaredPreds, Set<String> removals,
            Set<String> hung) {
        this.threads = threads;
        long max = 0;
        long first = Long.MAX_VALUE;
        Set<String> askers = new TreeSet<>();
        for (ThreadLog t : threads) {
            for (JsonNode e : t.events()) {
                String a = e.get("a").asText();
                if (a.equals("push_readTop") && e.get("t").asText().matches("[mb]\\d+")) {
                    firstPush.putIfAbsent(e.get("t").asText(), e); // a message or a barrier: one of the spec's Msgs
                } else if (a.equals("quit_readTop")) {
                    modes.add(e.get("safe").asBoolean() ? "quitSafely" : "quit");
                } else if (a.startsWith("traverse_") || a.startsWith("removeMatching_")
                        || a.startsWith("pushDescriptor_") || a.startsWith("collect_")) {
                    askers.add(e.get("t").asText()); // a query or a removal: one of the spec's Traversers
                }
                first = Math.min(first, e.get("ts").asLong());
                for (String f : List.of("when", "now")) {
                    if (e.has(f)) {
                        max = Math.max(max, e.get(f).asLong());
                    }
                }
            }
        }
        for (String asker : askers) {
            Set<String> matches = declaredPreds.get(asker);
            if (matches == null) {
                throw new IllegalArgumentException("query " + asker + " has no declared predicate (meta line)");
            }
            Set<String> posted = new TreeSet<>(matches);
            posted.retainAll(firstPush.keySet());
            preds.put(asker, posted);
            if (removals.contains(asker)) {
                removers.add(asker);
            }
        }
        this.maxTime = max;
        this.firstNanos = first;
        for (ThreadLog t : threads) {
            if (!hung.contains(t.thread())) {
                t.events().forEach(e -> ended.add(e.get("t").asText()));
            }
        }
        ended.retainAll(specThreads());
    }

    /** The spec threads of the run that have a program counter: its posts, queries and removals, the quitter and the Looper. */
    private Set<String> specThreads() {
        Set<String> all = new TreeSet<>(firstPush.keySet());
        all.addAll(preds.keySet());
        all.addAll(List.of("QuitT", "Looper"));
        return all;
    }

    /**
     * Reads an ndjson trace: meta lines (query predicates; the threads a hung run left parked) and events, grouped by
     * Java thread in file order.
     */
    public static TraceModule read(Path ndjson) throws IOException {
        Map<String, List<JsonNode>> byThread = new LinkedHashMap<>();
        Map<String, Set<String>> preds = new TreeMap<>();
        Set<String> removals = new TreeSet<>();
        Set<String> hung = new TreeSet<>();
        for (String line : Files.readAllLines(ndjson)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n = JSON.readTree(line);
            if (n.has("meta") && n.get("meta").asText().equals("hung")) {
                n.get("threads").forEach(x -> hung.add(x.asText()));
            } else if (n.has("meta")) {
                Set<String> matches = new TreeSet<>();
                n.get("matches").forEach(x -> matches.add(x.asText()));
                preds.put(n.get("t").asText(), matches);
                if (n.has("op") && n.get("op").asText().equals("remove")) {
                    removals.add(n.get("t").asText());
                }
            } else {
                byThread.computeIfAbsent(n.get("thread").asText(), k -> new ArrayList<>()).add(n);
            }
        }
        List<ThreadLog> threads = new ArrayList<>();
        byThread.forEach((t, events) -> threads.add(new ThreadLog(t, events)));
        return new TraceModule(rankUptimes(threads), preds, removals, hung);
    }

    /**
     * Whether field {@code f} of {@code e} holds an uptime: not "no deadline" ({@link #MAX_DEADLINE} and up) and not
     * negative ({@code sweep_readTop}'s {@code now = -1}: no clock reading; uptimes never are).
     */
    private static boolean isUptime(JsonNode e, String f) {
        return e.has(f) && e.get(f).asLong() >= 0 && e.get(f).asLong() < MAX_DEADLINE;
    }

    /**
     * The run with every uptime replaced by its rank and every tick that moves the clock by more than one rank
     * laid out as ticks of one (see the class comment). A run whose clock starts at 0 and moves by 1 ms through
     * every uptime it uses is unchanged.
     */
    static List<ThreadLog> rankUptimes(List<ThreadLog> threads) {
        TreeSet<Long> uptimes = new TreeSet<>(Set.of(0L));
        for (ThreadLog t : threads) {
            for (JsonNode e : t.events()) {
                for (String f : TIME_FIELDS) {
                    if (isUptime(e, f)) {
                        uptimes.add(e.get(f).asLong());
                    }
                }
            }
        }
        Map<Long, Long> rank = new TreeMap<>();
        uptimes.forEach(u -> rank.put(u, (long) rank.size()));
        long firstTs = threads.stream().flatMap(t -> t.events().stream()).filter(e -> e.has("ts"))
                .mapToLong(e -> e.get("ts").asLong()).min().orElse(0);
        List<ThreadLog> ranked = new ArrayList<>();
        for (ThreadLog t : threads) {
            List<JsonNode> events = new ArrayList<>();
            long clock = 0;
            long previousTs = firstTs;
            for (JsonNode e : t.events()) {
                ObjectNode r = e.deepCopy();
                for (String f : TIME_FIELDS) {
                    if (isUptime(r, f)) {
                        r.put(f, rank.get(r.get(f).asLong()));
                    }
                }
                if (r.get("a").asText().equals("tick")) {
                    for (long between = clock + 1; between < r.get("now").asLong(); between++) {
                        // one access, logged once: the next tick may have happened as early as this one
                        events.add(r.deepCopy().put("now", between).put("after", previousTs));
                    }
                    clock = r.get("now").asLong();
                }
                events.add(r);
                previousTs = r.has("ts") ? r.get("ts").asLong() : previousTs;
            }
            ranked.add(new ThreadLog(t.thread(), events));
        }
        return ranked;
    }

    public List<ThreadLog> threads() {
        return threads;
    }

    /** The spec threads whose Java thread finished: their operations must have returned at the trace's end. */
    public Set<String> ended() {
        return ended;
    }

    public int events() {
        return threads.stream().mapToInt(t -> t.events().size()).sum();
    }

    /** The spec actions the events name. */
    public Set<String> actions() {
        Set<String> out = new TreeSet<>();
        threads.forEach(t -> t.events().forEach(e -> out.add(e.get("a").asText())));
        return out;
    }

    /** The TLA+ source of module TraceLog. */
    public String toTla(String origin) {
        StringBuilder s = new StringBuilder();
        s.append("------------------------------- MODULE TraceLog -------------------------------\n");
        s.append("(* Generated by org.deliqueue.trace.TraceModule from ").append(origin).append(". *)\n");
        s.append("EXTENDS Integers\n");
        s.append("TQuit == \"Quit\"\nTNil == \"Nil\"\nTQuitT == \"QuitT\"\n");
        s.append("TMsgs == ").append(set(firstPush.keySet())).append('\n');
        s.append("TKind == ").append(function(firstPush, e -> str(e.get("kind").asText()))).append('\n');
        s.append("TWhen == ").append(function(firstPush, e -> Long.toString(e.get("when").asLong()))).append('\n');
        s.append("TTraversers == ").append(set(preds.keySet())).append('\n');
        Map<String, String> ops = new TreeMap<>();
        preds.keySet().forEach(t -> ops.put(t, removers.contains(t) ? "remove" : "has"));
        s.append("TOp == ").append(function(ops, TraceModule::str)).append('\n');
        s.append("TPred == ").append(function(preds, TraceModule::set)).append('\n');
        // Every removal is Fickle: its predicate's answers are the logged ones (removeMatching_ask), not TPred.
        s.append("TFickle == ").append(set(removers)).append('\n');
        s.append("TMaxTime == ").append(maxTime).append('\n');
        s.append("TModes == ").append(set(modes)).append('\n');
        s.append("TEnded == ").append(set(ended)).append('\n');
        s.append("TThreads == <<");
        for (int i = 0; i < threads.size(); i++) {
            s.append(i == 0 ? "" : ", ").append(str(threads.get(i).thread()));
        }
        s.append(">>\nTLog == <<\n");
        for (int i = 0; i < threads.size(); i++) {
            s.append("  \\* ").append(threads.get(i).thread()).append('\n').append("  <<");
            List<JsonNode> events = threads.get(i).events();
            for (int j = 0; j < events.size(); j++) {
                s.append(j == 0 ? "" : ",\n    ").append(record(events.get(j)));
            }
            s.append(">>").append(i + 1 < threads.size() ? "," : "").append('\n');
        }
        s.append(">>\n=============================================================================\n");
        return s.toString();
    }

    /** An event as a TLA+ record, without its Java thread (the sequence it is in says that). */
    String record(JsonNode e) {
        StringBuilder r = new StringBuilder("[");
        Iterator<Map.Entry<String, JsonNode>> fields = e.fields();
        boolean first = true;
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getKey().equals("thread")) {
                continue;
            }
            r.append(first ? "" : ", ").append(f.getKey()).append(" |-> ").append(value(f.getKey(), f.getValue()));
            first = false;
        }
        return r.append(']').toString();
    }

    private String value(String field, JsonNode v) {
        if (v.isBoolean()) {
            return v.asBoolean() ? "TRUE" : "FALSE";
        }
        if (v.isNumber()) {
            long x = v.asLong();
            if (field.equals("ts") || field.equals("after")) {
                return Long.toString((x - firstNanos) / 1000); // microseconds since the first event: a TLC int
            }
            boolean deadline = field.equals("dl") || field.equals("deadline");
            return Long.toString(deadline && x >= MAX_DEADLINE ? maxTime + 1 : x);
        }
        return str(v.asText());
    }

    private static String str(String s) {
        return '"' + s + '"';
    }

    private static String set(Set<String> names) {
        StringBuilder s = new StringBuilder("{");
        names.forEach(n -> s.append(s.length() == 1 ? "" : ", ").append(str(n)));
        return s.append('}').toString();
    }

    /** A function over string keys, as a TLA+ record (a record is a function on strings). */
    private static <V> String function(Map<String, V> m, java.util.function.Function<V, String> value) {
        if (m.isEmpty()) {
            return "[x \\in {} |-> 0]";
        }
        StringBuilder s = new StringBuilder("[");
        m.forEach((k, v) -> s.append(s.length() == 1 ? "" : ", ").append(k).append(" |-> ").append(value.apply(v)));
        return s.append(']').toString();
    }
}
