package org.deliqueue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A sequential reference of the {@link MessageQueue} contract for non-negative {@code when}s: order by
 * {@code (when, insertion)}, front-of-queue LIFO, barriers posted at the current time holding back the sync
 * messages behind them, removal and queries by handler, what and object. The random test checks both queues
 * against it, step by step.
 */
final class QueueModel {
    private record Entry(int id, Handler target, int what, Object obj, long when, long seq, boolean async,
                         int token) {
        boolean isBarrier() {
            return target == null;
        }
    }

    private static final Comparator<Entry> ORDER =
            Comparator.comparingLong(Entry::when).thenComparingLong(Entry::seq);

    private final List<Entry> entries = new ArrayList<>();
    /** Ordinary messages and barriers count up; front-of-queue messages count down, so they come out LIFO. */
    private long nextSeq = 1;
    private long nextFrontSeq = -1;

    void enqueue(int id, Handler target, int what, Object obj, long when, boolean async) {
        long seq = when == 0 ? nextFrontSeq-- : nextSeq++;
        entries.add(new Entry(id, Objects.requireNonNull(target), what, obj, when, seq, async, 0));
    }

    /** A barrier at {@code now}: at uptime 0 it is a front-of-queue entry, like a message with {@code when} 0. */
    void postBarrier(int token, long now) {
        entries.add(new Entry(0, null, 0, null, now, now == 0 ? nextFrontSeq-- : nextSeq++, false, token));
    }

    void removeBarrier(int token) {
        if (!entries.removeIf(e -> e.isBarrier() && e.token() == token)) {
            throw new IllegalStateException("model: no barrier " + token);
        }
    }

    /** The id of the message {@code poll()} delivers at {@code now}, or null. */
    Integer poll(long now) {
        Optional<Entry> first = entries.stream().min(ORDER);
        if (first.isEmpty()) {
            return null;
        }
        Optional<Entry> candidate = first.get().isBarrier()
                ? entries.stream().filter(e -> !e.isBarrier() && e.async()).min(ORDER)
                : first;
        if (candidate.isEmpty() || candidate.get().when() > now) {
            return null;
        }
        entries.remove(candidate.get());
        return candidate.get().id();
    }

    boolean isIdle(long now) {
        return entries.stream().min(ORDER).map(e -> now < e.when()).orElse(true);
    }

    int removeMessages(Handler h, int what, Object obj) {
        return removeIf(messagesOf(h, what, obj));
    }

    boolean hasMessages(Handler h, int what, Object obj) {
        return entries.stream().anyMatch(messagesOf(h, what, obj));
    }

    int removeEqualMessages(Handler h, int what, Object obj) {
        return removeIf(e -> !e.isBarrier() && e.target() == h && e.what() == what
                && (obj == null || obj.equals(e.obj())));
    }

    int removeCallbacksAndMessages(Handler h, Object obj) {
        return removeIf(e -> !e.isBarrier() && e.target() == h && (obj == null || e.obj() == obj));
    }

    private static Predicate<Entry> messagesOf(Handler h, int what, Object obj) {
        return e -> !e.isBarrier() && e.target() == h && e.what() == what && (obj == null || e.obj() == obj);
    }

    private int removeIf(Predicate<Entry> p) {
        int before = entries.size();
        entries.removeIf(p);
        return before - entries.size();
    }
}
