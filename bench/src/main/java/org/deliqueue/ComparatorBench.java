package org.deliqueue;

import java.util.concurrent.TimeUnit;
import org.deliqueue.bench.SplitRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Benchmark 2: DeliQueue's branchless comparator ({@link MessageHeap#compare}, built on
 * {@link MessageHeap#compareLongs}) against the branchy form it replaced upstream
 * ({@code signum(when)} then an early return, then {@code signum(insertSeq)}), on random {@code (when, insertSeq)}.
 * Lives in package {@code org.deliqueue} for access to the package-private heap and fields.
 * <ul>
 *   <li>{@code compare*}: {@value #PAIRS} comparisons of random pairs per operation (reported per comparison).
 *       {@code when} is drawn from a small range so that the first comparison is unpredictable and ties happen.
 *   <li>{@code heap*}: the hold model on a heap of {@code heapSize} messages: remove the least, give it a later
 *       random {@code when}, add it back (one remove + one add per operation).
 * </ul>
 * The branchy heap is the same {@link MessageHeap} with only {@code compare} overridden.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ComparatorBench {
    static final int PAIRS = 1024;

    /** Upstream's comparison before the branchless rewrite (as disassembled in the Android 17 article). */
    static int branchyCompare(long when1, long seq1, long when2, long seq2) {
        int whenSign = Long.signum(when1 - when2);
        if (whenSign > 0) {
            return 1;
        }
        if (whenSign < 0) {
            return -1;
        }
        return Long.signum(seq1 - seq2);
    }

    static final class BranchyHeap extends MessageHeap {
        @Override
        int compare(long whenA, long seqA, long whenB, long seqB) {
            return branchyCompare(whenA, seqA, whenB, seqB);
        }
    }

    @State(Scope.Thread)
    public static class Pairs {
        final Message[] a = new Message[PAIRS];
        final Message[] b = new Message[PAIRS];
        final MessageHeap branchless = new MessageHeap();
        final MessageHeap branchy = new BranchyHeap();

        @Setup(Level.Trial)
        public void setUp() {
            SplitRandom r = new SplitRandom(1);
            for (int i = 0; i < PAIRS; i++) {
                a[i] = random(r, 8);
                b[i] = random(r, 8);
            }
        }
    }

    static Message random(SplitRandom r, int whenRange) {
        Message m = new Message();
        m.when = 1 + Math.floorMod(r.next(), whenRange);
        m.insertSeq = Math.floorMod(r.next(), 1L << 40);
        return m;
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public int compareBranchless(Pairs p) {
        MessageHeap h = p.branchless;
        Message[] a = p.a;
        Message[] b = p.b;
        int acc = 0;
        for (int i = 0; i < PAIRS; i++) {
            acc += h.compare(a[i], b[i]) * (i | 1);
        }
        return acc;
    }

    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public int compareBranchy(Pairs p) {
        MessageHeap h = p.branchy;
        Message[] a = p.a;
        Message[] b = p.b;
        int acc = 0;
        for (int i = 0; i < PAIRS; i++) {
            acc += h.compare(a[i], b[i]) * (i | 1);
        }
        return acc;
    }

    @State(Scope.Thread)
    public static class Heaps {
        @Param({"1000", "100000"})
        public int heapSize;

        MessageHeap branchless;
        MessageHeap branchy;
        SplitRandom random;
        long seq;

        @Setup(Level.Trial)
        public void setUp() {
            branchless = fill(new MessageHeap(), new SplitRandom(3));
            branchy = fill(new BranchyHeap(), new SplitRandom(3));
            random = new SplitRandom(5);
        }

        private MessageHeap fill(MessageHeap h, SplitRandom r) {
            for (int i = 0; i < heapSize; i++) {
                Message m = random(r, heapSize);
                m.insertSeq = ++seq;
                h.add(m);
            }
            return h;
        }
    }

    static Message hold(MessageHeap h, Heaps s) {
        Message m = h.peek();
        h.remove(m);
        m.when += 1 + Math.floorMod(s.random.next(), s.heapSize);
        m.insertSeq = ++s.seq;
        h.add(m);
        return m;
    }

    @Benchmark
    public Message heapBranchless(Heaps s) {
        return hold(s.branchless, s);
    }

    @Benchmark
    public Message heapBranchy(Heaps s) {
        return hold(s.branchy, s);
    }
}
