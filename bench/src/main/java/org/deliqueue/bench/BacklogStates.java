package org.deliqueue.bench;

import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * The JMH states of the busy-queue workload, shared by {@link BusyQueueBench} and {@link PeersBench}: each
 * declares only its {@code @Param}s ({@link #impl()}, {@link #n()}); JMH runs the inherited lifecycle methods.
 */
public final class BacklogStates {
    private BacklogStates() {
    }

    /** One {@link Backlog} per trial, holding about {@link #n()} pending messages of {@link #impl()}. */
    @State(Scope.Benchmark)
    public abstract static class Shared {
        Backlog backlog;
        String benchmark;

        abstract String impl();

        abstract int n();

        @Setup(Level.Trial)
        public void setUp(BenchmarkParams params) {
            benchmark = params.getBenchmark();
            backlog = new Backlog(impl(), Targets.create(impl()), n(), params.getThreads(), new SplitRandom(42));
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

    /** Each producer thread's own random deadlines. */
    @State(Scope.Thread)
    public static class ProducerState {
        private static final AtomicLong SEEDS = new AtomicLong(7);
        final Backlog.Producer producer = new Backlog.Producer(SEEDS.incrementAndGet() * 0x9E3779B97F4A7C15L);
    }
}
