package org.deliqueue.jpf;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.deliqueue.JpfSteps;
import org.deliqueue.MessageQueue;
import org.deliqueue.Mutant;
import org.deliqueue.QueueKind;

/**
 * What every harness shares: the queue under test from the command line, the named checks, and the actor threads.
 *
 * <p>Under JPF an actor's uncaught {@link AssertionError} is JPF's "uncaught exception" property violation, and a
 * thread that parks for ever while every other thread has ended is JPF's deadlock: both fail the run. On the plain
 * JVM ({@link #plainJvm}, set by the JUnit test) the same harness records an actor's failure and rethrows it from
 * {@link #join}, which also bounds the wait: a thread still running after {@link #JOIN_LIMIT_MS} is the plain-JVM
 * form of JPF's deadlock and fails the obligation the harness names.
 */
public final class Harness {
    /** Set by the plain-JVM test only; JPF runs {@code main} with it false. Read by the main thread only. */
    static boolean plainJvm;
    static final long JOIN_LIMIT_MS = 10_000;

    private static final List<Throwable> FAILURES = new ArrayList<>();

    private Harness() {
    }

    /**
     * {@code args[0]}: {@code DELI} (the real queue, the default), the name of a {@link Mutant}, or
     * {@code NAME@class}, the mutant's queue class, which JPF runs (see {@link JpfSteps#mutantByClass}).
     */
    static MessageQueue.Factory factory(String[] args) {
        String name = args.length > 0 ? args[0] : "DELI";
        int at = name.indexOf('@');
        if (at >= 0) {
            return JpfSteps.mutantByClass(name.substring(at + 1));
        }
        return "DELI".equals(name) ? QueueKind.DELI : Mutant.valueOf(name);
    }

    /** {@code args[i]} as a positive int (a scenario size), or {@code otherwise}. */
    static int size(String[] args, int i, int otherwise) {
        int n = args.length > i ? Integer.parseInt(args[i]) : otherwise;
        if (n < 1) {
            throw new IllegalArgumentException("size must be positive: " + n);
        }
        return n;
    }

    /**
     * The check of a named obligation: an AssertionError whose message starts with the obligation ID, which the
     * run script looks for in JPF's report. Independent of {@code -ea}.
     */
    static void check(boolean ok, String obligation, String what) {
        if (!ok) {
            throw new AssertionError(obligation + " violated: " + what);
        }
    }

    /** The failure of a named obligation, for checks whose message is built only when they fail. */
    static AssertionError fail(String obligation, String what) {
        return new AssertionError(obligation + " violated: " + what);
    }

    /** Starts an actor. On the plain JVM it is a daemon (a stuck one cannot keep the JVM alive) with jitter. */
    static Thread start(String name, Runnable body) {
        Thread t;
        if (plainJvm) {
            t = new Thread(() -> {
                try {
                    spin(ThreadLocalRandom.current().nextInt(2_000)); // vary how the actors line up
                    body.run();
                } catch (Throwable e) {
                    synchronized (FAILURES) {
                        FAILURES.add(e);
                    }
                }
            }, name);
            t.setDaemon(true);
        } else {
            t = new Thread(body, name);
        }
        t.start();
        return t;
    }

    /**
     * Joins the actors. Plain JVM: fails {@code obligationIfStuck} when one is still running after the limit, and
     * rethrows the first failure of an actor. Under JPF a stuck actor is a deadlock JPF reports itself.
     */
    static void join(String obligationIfStuck, Thread... actors) throws InterruptedException {
        for (Thread t : actors) {
            if (plainJvm) {
                t.join(JOIN_LIMIT_MS);
                check(!t.isAlive(), obligationIfStuck, t.getName() + " still blocked after " + JOIN_LIMIT_MS + " ms");
            } else {
                t.join();
            }
        }
        if (plainJvm) {
            synchronized (FAILURES) {
                if (!FAILURES.isEmpty()) {
                    Throwable first = FAILURES.get(0);
                    FAILURES.clear();
                    if (first instanceof Error) {
                        throw (Error) first;
                    }
                    throw new AssertionError(first);
                }
            }
        }
    }

    /** Plain JVM only: sleeps {@code millis}, so that the other actors run meanwhile (JPF explores every schedule). */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Plain JVM only: a short busy wait of up to {@code iterations} spins. */
    private static void spin(int iterations) {
        long until = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(iterations / 100);
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
