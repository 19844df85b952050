package org.deliqueue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The recorder of trace validation ({@code spec/trace/TraceDeliQueue.tla}, {@code trace/}): every code site of
 * {@link DeliQueue} that implements an action of {@code spec/DeliQueue.tla} logs one event, named as the action,
 * with the spec thread it belongs to and the values it read and wrote. TLC then decides whether the logged
 * events are a behaviour of the spec.
 *
 * <p>Off unless the JVM starts with {@code -Ddeliqueue.trace=true}. {@link #ON} is a static final constant, so
 * the JIT folds every {@code if (Trace.ON)} site away when it is off ({@code bench/}'s {@code TraceOffBench}
 * measures that it costs nothing). When on, each thread appends to a buffer of its own, with no shared write and
 * no lock on the queue's paths, so the recorder perturbs the schedule as little as a logger can; the buffers are
 * read out after the run ({@link #drain}). Each event is logged after the access it records and carries the
 * time it was logged ({@code System.nanoTime}, monotonic across threads): the action happened between the
 * thread's previous event and this one, the time box that {@code spec/trace/TraceDeliQueue.tla} uses to cut the
 * interleavings it searches.
 *
 * <p>Identities: a node is named at its first event (its push) by what a traced run gives it: {@code "m" + what}
 * for a message (a traced run gives each message its own {@code what}), {@code "b" + token} for a barrier, {@code "Quit"} for the quit
 * sentinel, the remover's name for a removal descriptor ({@link #nameAfterActor}), {@code "Nil"} for null. An event belongs to the spec thread of the operation running on its Java
 * thread: the message a post pushes, {@code "QuitT"}, a query's name given by {@link #actAs}, or {@code "Looper"}.
 */
final class Trace {
    /** Whether events are recorded: {@code -Ddeliqueue.trace=true}. */
    static final boolean ON = Boolean.getBoolean("deliqueue.trace");

    static final String LOOPER = "Looper";
    static final String QUITTER = "QuitT";

    private static final ConcurrentLinkedQueue<Buffer> BUFFERS = new ConcurrentLinkedQueue<>();
    private static final ThreadLocal<Buffer> BUFFER = ThreadLocal.withInitial(() -> {
        Buffer b = new Buffer(Thread.currentThread().getName());
        BUFFERS.add(b);
        return b;
    });

    private Trace() {
    }

    /** One thread's events, in its program order, as ndjson lines. */
    private static final class Buffer {
        final String thread;
        final List<String> lines = new ArrayList<>();
        String actor;

        Buffer(String thread) {
            this.thread = thread;
        }
    }

    /** The spec thread of the operations this Java thread runs from now on (a query: {@code "h3"}). */
    static void actAs(String actor) {
        BUFFER.get().actor = actor;
    }

    /** Names the node {@code m} (a removal descriptor) after this thread's current actor, its remover. */
    static void nameAfterActor(Message m) {
        String actor = BUFFER.get().actor;
        if (actor != null) {
            NAMES.put(new Identity(m), actor);
        }
    }

    /** Whether this thread's current actor is the Looper. */
    static boolean isLooper() {
        return LOOPER.equals(BUFFER.get().actor);
    }

    /**
     * Records the event {@code action} of {@code actor} (a {@link Message}: the post of that message, which
     * becomes this thread's actor; a String; or null: this thread's current actor), with {@code fields} as
     * name-value pairs (nodes, numbers, booleans, strings).
     */
    static void event(String action, Object actor, Object... fields) {
        Buffer b = BUFFER.get();
        if (actor instanceof Message m) {
            b.actor = id(m);
        } else if (actor != null) {
            b.actor = (String) actor;
        }
        StringBuilder line = new StringBuilder(64).append("{\"thread\":\"").append(b.thread)
                .append("\",\"a\":\"").append(action).append("\",\"t\":\"").append(b.actor).append('"');
        for (int i = 0; i < fields.length; i += 2) {
            line.append(",\"").append(fields[i]).append("\":");
            Object v = fields[i + 1];
            if (v == null || v instanceof Message) {
                line.append('"').append(id((Message) v)).append('"');
            } else if (v instanceof String s) {
                line.append('"').append(s).append('"');
            } else {
                line.append(v);
            }
        }
        // Taken last: the time box needs a time after every access the event records (names included).
        line.append(",\"ts\":").append(System.nanoTime());
        b.lines.add(line.append('}').toString());
    }

    /** A message's trace name, keyed by identity: fixed when first seen (a retired message's {@code what} is 0). */
    private static final ConcurrentHashMap<Identity, String> NAMES = new ConcurrentHashMap<>();

    private record Identity(Message m) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Identity other && other.m == m;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(m);
        }
    }

    /** The name of node {@code m} in traces (see the class comment), fixed at its first event (its push). */
    static String id(Message m) {
        if (m == null) {
            return "Nil";
        }
        if (DeliQueue.isQuitSentinel(m)) {
            return "Quit";
        }
        return NAMES.computeIfAbsent(new Identity(m),
                k -> DeliQueue.isRemoval(m) ? "r" + m.ticket : m.isBarrier() ? "b" + m.barrierToken() : "m" + m.what);
    }

    /** The spec's Kind of the message {@code m}: "barrier", "async" or "sync". */
    static String kind(Message m) {
        return m.isBarrier() ? "barrier" : m.isAsynchronous() ? "async" : "sync";
    }

    /**
     * Every event recorded since the last drain, grouped by thread in program order, as ndjson lines; clears the
     * buffers. Call it only while no traced operation runs.
     */
    static List<String> drain() {
        List<String> all = new ArrayList<>();
        for (Buffer b : BUFFERS) {
            all.addAll(b.lines);
            b.lines.clear();
            b.actor = null;
        }
        NAMES.clear();
        return all;
    }
}
