package org.deliqueue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * One concurrent run of a DeliQueue with the recorder on ({@link Trace}), written as ndjson for trace validation.
 * A Looper thread takes messages until the queue quits; producers post sync, asynchronous and front-of-queue
 * messages (and a barrier, sometimes) at small uptimes; an asker calls {@code hasMessages} and two removers
 * {@code removeMessages} with predicates over
 * {@code what}; a clock thread moves a {@link ManualClock} on by 1 or 2 ms at a time; a quitter calls {@code quit} or
 * {@code quitSafely} at a random point after half of the posts, racing the others (a quit before any post would make
 * a trace too short to exercise the races); an interrupter interrupts the Looper up to {@value #INTERRUPTS} times,
 * the last time after half of the posts. Seeded: the same seed gives the same plan (the schedule, which the threads
 * race over, differs from run to run).
 *
 * <p>Barriers stay until the quit: {@code removeSyncBarrier} first finds its barrier with a traversal whose visitor
 * logs nothing, which the spec's removal does not model.
 */
public final class TracedRun {
    /** The largest uptime a run posts for or moves the clock to (the spec's MaxTime stays small). */
    static final int HORIZON = 4;
    /** The most interrupts of the Looper a run makes. */
    private static final int INTERRUPTS = 3;
    /** How long a run's threads have to finish before those parked are taken as hung. */
    private static final long RUN_LIMIT_SECONDS = 30;

    private final MessageQueue.Factory factory;
    private final long seed;
    private final int producers;
    private final int postsPerProducer;
    private final int asks;
    private final int removals;
    private final int removers;

    /**
     * A run with {@code removals} removals on {@code removers} threads: one remover calls them from the start, racing
     * the posts; two or more start when half of the posts are in and meet before each call, so that removals are in
     * flight together (trace validation takes about twice as long per trace: {@code make trace} runs them, the CI
     * sample keeps one).
     */
    public TracedRun(MessageQueue.Factory factory, long seed, int producers, int postsPerProducer, int asks,
            int removals, int removers) {
        requireRecorder();
        this.factory = factory;
        this.seed = seed;
        this.producers = producers;
        this.postsPerProducer = postsPerProducer;
        this.asks = asks;
        this.removals = removals;
        this.removers = removers;
    }

    /**
     * A written trace: its number of events, and the threads of the run that hung (parked for good at the end of
     * {@link #RUN_LIMIT_SECONDS}; none, unless a bug strands one: a lost wakeup leaves the Looper asleep). The trace
     * of a hung run holds the events up to the hang and a meta line naming the hung threads, whose operations
     * trace validation then does not require to have returned.
     */
    public record Written(int events, List<String> hung) {
        public boolean finished() {
            return hung.isEmpty();
        }
    }

    /**
     * Runs once and writes the trace to {@code out}. A run that hangs writes the events logged up to the hang (a
     * prefix of each thread's log, which trace validation checks as it checks a whole trace), then unparks its hung
     * threads so that they finish, their later events dropped: the recorder is shared with the next run. Throws if a
     * thread is neither finished nor parked at the limit, or cannot be freed.
     */
    public Written runTo(Path out) throws IOException, InterruptedException {
        Random plan = new Random(seed);
        ManualClock clock = new ManualClock(0);
        DeliQueue deli = deliQueue(factory, clock);
        MessageQueue queue = deli;
        Handler target = new Handler(idleLooper());
        Trace.drain(); // what a failed run left behind
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<String> meta = new ArrayList<>();
        String tag = "r" + seed + "-";
        CountDownLatch halfPosted = new CountDownLatch(producers * postsPerProducer / 2);

        Thread looper = new Thread(() -> {
            while (queue.next() != null) {
                // delivered: the trace records it
            }
        }, tag + "looper");
        threads.add(looper);
        int what = 1;
        for (int p = 0; p < producers; p++) {
            List<Runnable> posts = new ArrayList<>();
            for (int i = 0; i < postsPerProducer; i++, what++) {
                posts.add(post(queue, target, plan, what, halfPosted));
            }
            if (plan.nextInt(4) == 0) {
                posts.add(plan.nextInt(posts.size() + 1), () -> {
                    try {
                        queue.postSyncBarrier();
                    } catch (IllegalStateException quitting) {
                        // the quit came first: a refused barrier, recorded as a failed push
                    }
                });
            }
            threads.add(worker(tag + "producer" + p, start, plan.nextLong(), posts));
        }
        List<Runnable> queries = calls("h", "has", asks, k -> 3, plan, what, meta, deli::hasMatching);
        threads.add(worker(tag + "asker", start, plan.nextLong(), queries));
        // Removals alternate between the removers. Together, they start when half of the posts are in (as the quit
        // does, so that they find messages to take) and meet before each call, so that two are in flight at once,
        // with predicates modulo 2 and 3 that overlap on some posts: such a message is covered by both descriptors
        // (the earlier one owns it), and both removers, the Looper and the quit sentinel may meet it, reserved or not.
        List<Runnable> removes = calls("x", "remove", removals, k -> 2 + k % 2, plan, what, meta, deli::removeMatching);
        Phaser together = new Phaser(removers);
        for (int r = 0; r < removers; r++) {
            List<Runnable> mine = new ArrayList<>();
            for (int k = r; k < removes.size(); k += removers) {
                Runnable removal = removes.get(k);
                mine.add(removers == 1 ? removal : () -> {
                    awaitQuietly(halfPosted);
                    together.arriveAndAwaitAdvance();
                    removal.run();
                });
            }
            mine.add(together::arriveAndDeregister); // a remover with fewer calls does not hold the others back
            threads.add(worker(tag + "remover" + r, start, plan.nextLong(), mine));
        }
        List<Runnable> ticks = new ArrayList<>();
        for (int at = 0; at < HORIZON; ) {
            // A jump of 2 passes an uptime no thread reads (TraceModule lays it out as the spec's ticks of 1).
            int jump = Math.min(HORIZON - at, 1 + plan.nextInt(2));
            at += jump;
            ticks.add(() -> {
                clock.advance(jump);
                Trace.event("tick", "Clock", "now", clock.uptimeMillis());
            });
        }
        threads.add(worker(tag + "clock", start, plan.nextLong(), ticks));
        boolean safe = plan.nextBoolean();
        List<Runnable> quitter = new ArrayList<>();
        quitter.add(() -> awaitQuietly(halfPosted));
        for (int i = 2 + plan.nextInt(4); i > 0; i--) {
            quitter.add(() -> { }); // a pause: the quit races the later posts more often than the first ones
        }
        quitter.add(() -> queue.quit(safe));
        threads.add(worker(tag + "quitter", start, plan.nextLong(), quitter));
        // Interrupts of the Looper, which log nothing: one may end a park early (the spec's ParkReturnsEarly), in a
        // sleep or in teardown's wait, and must change nothing else. Some come at once, the last one once half of
        // the posts are in, racing the quit and the teardown as the quitter's pauses do.
        List<Runnable> interrupts = new ArrayList<>();
        for (int i = plan.nextInt(INTERRUPTS); i > 0; i--) {
            interrupts.add(looper::interrupt);
        }
        interrupts.add(() -> awaitQuietly(halfPosted));
        for (int i = 2 + plan.nextInt(6); i > 0; i--) {
            interrupts.add(() -> { }); // a pause
        }
        interrupts.add(looper::interrupt);
        threads.add(worker(tag + "interrupter", start, plan.nextLong(), interrupts));

        threads.forEach(t -> t.setDaemon(true)); // a thread that cannot be freed does not hold the JVM's exit
        threads.forEach(Thread::start);
        start.countDown();
        List<Thread> hung = awaitParkedOrFinished(threads);
        if (!hung.isEmpty()) {
            meta.add(hung.stream().map(t -> "\"" + t.getName() + "\"")
                    .collect(Collectors.joining(",", "{\"meta\":\"hung\",\"threads\":[", "]}")));
        }
        List<String> lines = new ArrayList<>(meta);
        List<String> events = Trace.drain();
        lines.addAll(events);
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        free(hung);
        return new Written(events.size(), hung.stream().map(Thread::getName).toList());
    }

    /** Joins {@code threads} for up to {@link #RUN_LIMIT_SECONDS} in all; returns those still parked then. */
    private List<Thread> awaitParkedOrFinished(List<Thread> threads) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RUN_LIMIT_SECONDS);
        List<Thread> hung = new ArrayList<>();
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                Thread.State state = t.getState();
                if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
                    throw new IllegalStateException("traced run " + seed + ": " + t.getName()
                            + " did not finish and is not parked (" + state + ")");
                }
                hung.add(t);
            }
        }
        return hung;
    }

    /**
     * Unparks the hung threads of a run whose trace is written (interrupting them too after a while) until they
     * finish, then drops what they logged meanwhile: the trace ends at the hang, and those events would continue a
     * behaviour the trace model need not have (a stranded thread's own park with no permit, or after its deadline).
     */
    private void free(List<Thread> hung) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (int round = 0; hung.stream().anyMatch(Thread::isAlive); round++) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("traced run " + seed + ": hung threads " + hung
                        + " could not be freed; the recorder they share makes any further traced run unsound");
            }
            for (Thread t : hung) {
                LockSupport.unpark(t);
                if (round >= 100) {
                    t.interrupt();
                }
                t.join(10);
            }
        }
        Trace.drain();
    }

    /**
     * A scripted run, for the wake decision behind a barrier: at uptime 0 a barrier is posted, and once the Looper
     * sleeps behind it, message 1 is posted: asynchronous for uptime 1, or at the front of the queue (uptime 0: it
     * then sorts before the barrier). Either way the barrier does not hold it back and the Looper must be woken.
     * Then quit. A waker that decides
     * wrongly leaves the Looper asleep until the quit wakes it; the trace shows the decision it logged.
     */
    public static int scriptedWakeBehindBarrier(MessageQueue.Factory factory, boolean async, Path out)
            throws IOException, InterruptedException {
        requireRecorder();
        DeliQueue deli = deliQueue(factory, new ManualClock(0));
        MessageQueue queue = deli;
        Trace.drain(); // what a failed run left behind
        queue.postSyncBarrier(); // before the Looper starts: a barrier wakes nobody
        Thread looper = startScriptedLooper(deli);
        awaitAsleep(deli, true);
        Message m = Message.obtain(new Handler(idleLooper()), 1);
        m.setAsynchronous(async);
        queue.enqueueMessage(m, async ? 1 : 0); // async: due later than the barrier, so only asynchrony exempts it
        return quitAndWrite(deli, looper, List.of(), out);
    }

    /**
     * The Looper interrupted while it sleeps with nothing queued: a park without deadline, which only a permit ends
     * otherwise. The interrupt ends it early (the spec's ParkReturnsEarly), and the Looper sleeps again; then a post
     * wakes it, it delivers, and quit() ends the run. Writes the trace to {@code out}; returns its number of events.
     */
    public static int scriptedInterruptedSleep(MessageQueue.Factory factory, Path out)
            throws IOException, InterruptedException {
        requireRecorder();
        DeliQueue deli = deliQueue(factory, new ManualClock(0));
        Trace.drain(); // what a failed run left behind
        Thread looper = startScriptedLooper(deli);
        awaitParked(looper);
        looper.interrupt(); // parked: parkUntil cleared the status before, so the park itself sees this one
        awaitParked(looper); // parked again, with the status cleared: after the interrupted park's sleep_park
        deli.enqueueMessage(Message.obtain(new Handler(idleLooper()), 1), 0);
        return quitAndWrite(deli, looper, List.of(), out);
    }

    /**
     * A removal whose message the Looper takes for it, scripted (the soak's runs reach it only in some schedules):
     * message 1 is posted due now; removal {@code x1} selects it and pushes its descriptor, and only then does the
     * Looper start. Its sweep meets the descriptor above the message, so the message is a dead head, owned by a
     * pending removal: the Looper tombstones it for the removal ({@code takeDueOrNull_liveHead}, {@code takeFor})
     * and does not deliver it. The removal's collect waits until then ({@link HeldQueue}), finds the message
     * taken for it and returns 1. Then quit. Writes the trace to {@code out}; returns its number of events.
     *
     * <p>The collect waits for the Looper to park, then 1 ms more: the trace model lets a thread's event go before
     * another's logged up to its time box earlier ({@code spec/trace/TraceDeliQueue.tla}), and a collect logged
     * right after the Looper's tombstone could be matched before it, where a spec that ignores the owner accepts it.
     */
    public static int scriptedRemovalTakesItsSweptHead(Path out) throws IOException, InterruptedException {
        requireRecorder();
        Message m = Message.obtain(new Handler(idleLooper()), 1);
        CompletableFuture<Thread> looperStarted = new CompletableFuture<>();
        HeldQueue deli = new HeldQueue(() -> {
            awaitFlag(m, Message.FLAG_REMOVED, true, "the Looper never took the message for the removal");
            awaitParked(looperStarted.join()); // its tombstone's event is logged: it has gone to sleep
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }, () -> { });
        Trace.drain(); // what a failed run left behind
        deli.enqueueMessage(m, 0);
        CompletableFuture<Integer> removal = startRemoval(deli, m);
        awaitScripted(() -> DeliQueue.isRemoval(FieldAccess.lvTop(deli)), "the removal never pushed its descriptor");
        Thread looper = startScriptedLooper(deli);
        looperStarted.complete(looper);
        awaitRemovedOne(removal);
        return quitAndWrite(deli, looper, List.of(X1_MATCHES_M1), out);
    }

    /**
     * A removal that resolves the Looper's reservation, scripted (the soak's runs meet a reservation only in some
     * schedules): message 1 is posted due now; the Looper reserves it for delivery, and its resolution waits
     * ({@link HeldQueue}); removal {@code x1} then selects it (a reserved message is still queued), pushes its
     * descriptor above the Looper's claim floor, meets the reservation in its collect and resolves it: the message
     * is tombstoned for the removal ({@code resolve_reserved}), which returns 1, and the Looper's claim fails. Then
     * quit. Writes the trace to {@code out}; returns its number of events.
     */
    public static int scriptedRemovalResolvesTheLoopersClaim(Path out) throws IOException, InterruptedException {
        requireRecorder();
        Message m = Message.obtain(new Handler(idleLooper()), 1);
        HeldQueue deli = new HeldQueue(() -> { },
                () -> awaitFlag(m, Message.FLAG_RESERVED, false, "the removal never resolved the reservation"));
        Trace.drain(); // what a failed run left behind
        deli.enqueueMessage(m, 0);
        Thread looper = startScriptedLooper(deli);
        awaitFlag(m, Message.FLAG_RESERVED, true, "the Looper never reserved the message");
        awaitRemovedOne(startRemoval(deli, m));
        return quitAndWrite(deli, looper, List.of(X1_MATCHES_M1), out);
    }

    /** The predicate of the scripted removals, declared: removal x1 matches message 1 alone. */
    private static final String X1_MATCHES_M1 = predicate("x1", "remove", w -> w == 1, 2);

    /** Starts removal {@code x1} of {@code m} on a daemon thread of its own: what it returns, or throws. */
    private static CompletableFuture<Integer> startRemoval(DeliQueue q, Message m) {
        CompletableFuture<Integer> removal = new CompletableFuture<>();
        Thread remover = new Thread(() -> {
            try {
                Trace.actAs("x1");
                removal.complete(q.removeMatching(x -> x == m));
            } catch (Throwable e) {
                removal.completeExceptionally(e);
            }
        }, "scripted-remover");
        remover.setDaemon(true);
        remover.start();
        return removal;
    }

    /** Waits for a scripted removal to return; throws what it threw, or unless it returned 1. */
    private static void awaitRemovedOne(CompletableFuture<Integer> removal) throws InterruptedException {
        int removed;
        try {
            removed = removal.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("scripted run: the removal threw", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("scripted run: the removal did not return within 30 s");
        }
        if (removed != 1) {
            throw new IllegalStateException("scripted run: the removal returned " + removed + ", not 1");
        }
    }

    /**
     * The DeliQueue of a scripted removal: its removal's collect first runs {@code beforeCollect}, and the Looper's
     * resolution of a reservation {@code beforeLoopersResolve}, each of which waits for another thread's step.
     */
    private static final class HeldQueue extends DeliQueue {
        private final Runnable beforeCollect;
        private final Runnable beforeLoopersResolve;

        HeldQueue(Runnable beforeCollect, Runnable beforeLoopersResolve) {
            super(true, new ManualClock(0));
            this.beforeCollect = beforeCollect;
            this.beforeLoopersResolve = beforeLoopersResolve;
        }

        @Override
        int collect(Message descriptor) {
            beforeCollect.run();
            return super.collect(descriptor);
        }

        @Override
        boolean resolve(Message m) {
            if (Trace.isLooper()) {
                beforeLoopersResolve.run();
            }
            return super.resolve(m);
        }
    }

    /** Waits until {@code flag} of {@code m} is {@code set}; throws {@code never} after 10 s. */
    private static void awaitFlag(Message m, int flag, boolean set, String never) {
        awaitScripted(() -> ((FieldAccess.lvFlags(m) & flag) != 0) == set, never);
    }

    /** Waits until {@code done}, polling every millisecond; throws {@code never} after 10 s. */
    private static void awaitScripted(java.util.function.BooleanSupplier done, String never) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("scripted run: " + never);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** A scripted run's Looper: takes messages from {@code q} until it quits. */
    private static Thread startScriptedLooper(DeliQueue q) {
        Thread looper = new Thread(() -> {
            while (q.next() != null) {
                // delivered: the trace records it
            }
        }, "scripted-looper");
        looper.setDaemon(true); // a failed run's Looper, parked for good, does not hold the JVM's exit
        looper.start();
        return looper;
    }

    /**
     * Ends a scripted run: lets a woken Looper deliver what was posted, quits, waits for the Looper to finish and
     * writes the trace to {@code out}, after {@code meta} (the predicates of its removals); returns its number of
     * events.
     */
    private static int quitAndWrite(DeliQueue q, Thread looper, List<String> meta, Path out)
            throws IOException, InterruptedException {
        Thread.sleep(20); // a Looper woken delivers the post meanwhile
        q.quit(false);
        looper.join(TimeUnit.SECONDS.toMillis(30));
        if (looper.isAlive()) {
            throw new IllegalStateException("scripted run: the Looper did not finish");
        }
        List<String> events = Trace.drain();
        List<String> lines = new ArrayList<>(meta);
        lines.addAll(events);
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
        return events.size();
    }

    /**
     * Waits until {@code t} parks without deadline (the Looper's sleep when nothing is queued) with its interrupt
     * status clear. The status is read first: parkUntil clears it just before it parks, so a thread interrupted
     * while parked counts only once it has left that park, logged it, and parked again.
     */
    private static void awaitParked(Thread t) {
        awaitScripted(() -> !t.isInterrupted() && t.getState() == Thread.State.WAITING, "the Looper never parked");
    }

    /**
     * {@code n} calls of {@code op} ("has" or "remove"), named {@code prefix + k}, each with a predicate that matches
     * the posts whose {@code what} is a random residue modulo {@code modulusOf(k)}; their predicates are declared in
     * {@code meta}.
     */
    private static List<Runnable> calls(String prefix, String op, int n, java.util.function.IntUnaryOperator modulusOf,
            Random plan, int posts, List<String> meta,
            java.util.function.Consumer<java.util.function.Predicate<Message>> call) {
        List<Runnable> calls = new ArrayList<>();
        for (int k = 1; k <= n; k++) {
            String name = prefix + k;
            int modulus = modulusOf.applyAsInt(k);
            int residue = plan.nextInt(modulus);
            meta.add(predicate(name, op, w -> w % modulus == residue, posts));
            calls.add(() -> {
                Trace.actAs(name);
                call.accept(m -> !m.isBarrier() && m.what % modulus == residue);
            });
        }
        return calls;
    }

    /** The meta line that declares what the predicate of query or removal {@code t} matches among the posts. */
    private static String predicate(String t, String op, java.util.function.IntPredicate matches, int posts) {
        StringBuilder names = new StringBuilder();
        for (int w = 1; w < posts; w++) {
            if (matches.test(w)) {
                names.append(names.length() == 0 ? "" : ",").append("\"m").append(w).append('"');
            }
        }
        return "{\"meta\":\"pred\",\"t\":\"" + t + "\",\"op\":\"" + op + "\",\"matches\":[" + names + "]}";
    }

    private static void requireRecorder() {
        if (!Trace.ON) {
            throw new IllegalStateException("traced runs need the recorder: start the JVM with -Ddeliqueue.trace=true");
        }
    }

    /** The queue {@code factory} makes: a DeliQueue (or a mutant of it), the only queue the spec describes. */
    private static DeliQueue deliQueue(MessageQueue.Factory factory, Clock clock) {
        MessageQueue queue = factory.create(true, clock);
        if (!(queue instanceof DeliQueue deli)) {
            throw new IllegalArgumentException("trace validation checks DeliQueue, not " + queue.getClass());
        }
        return deli;
    }

    /** Waits until the Looper of {@code q} sleeps (behind a barrier if {@code blocked}). */
    private static void awaitAsleep(DeliQueue q, boolean blocked) {
        long want = DeliQueue.ASLEEP | (blocked ? DeliQueue.BLOCKED : 0);
        awaitScripted(() -> (FieldAccess.lvWaitWord(q) & want) == want, "the Looper never slept behind the barrier");
    }

    /** A post of message {@code what}: sync, async or front of queue, due at a small uptime; counts {@code posted} down. */
    private static Runnable post(MessageQueue queue, Handler target, Random plan, int what, CountDownLatch posted) {
        int kind = plan.nextInt(4);
        long when = kind == 3 ? 0 : plan.nextInt(HORIZON + 1);
        return () -> {
            try {
                Message m = Message.obtain(target, what);
                m.setAsynchronous(kind == 2);
                queue.enqueueMessage(m, when);
            } finally {
                posted.countDown(); // a mutant that throws must not hold the quit back
            }
        };
    }

    /** A thread that waits for the start, then runs {@code steps} with short random pauses between them. */
    private static Thread worker(String name, CountDownLatch start, long seed, List<Runnable> steps) {
        return new Thread(() -> {
            Random pause = new Random(seed);
            try {
                start.await();
            } catch (InterruptedException e) {
                return;
            }
            for (Runnable step : steps) {
                int p = pause.nextInt(4);
                if (p == 1) {
                    Thread.yield();
                } else if (p >= 2) {
                    LockSupport.parkNanos(pause.nextInt(200_000));
                }
                step.run();
            }
        }, name);
    }

    /** Waits for {@code latch}; only the Looper is interrupted, but if another thread is, it goes on at once. */
    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Looper idleLooper;

    /** A Looper that never runs, to be the messages' target (its Handler is never called). */
    private static synchronized Looper idleLooper() throws InterruptedException {
        if (idleLooper == null) {
            BlockingQueue<Looper> handOff = new ArrayBlockingQueue<>(1);
            Thread t = new Thread(() -> {
                Looper.prepare(QueueKind.LEGACY, Clock.SYSTEM);
                handOff.add(Looper.myLooper());
            }, "trace-idle-looper");
            t.setDaemon(true);
            t.start();
            idleLooper = handOff.take();
        }
        return idleLooper;
    }
}
