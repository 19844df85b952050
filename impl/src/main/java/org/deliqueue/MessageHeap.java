package org.deliqueue;

import java.util.Arrays;

/**
 * DeliQueue's priority queue: an array binary min-heap of messages ordered by {@code (when, insertSeq)},
 * owned by the Looper thread (no synchronisation). Each message's {@code heapIndex} is kept equal to its
 * position, or -1 when it is in no heap, so that a tombstoned message is removed in O(log N).
 * The array grows by half when full and halves when a quarter full.
 */
class MessageHeap {
    private static final int INITIAL_CAPACITY = 16;

    private Message[] heap = new Message[INITIAL_CAPACITY];
    private int size;

    /**
     * The branchless order of DeliQueue: {@code 2 * cmp(when) + cmp(insertSeq)}, which is negative, zero or
     * positive as {@code a} comes before, with, or after {@code b}. {@link #compareLongs} does not overflow,
     * unlike upstream's {@code Long.signum(a.when - b.when)} (wrong once the difference leaves the long range,
     * e.g. {@code Long.MAX_VALUE} against a negative {@code when}).
     */
    int compare(Message a, Message b) {
        // obligation: DeliveryOrder
        return 2 * compareLongs(a.when, b.when) + compareLongs(a.insertSeq, b.insertSeq);
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
        return size == 0 ? null : heap[0];
    }

    final void add(Message m) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size + (size >> 1));
        }
        siftUp(size++, m);
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
        if (i < 0 || i >= size || heap[i] != m) {
            throw new IllegalStateException("HeapStackConsistent violated: not in this heap: " + m);
        }
        m.heapIndex = -1;
        Message last = heap[--size];
        heap[size] = null;
        if (last != m) {
            siftDown(i, last);
            if (heap[i] == last) {
                siftUp(i, last);
            }
        }
        if (heap.length > INITIAL_CAPACITY && size < heap.length >> 2) {
            heap = Arrays.copyOf(heap, heap.length >> 1);
        }
    }

    /** A copy of the contents, in heap order, for whole-queue operations (quit, dump). */
    final Message[] toArray() {
        return Arrays.copyOf(heap, size);
    }

    private void siftUp(int i, Message m) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Message p = heap[parent];
            if (compare(m, p) >= 0) {
                break;
            }
            place(i, p);
            i = parent;
        }
        place(i, m);
    }

    private void siftDown(int i, Message m) {
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            Message c = heap[child];
            int right = child + 1;
            if (right < size && compare(heap[right], c) < 0) {
                c = heap[child = right];
            }
            if (compare(m, c) <= 0) {
                break;
            }
            place(i, c);
            i = child;
        }
        place(i, m);
    }

    private void place(int i, Message m) {
        heap[i] = m;
        m.heapIndex = i;
    }
}
