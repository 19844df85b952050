package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Looper's heap and its branchless comparator (obligation DeliveryOrder). */
// obligation: DeliveryOrder
class MessageHeapTest {
    private static final long[] EXTREMES = {
        Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L << 62, -2, -1, 0, 1, 2, 1L << 62, Long.MAX_VALUE - 1, Long.MAX_VALUE
    };

    @Test
    void compareLongsAgreesWithLongCompareOnExtremesAndRandomPairs() {
        for (long x : EXTREMES) {
            for (long y : EXTREMES) {
                assertEquals(Long.compare(x, y), MessageHeap.compareLongs(x, y), x + " vs " + y);
            }
        }
        Random r = new Random(42);
        for (int i = 0; i < 1_000_000; i++) {
            long x = r.nextLong() >> r.nextInt(64);
            long y = r.nextBoolean() ? x + r.nextInt(3) - 1 : r.nextLong() >> r.nextInt(64);
            assertEquals(Long.compare(x, y), MessageHeap.compareLongs(x, y), x + " vs " + y);
        }
    }

    /** Upstream edge case 1: the subtracting comparator is wrong once the difference overflows. */
    @Test
    void upstreamSubtractingComparatorOverflowsWhereOursDoesNot() {
        long late = Long.MAX_VALUE;
        long early = -1;
        assertEquals(-1, Long.signum(late - early), "upstream: MAX_VALUE - (-1) wraps, so the late one sorts first");
        assertEquals(1, MessageHeap.compareLongs(late, early));
    }

    @Test
    void heapOrdersByWhenThenInsertSeqAndKeepsHeapIndex() {
        MessageHeap heap = new MessageHeap();
        PriorityQueue<Message> oracle = new PriorityQueue<>(
                Comparator.<Message>comparingLong(m -> m.when).thenComparingLong(m -> m.insertSeq));
        List<Message> inHeap = new ArrayList<>();
        Random r = new Random(7);
        long seq = 0;
        for (int step = 0; step < 200_000; step++) {
            int op = r.nextInt(10);
            if (op < 5 || inHeap.isEmpty()) {
                Message m = new Message();
                m.when = EXTREMES[r.nextInt(EXTREMES.length)] + (r.nextBoolean() ? 0 : r.nextInt(5));
                m.insertSeq = r.nextBoolean() ? ++seq : -(++seq);
                heap.add(m);
                oracle.add(m);
                inHeap.add(m);
            } else if (op < 8) {
                Message expected = oracle.poll();
                Message head = heap.peek();
                assertSame(expected, head, "head at step " + step);
                heap.remove(head);
                inHeap.remove(head);
                assertEquals(-1, head.heapIndex);
            } else {
                Message victim = inHeap.remove(r.nextInt(inHeap.size()));
                heap.remove(victim);
                oracle.remove(victim);
                assertEquals(-1, victim.heapIndex);
            }
            assertEquals(oracle.size(), heap.size());
        }
        for (Message m : heap.toArray()) {
            assertSame(m, heap.toArray()[m.heapIndex], "heapIndex is the position");
        }
    }

    @Test
    void heapKeepsItsOrderThroughGrowthAndShrinking() {
        MessageHeap heap = new MessageHeap();
        List<Message> all = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Message m = new Message();
            m.when = i;
            m.insertSeq = i;
            heap.add(m);
            all.add(m);
        }
        for (Message m : all) {
            assertSame(m, heap.peek());
            heap.remove(m);
        }
        assertNull(heap.peek());
    }
}
