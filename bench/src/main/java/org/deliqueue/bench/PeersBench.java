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
 * Benchmark 5: the busy-queue workload of {@link BusyQueueBench} (same harness, same N held by a consumer, at
 * N = 10^3, 10^4 and 10^5, same producer counts) on the JDK's and Netty's delayed-task structures, so that
 * DeliQueue's figures can be placed among them. DelayQueue is drained by delivery like the message queues;
 * ScheduledThreadPoolExecutor and Netty's DefaultEventExecutor run on real time, so their consumer removes by
 * cancelling the oldest task (see {@link Targets}). The report puts these rows next to BusyQueueBench's LEGACY and
 * DELI rows at the same N.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PeersBench {

    @State(Scope.Benchmark)
    public static class Shared extends BacklogStates.Shared {
        @Param({"DELAY_QUEUE", "STPE", "NETTY"})
        public String impl;

        @Param({"1000", "10000", "100000"})
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
