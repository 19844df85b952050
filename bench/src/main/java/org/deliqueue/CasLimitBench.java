package org.deliqueue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.deliqueue.bench.Loopers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * Benchmark 3: the limit. A DeliQueue insertion is one CAS on {@code top} (plus the IN_USE CAS on the message's own
 * flags and a read of the wait word); nothing lock-free that shares one word can beat a bare CAS loop on that
 * word. Throughput of, at 1 and 2 threads:
 * <ul>
 *   <li>{@code cas}: a CAS retry loop on one shared AtomicReference, nothing allocated;
 *   <li>{@code treiber}: a Treiber push of a new node (the textbook stack);
 *   <li>{@code deliPush}: {@link DeliQueue#push} of a new Message (the stack step alone);
 *   <li>{@code deliEnqueue}: {@code enqueueMessage} of a new Message (claim CAS, push, wake check): the public path.
 * </ul>
 * No Looper drains the stacks: every {@value #TRUNCATE} pushes a thread cuts its stack to empty (one volatile
 * write), so memory stays flat; the cut costs all four variants the same, nearly nothing.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CasLimitBench {
    static final int TRUNCATE = 4096;

    static final class Node {
        Node next;
    }

    @State(Scope.Benchmark)
    public static class Shared {
        final AtomicReference<Object> word = new AtomicReference<>();
        final AtomicReference<Node> treiberTop = new AtomicReference<>();
        DeliQueue queue;
        Handler handler;

        @Setup(Level.Trial)
        public void setUp() {
            Looper looper = Loopers.detached(QueueKind.DELI, Clock.SYSTEM);
            queue = (DeliQueue) looper.getQueue();
            handler = new Handler(looper);
        }
    }

    @State(Scope.Thread)
    public static class Local {
        final Object token = new Object();
        int pushes;
    }

    static void cas(Shared s, Local l) {
        AtomicReference<Object> w = s.word;
        for (;;) {
            Object cur = w.get();
            if (w.compareAndSet(cur, l.token)) {
                return;
            }
        }
    }

    static void treiber(Shared s, Local l) {
        if (++l.pushes == TRUNCATE) {
            l.pushes = 0;
            s.treiberTop.set(null);
        }
        Node n = new Node();
        AtomicReference<Node> top = s.treiberTop;
        for (;;) {
            Node t = top.get();
            n.next = t;
            if (top.compareAndSet(t, n)) {
                return;
            }
        }
    }

    static void deliPush(Shared s, Local l) {
        truncateDeli(s, l);
        Message m = new Message();
        m.target = s.handler;
        s.queue.push(m);
    }

    static void deliEnqueue(Shared s, Local l) {
        truncateDeli(s, l);
        Message m = new Message();
        m.setTarget(s.handler);
        s.queue.enqueueMessage(m, 1);
    }

    private static void truncateDeli(Shared s, Local l) {
        if (++l.pushes == TRUNCATE) {
            l.pushes = 0;
            s.queue.top = null;
        }
    }

    @Benchmark
    @Threads(1)
    public void cas1(Shared s, Local l) {
        cas(s, l);
    }

    @Benchmark
    @Threads(2)
    public void cas2(Shared s, Local l) {
        cas(s, l);
    }

    @Benchmark
    @Threads(1)
    public void treiber1(Shared s, Local l) {
        treiber(s, l);
    }

    @Benchmark
    @Threads(2)
    public void treiber2(Shared s, Local l) {
        treiber(s, l);
    }

    @Benchmark
    @Threads(1)
    public void deliPush1(Shared s, Local l) {
        deliPush(s, l);
    }

    @Benchmark
    @Threads(2)
    public void deliPush2(Shared s, Local l) {
        deliPush(s, l);
    }

    @Benchmark
    @Threads(1)
    public void deliEnqueue1(Shared s, Local l) {
        deliEnqueue(s, l);
    }

    @Benchmark
    @Threads(2)
    public void deliEnqueue2(Shared s, Local l) {
        deliEnqueue(s, l);
    }
}
