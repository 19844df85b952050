package org.deliqueue.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Benchmark 1, the headline: insertion into a busy queue. The queue holds about {@code n} pending future
 * messages; 1 or 2 producer threads {@code enqueueMessage} new messages with random future deadlines while a
 * consumer thread (the Looper's role) {@code poll()}s the earliest one whenever more than {@code n} are pending
 * (see {@link Backlog} for how N is held and memory bounded). SampleTime gives the mean time per insert and its
 * percentiles; producer throughput is {@code threads / mean}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BusyQueueBench {

    @State(Scope.Benchmark)
    public static class Shared {
        @Param({"LEGACY", "DELI"})
        public String impl;

        @Param({"0", "1000", "10000", "100000"})
        public int n;

        Backlog backlog;
        String benchmark;

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            benchmark = params.getBenchmark();
            backlog = new Backlog(impl, Targets.create(impl), n, params.getThreads(), new SplitRandom(42));
        }

        @Setup(Level.Iteration)
        public void startIteration() {
            backlog.startIteration();
        }

        @TearDown(Level.Iteration)
        public void endIteration(IterationParams params) {
            if (params.getType() == IterationType.MEASUREMENT) {
                backlog.writeStats(benchmark);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            backlog.close();
        }
    }

    @State(Scope.Thread)
    public static class ProducerState {
        private static final AtomicLong SEEDS = new AtomicLong(7);
        final Backlog.Producer producer = new Backlog.Producer(SEEDS.incrementAndGet() * 0x9E3779B97F4A7C15L);
    }

    @Benchmark
    @Threads(1)
    public void producers1(Shared s, ProducerState p) {
        s.backlog.insert(p.producer);
    }

    @Benchmark
    @Threads(2)
    public void producers2(Shared s, ProducerState p) {
        s.backlog.insert(p.producer);
    }
}
