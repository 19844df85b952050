package org.deliqueue.bench;

import io.netty.util.concurrent.DefaultEventExecutor;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.deliqueue.Clock;
import org.deliqueue.Handler;
import org.deliqueue.Looper;
import org.deliqueue.Message;
import org.deliqueue.MessageQueue;
import org.deliqueue.QueueKind;

/** The structures the busy-queue workload ({@link Backlog}) runs on. */
public final class Targets {
    private Targets() {
    }

    /** Every queued entry is due: the consumer's poll always takes the earliest one. */
    static final Clock FAR_FUTURE = () -> Long.MAX_VALUE >> 2;
    /** Real-time schedulers get delays of an hour and more, so nothing becomes due during a run. */
    static final long HOUR_NANOS = TimeUnit.HOURS.toNanos(1);
    static final Runnable NOOP = () -> { };

    public static Backlog.Target create(String impl) {
        switch (impl) {
            case "LEGACY":
                return new Queue(QueueKind.LEGACY);
            case "DELI":
                return new Queue(QueueKind.DELI);
            case "DELAY_QUEUE":
                return new JdkDelayQueue();
            case "STPE":
                return new Stpe();
            case "NETTY":
                return new Netty();
            default:
                throw new IllegalArgumentException("unknown impl " + impl);
        }
    }

    /** LegacyMessageQueue or DeliQueue: {@code enqueueMessage} of a new Message; the consumer {@code poll()}s. */
    static final class Queue extends Backlog.Target {
        final MessageQueue queue;
        final Handler handler;

        Queue(QueueKind kind) {
            Looper looper = Loopers.detached(kind, FAR_FUTURE);
            queue = looper.getQueue();
            handler = new Handler(looper);
        }

        @Override
        public void insert(long when, long offset) {
            Message m = new Message();
            m.setTarget(handler);
            queue.enqueueMessage(m, when);
        }

        @Override
        public long removeOne() {
            Message m = queue.poll();
            return m == null ? -1 : m.getWhen();
        }
    }

    /** java.util.concurrent.DelayQueue (one lock, binary heap) of entries that are always expired. */
    static final class JdkDelayQueue extends Backlog.Target {
        final DelayQueue<Entry> queue = new DelayQueue<>();

        static final class Entry implements Delayed {
            final long when;

            Entry(long when) {
                this.when = when;
            }

            @Override
            public long getDelay(TimeUnit unit) {
                return -1;
            }

            @Override
            public int compareTo(Delayed o) {
                return Long.compare(when, ((Entry) o).when);
            }
        }

        @Override
        public void insert(long when, long offset) {
            queue.offer(new Entry(when));
        }

        @Override
        public long removeOne() {
            Entry e = queue.poll();
            return e == null ? -1 : e.when;
        }
    }

    /**
     * ScheduledThreadPoolExecutor(1) with remove-on-cancel: producers {@code schedule} a no-op an hour (plus
     * the random offset in ns) ahead; the consumer cancels the oldest scheduled task (its clock cannot be driven,
     * so removal is by cancel, O(log N) under the executor's lock, instead of by delivery). The futures travel to
     * the consumer through a ConcurrentLinkedQueue, one extra CAS per insert.
     */
    static final class Stpe extends Backlog.Target {
        final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
        final ConcurrentLinkedQueue<Future<?>> scheduled = new ConcurrentLinkedQueue<>();

        Stpe() {
            executor.setRemoveOnCancelPolicy(true);
            executor.prestartAllCoreThreads();
        }

        @Override
        public void insert(long when, long offset) {
            scheduled.offer(executor.schedule(NOOP, HOUR_NANOS + offset, TimeUnit.NANOSECONDS));
        }

        @Override
        public long removeOne() {
            Future<?> f = scheduled.poll();
            if (f == null) {
                return -1;
            }
            f.cancel(false);
            return 0;
        }

        @Override
        public void close() {
            executor.shutdownNow();
        }
    }

    /**
     * Netty's DefaultEventExecutor: {@code schedule} from a foreign thread hands the task to the event-loop thread
     * through its task queue; the loop thread inserts it into its own priority queue. The consumer cancels the
     * oldest task, as for {@link Stpe}.
     */
    static final class Netty extends Backlog.Target {
        final DefaultEventExecutor executor = new DefaultEventExecutor();
        final ConcurrentLinkedQueue<Future<?>> scheduled = new ConcurrentLinkedQueue<>();

        @Override
        public void insert(long when, long offset) {
            scheduled.offer(executor.schedule(NOOP, HOUR_NANOS + offset, TimeUnit.NANOSECONDS));
        }

        @Override
        public long removeOne() {
            Future<?> f = scheduled.poll();
            if (f == null) {
                return -1;
            }
            f.cancel(false);
            return 0;
        }

        @Override
        public void close() {
            executor.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
