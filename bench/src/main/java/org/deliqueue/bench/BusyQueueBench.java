package org.deliqueue.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

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
    public static class Shared extends BacklogStates.Shared {
        @Param({"LEGACY", "DELI"})
        public String impl;

        @Param({"0", "1000", "10000", "100000"})
        public int n;

        @Override
        String impl() {
            return impl;
        }

        @Override
        int n() {
            return n;
        }
    }

    @Benchmark
    @Threads(1)
    public void producers1(Shared s, BacklogStates.ProducerState p) {
        s.backlog.insert(p.producer);
    }

    @Benchmark
    @Threads(2)
    public void producers2(Shared s, BacklogStates.ProducerState p) {
        s.backlog.insert(p.producer);
    }
}
