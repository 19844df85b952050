package org.deliqueue.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Benchmark 6: the message-pool strategies of the Android Parcel pool study (commit 95e32f0, "Hand-rolled linked
 * list for Parcel performance"), at 1, 2 and 4 threads: one operation obtains an object, writes its payload,
 * hands it to a Blackhole (so it escapes, as a real message does) and recycles it.
 * <ul>
 *   <li>PURE_GC: {@code new} every time, no pool.
 *   <li>SINGLE_AR: one cached object in an AtomicReference ({@code getAndSet(null)} / {@code compareAndSet(null, o)}).
 *   <li>POOLED_AR: {@value #SLOTS} AtomicReference slots, scanned.
 *   <li>LOCKED_LIST: a linked list under a monitor, capped at {@value #MAX_LIST} (Message's pool, and what the
 *       study chose).
 * </ul>
 * The report gives each figure relative to LOCKED_LIST at the same thread count, as the study did against its
 * baseline. DeliQueue does not pool at all (see the DeliQueue class comment): a recycled node could be pushed again
 * while a stale traversal still stands on it, an ABA on the stack that no choice of pool removes.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PoolBench {
    static final int SLOTS = 8;
    static final int MAX_LIST = 50;

    /** The pooled object: a few words of payload and the list link. */
    static final class Obj {
        Obj next;
        int what;
        int arg1;
        long when;
    }

    interface Pool {
        Obj obtain();

        void recycle(Obj o);
    }

    static final class PureGc implements Pool {
        @Override
        public Obj obtain() {
            return new Obj();
        }

        @Override
        public void recycle(Obj o) {
        }
    }

    static final class SingleAr implements Pool {
        final AtomicReference<Obj> cache = new AtomicReference<>();

        @Override
        public Obj obtain() {
            Obj o = cache.getAndSet(null);
            return o != null ? o : new Obj();
        }

        @Override
        public void recycle(Obj o) {
            cache.compareAndSet(null, o);
        }
    }

    static final class PooledAr implements Pool {
        final AtomicReferenceArray<Obj> slots = new AtomicReferenceArray<>(SLOTS);

        @Override
        public Obj obtain() {
            for (int i = 0; i < SLOTS; i++) {
                if (slots.get(i) != null) {
                    Obj o = slots.getAndSet(i, null);
                    if (o != null) {
                        return o;
                    }
                }
            }
            return new Obj();
        }

        @Override
        public void recycle(Obj o) {
            for (int i = 0; i < SLOTS; i++) {
                if (slots.get(i) == null && slots.compareAndSet(i, null, o)) {
                    return;
                }
            }
        }
    }

    static final class LockedList implements Pool {
        private final Object lock = new Object();
        private Obj head;
        private int size;

        @Override
        public Obj obtain() {
            synchronized (lock) {
                Obj o = head;
                if (o != null) {
                    head = o.next;
                    o.next = null;
                    size--;
                    return o;
                }
            }
            return new Obj();
        }

        @Override
        public void recycle(Obj o) {
            o.what = o.arg1 = 0;
            o.when = 0;
            synchronized (lock) {
                if (size < MAX_LIST) {
                    o.next = head;
                    head = o;
                    size++;
                }
            }
        }
    }

    @State(Scope.Benchmark)
    public static class PoolState {
        @Param({"PURE_GC", "SINGLE_AR", "POOLED_AR", "LOCKED_LIST"})
        public String strategy;

        Pool pool;

        @Setup(Level.Trial)
        public void setUp() {
            switch (strategy) {
                case "PURE_GC":
                    pool = new PureGc();
                    break;
                case "SINGLE_AR":
                    pool = new SingleAr();
                    break;
                case "POOLED_AR":
                    pool = new PooledAr();
                    break;
                case "LOCKED_LIST":
                    pool = new LockedList();
                    break;
                default:
                    throw new IllegalArgumentException(strategy);
            }
        }
    }

    static void cycle(Pool pool, Blackhole bh) {
        Obj o = pool.obtain();
        o.what = 1;
        o.arg1 = 2;
        o.when = 3;
        bh.consume(o);
        pool.recycle(o);
    }

    @Benchmark
    @Threads(1)
    public void threads1(PoolState s, Blackhole bh) {
        cycle(s.pool, bh);
    }

    @Benchmark
    @Threads(2)
    public void threads2(PoolState s, Blackhole bh) {
        cycle(s.pool, bh);
    }

    @Benchmark
    @Threads(4)
    public void threads4(PoolState s, Blackhole bh) {
        cycle(s.pool, bh);
    }
}
