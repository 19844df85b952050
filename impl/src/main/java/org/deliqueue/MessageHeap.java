package org.deliqueue;

import java.util.Arrays;

/**
 * DeliQueue's priority queue: an array 4-ary min-heap of messages ordered by {@code (when, insertSeq)}, owned by
 * the Looper thread (no synchronisation). Each message's {@code heapIndex} is kept equal to its position, or -1
 * when it is in no heap, so that a tombstoned message is removed in O(log N).
 *
 * <p>The keys live beside the references, in two {@code long} arrays parallel to the message array: sifting
 * compares keys that sit next to each other in memory instead of loading two messages, written on other cores,
 * per comparison (profiling the Looper at a backlog of 10^4 put most of its time in those loads). Four children
 * per node halve the depth of a binary heap; the four keys of a node's children share one or two cache lines.
 * The arrays grow by half when full and halve when a quarter full.
 */
class MessageHeap {
    private static final int INITIAL_CAPACITY = 16;
    private static final int ARITY = 4;

    private Message[] items = new Message[INITIAL_CAPACITY];
    private long[] whens = new long[INITIAL_CAPACITY];
    private long[] seqs = new long[INITIAL_CAPACITY];
    private int size;

    /**
     * The branchless order of DeliQueue on keys: {@code 2 * cmp(when) + cmp(insertSeq)}, which is negative, zero
     * or positive as the first key comes before, with, or after the second. {@link #compareLongs} does not
     * overflow, unlike upstream's {@code Long.signum(a.when - b.when)} (wrong once the difference leaves the long
     * range, e.g. {@code Long.MAX_VALUE} against a negative {@code when}).
     */
    int compare(long whenA, long seqA, long whenB, long seqB) {
        // obligation: DeliveryOrder
        return 2 * compareLongs(whenA, whenB) + compareLongs(seqA, seqB);
    }

    /** {@link #compare(long, long, long, long)} of two messages' keys. */
    final int compare(Message a, Message b) {
        return compare(a.when, a.insertSeq, b.when, b.insertSeq);
    }

    /**
     * -1, 0 or 1 as {@code x <} , {@code ==}, {@code >} {@code y}, in straight-line arithmetic. The sign of
     * {@code x - y} corrected for overflow ({@code (d ^ ((x ^ y) & (d ^ x)))}, Hacker's Delight 2-12) is the sign
     * of the true difference.
     */
    static int compareLongs(long x, long y) {
        long xMinusY = x - y;
        long yMinusX = y - x;
        long xLessThanY = (xMinusY ^ ((x ^ y) & (xMinusY ^ x))) >>> 63;
        long yLessThanX = (yMinusX ^ ((y ^ x) & (yMinusX ^ y))) >>> 63;
        return (int) (yLessThanX - xLessThanY);
    }

    final int size() {
        return size;
    }

    final boolean isEmpty() {
        return size == 0;
    }

    /** The least message, or null. */
    final Message peek() {
        return size == 0 ? null : items[0];
    }

    final void add(Message m) {
        if (size == items.length) {
            resize(size + (size >> 1));
        }
        siftUp(size++, m, m.when, m.insertSeq);
    }

    /**
     * Removes {@code m}. The check is explicit, not an {@code assert}: removing a message that is not here would
     * move another message into a slot it does not own, silently, when assertions are off.
     *
     * @throws IllegalStateException if {@code m} is not in this heap (the heap is then unchanged)
     */
    final void remove(Message m) {
        int i = m.heapIndex;
        // obligation: HeapStackConsistent
        if (i < 0 || i >= size || items[i] != m) {
            throw new IllegalStateException("HeapStackConsistent violated: not in this heap: " + m);
        }
        m.heapIndex = -1;
        int last = --size;
        Message moved = items[last];
        long movedWhen = whens[last];
        long movedSeq = seqs[last];
        items[last] = null;
        if (moved != m) {
            siftDown(i, moved, movedWhen, movedSeq);
            if (items[i] == moved) {
                siftUp(i, moved, movedWhen, movedSeq);
            }
        }
        if (items.length > INITIAL_CAPACITY && size < items.length >> 2) {
            resize(items.length >> 1);
        }
    }

    /** A copy of the contents, in heap order, for whole-queue operations (quit, dump). */
    final Message[] toArray() {
        return Arrays.copyOf(items, size);
    }

    /** The position of the parent of position {@code i > 0}. */
    static int parent(int i) {
        return (i - 1) / ARITY;
    }

    private void resize(int capacity) {
        items = Arrays.copyOf(items, capacity);
        whens = Arrays.copyOf(whens, capacity);
        seqs = Arrays.copyOf(seqs, capacity);
    }

    private void siftUp(int i, Message m, long when, long seq) {
        while (i > 0) {
            int parent = parent(i);
            if (compare(when, seq, whens[parent], seqs[parent]) >= 0) {
                break;
            }
            place(i, items[parent], whens[parent], seqs[parent]);
            i = parent;
        }
        place(i, m, when, seq);
    }

    private void siftDown(int i, Message m, long when, long seq) {
        for (int first; (first = ARITY * i + 1) < size; ) {
            int least = first;
            for (int c = first + 1, end = Math.min(first + ARITY, size); c < end; c++) {
                if (compare(whens[c], seqs[c], whens[least], seqs[least]) < 0) {
                    least = c;
                }
            }
            if (compare(when, seq, whens[least], seqs[least]) <= 0) {
                break;
            }
            place(i, items[least], whens[least], seqs[least]);
            i = least;
        }
        place(i, m, when, seq);
    }

    private void place(int i, Message m, long when, long seq) {
        items[i] = m;
        whens[i] = when;
        seqs[i] = seq;
        m.heapIndex = i;
    }
}
