package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link MessageHeap#remove} of a message that is not in the heap (once only an assertion): an explicit check that holds
 * whether or not assertions are enabled, naming the obligation the caller broke, and leaving the heap as it was.
 */
// obligation: HeapStackConsistent
class MessageHeapRemoveTest {

    @Test
    void removingAMessageThatIsInNoHeapThrowsAndLeavesTheHeapIntact() {
        MessageHeap heap = heapOf(3, 1, 2);
        Message stranger = message(0);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> heap.remove(stranger));
        assertTrue(e.getMessage().contains("HeapStackConsistent"), e.getMessage());
        assertDrainsInOrder(heap, 1, 2, 3);
    }

    @Test
    void removingTheHeadOfAnotherHeapThrowsAndLeavesBothHeapsIntact() {
        MessageHeap heap = heapOf(3, 1, 2);
        MessageHeap other = heapOf(5, 4);
        Message otherHead = other.peek(); // its heapIndex, 0, is a valid index of `heap` too
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> heap.remove(otherHead));
        assertTrue(e.getMessage().contains("HeapStackConsistent"), e.getMessage());
        assertDrainsInOrder(heap, 1, 2, 3);
        assertDrainsInOrder(other, 4, 5);
    }

    private static MessageHeap heapOf(long... whens) {
        MessageHeap heap = new MessageHeap();
        for (long when : whens) {
            heap.add(message(when));
        }
        return heap;
    }

    private static Message message(long when) {
        Message m = new Message();
        m.when = when;
        m.insertSeq = when;
        return m;
    }

    private static void assertDrainsInOrder(MessageHeap heap, long... whens) {
        assertEquals(whens.length, heap.size(), "size");
        for (long when : whens) {
            Message head = heap.peek();
            assertEquals(when, head.when, "next head");
            heap.remove(head);
            assertEquals(-1, head.heapIndex);
        }
        assertSame(null, heap.peek());
    }
}
