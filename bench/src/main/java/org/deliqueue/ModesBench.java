package org.deliqueue;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;

/**
 * What the memory orderings chosen in {@link FieldAccess} buy: push and {@code enqueueMessage}, as in
 * {@link CasLimitBench}, at 1 and 2 threads, with the chosen modes ({@link Chosen}) and with every access volatile
 * ({@link AllVolatile}: {@code -Ddeliqueue.allVolatile=true}), in one run. On x86-64 only stores differ (a volatile
 * store is followed by a full fence; acquire, opaque and plain loads compile like volatile ones): the push's plain
 * write of {@code m.next} before its CAS is the one the producer pays for.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public abstract class ModesBench {

    @Benchmark
    @Threads(1)
    public void push1(CasLimitBench.Shared s, CasLimitBench.Local l) {
        CasLimitBench.deliPush(s, l);
    }

    @Benchmark
    @Threads(2)
    public void push2(CasLimitBench.Shared s, CasLimitBench.Local l) {
        CasLimitBench.deliPush(s, l);
    }

    @Benchmark
    @Threads(1)
    public void enqueue1(CasLimitBench.Shared s, CasLimitBench.Local l) {
        CasLimitBench.deliEnqueue(s, l);
    }

    @Benchmark
    @Threads(2)
    public void enqueue2(CasLimitBench.Shared s, CasLimitBench.Local l) {
        CasLimitBench.deliEnqueue(s, l);
    }

    /** The modes of {@link FieldAccess}. */
    @Fork(jvmArgsAppend = "-Ddeliqueue.allVolatile=false")
    public static class Chosen extends ModesBench {
    }

    /** Every access of {@link FieldAccess} volatile. */
    @Fork(jvmArgsAppend = "-Ddeliqueue.allVolatile=true")
    public static class AllVolatile extends ModesBench {
    }
}
