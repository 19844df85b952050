package org.deliqueue;

import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A thread that runs a {@link Looper}, as Android's {@code android.os.HandlerThread}: {@link #start()} it, then
 * send work to {@link #getThreadHandler()} or to a {@link Handler} on {@link #getLooper()}; {@link #quit()} or
 * {@link #quitSafely()} ends it.
 *
 * <p>{@link #getLooper()} blocks until the thread has prepared its Looper (a latch counted down once the Looper
 * exists, or once preparing it failed), and answers null when the thread is not alive. The queue kind and clock are
 * those of {@link Looper#prepare()} unless a constructor names them.
 */
public class HandlerThread extends Thread {
    private static final long WAIT_SLICE_MILLIS = 50;

    private final MessageQueue.Factory queueFactory;
    private final Clock clock;
    /** Counted down once {@link #looper} is set, or preparing it failed. */
    private final CountDownLatch prepared = new CountDownLatch(1);
    /** Written before {@link #prepared} counts down, which publishes it. */
    private Looper looper;
    /**
     * Guards {@link #threadHandler}. Not {@code this}: the JVM takes a thread's own monitor as the thread ends (and
     * {@link #join()} waits on it), so a caller waiting in {@link #getLooper()} while holding it would keep the
     * thread from ever ending.
     */
    private final Object handlerLock = new Object();
    /** Guarded by {@link #handlerLock}. */
    private Handler threadHandler;
    private volatile int threadId = -1;

    public HandlerThread(String name) {
        this(name, 0); // Process.THREAD_PRIORITY_DEFAULT
    }

    /**
     * @param priority an {@code android.os.Process} priority (a nice value, -20 .. 19: lower runs first), as Android
     *     takes ("from android.os.Process and not from java.lang.Thread"), mapped to the nearest Java priority by
     *     {@link #javaPriority}; no value is rejected, as on Android
     */
    public HandlerThread(String name, int priority) {
        this(name, priority, QueueKind.defaultKind(), Clock.SYSTEM);
    }

    /** A HandlerThread whose Looper's queue {@code queueFactory} makes with {@code clock}; priority as above. */
    public HandlerThread(String name, int priority, MessageQueue.Factory queueFactory, Clock clock) {
        super(name);
        setPriority(javaPriority(priority));
        this.queueFactory = Objects.requireNonNull(queueFactory, "queueFactory");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The Java priority for an Android nice value: 0 is {@link Thread#NORM_PRIORITY}, each 4 lower is one higher,
     * clamped to 1 .. 10 (so {@code THREAD_PRIORITY_BACKGROUND}, 10, runs below the default).
     */
    static int javaPriority(int priority) {
        return Math.max(Thread.MIN_PRIORITY, Math.min(Thread.MAX_PRIORITY, Thread.NORM_PRIORITY - priority / 4));
    }

    /** Called on this thread once its Looper is prepared, before it loops; subclasses set up here. */
    protected void onLooperPrepared() {
    }

    @Override
    public void run() {
        threadId = (int) getId(); // wraps only after 2^31 threads have been created
        try {
            try {
                Looper.prepare(queueFactory, clock);
                looper = Looper.myLooper();
            } finally {
                prepared.countDown();
            }
            onLooperPrepared();
            Looper.loop();
        } finally {
            threadId = -1;
        }
    }

    /**
     * This thread's Looper, waiting until it is prepared; null if the thread is not alive (not started, or ended) or
     * failed to prepare it. An interrupt does not end the wait; the interrupt status is kept.
     */
    public Looper getLooper() {
        if (!isAlive()) {
            return null;
        }
        boolean interrupted = false;
        for (;;) {
            try {
                // In slices: a subclass whose run() never prepares must not keep callers waiting once it ends.
                while (!prepared.await(WAIT_SLICE_MILLIS, TimeUnit.MILLISECONDS) && isAlive()) {
                    // still preparing
                }
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return looper;
    }

    /**
     * A Handler on this thread's Looper, the same one on every call; null where {@link #getLooper()} is. Waits as
     * {@link #getLooper()} does, holding no lock meanwhile.
     */
    public Handler getThreadHandler() {
        synchronized (handlerLock) {
            if (threadHandler != null) {
                return threadHandler;
            }
        }
        Looper l = getLooper();
        if (l == null) {
            return null;
        }
        synchronized (handlerLock) {
            if (threadHandler == null) {
                threadHandler = new Handler(l);
            }
            return threadHandler;
        }
    }

    /**
     * Quits the Looper, dropping what is pending ({@link Looper#quit()}).
     *
     * @return false if the thread is not running (not started, or ended)
     */
    public boolean quit() {
        return quitLooper(false);
    }

    /**
     * Quits the Looper once what is due now has run ({@link Looper#quitSafely()}).
     *
     * @return false if the thread is not running (not started, or ended)
     */
    public boolean quitSafely() {
        return quitLooper(true);
    }

    private boolean quitLooper(boolean safely) {
        Looper l = getLooper();
        if (l == null) {
            return false;
        }
        if (safely) {
            l.quitSafely();
        } else {
            l.quit();
        }
        return true;
    }

    /**
     * This thread's {@link Thread#getId() id} while {@link #run()} runs, else -1. An {@code int}, as Android's (there
     * the kernel's thread id, {@code Process.myTid()}), so that code written against Android compiles unchanged.
     */
    public int getThreadId() {
        return threadId;
    }
}
