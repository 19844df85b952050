package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import sun.misc.Unsafe;

/**
 * DeliQueue's {@code top} keeps a cache-line pair to itself ({@link PaddedTop}): no other field of a DeliQueue lies
 * within 128 bytes of it, in the layout this JVM chose. HotSpot fills holes a superclass leaves with a subclass's
 * fields, so the padding only works if it leaves none; this test is what notices when a JVM or a new field puts
 * something next to {@code top}. The contention benchmark measures what the padding buys (bench/ ContentionBench).
 */
class PaddedTopLayoutTest {
    private static final int LINE_PAIR = 128;

    /** A queue-like class with {@code top} and no padding: DeliQueue's layout before the padding. */
    static class UnpaddedFixture {
        long looperWritten;
        volatile Message top;
        Message freelist;
    }

    @Test
    void noFieldOfDeliQueueSharesTopsCacheLines() throws Exception {
        assertEquals(Map.of(), neighbours(DeliQueue.class, TopField.class.getDeclaredField("top")));
    }

    /** Negative control: the same check finds the neighbours of an unpadded top. */
    @Test
    void theCheckFindsTheNeighboursOfAnUnpaddedTop() throws Exception {
        Map<String, Long> near = neighbours(UnpaddedFixture.class, UnpaddedFixture.class.getDeclaredField("top"));
        assertTrue(near.containsKey("UnpaddedFixture.looperWritten") && near.containsKey("UnpaddedFixture.freelist"),
                near.toString());
    }

    /**
     * The instance fields of {@code c} (its superclasses' included) other than {@code top} and the padding itself
     * whose offset lies within {@link #LINE_PAIR} bytes of {@code top}'s, by name, with their distance.
     */
    private static Map<String, Long> neighbours(Class<?> c, Field top) throws Exception {
        Unsafe unsafe = unsafe();
        long topOffset = unsafe.objectFieldOffset(top);
        Map<String, Long> near = new TreeMap<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            boolean padding = k == PadBeforeTop.class || k == PaddedTop.class;
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || padding || f.equals(top)) {
                    continue;
                }
                long distance = Math.abs(unsafe.objectFieldOffset(f) - topOffset);
                if (distance < LINE_PAIR) {
                    near.put(k.getSimpleName() + "." + f.getName(), distance);
                }
            }
        }
        return near;
    }

    private static Unsafe unsafe() throws ReflectiveOperationException {
        Field f = Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        return (Unsafe) f.get(null);
    }
}
