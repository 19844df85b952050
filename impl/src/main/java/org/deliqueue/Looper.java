package org.deliqueue;

import java.util.Objects;

/**
 * Runs a message loop for a thread: {@link #prepare()} gives the thread a Looper and its queue,
 * {@link #loop()} dispatches messages until the queue quits, as in Android.
 *
 * <pre>{@code
 * Looper.prepare();
 * Handler handler = new Handler(Looper.myLooper()) { ... };
 * Looper.loop();
 * }</pre>
 *
 * The queue implementation is chosen once per Looper, by {@link QueueKind#defaultKind()} or by
 * {@link #prepare(MessageQueue.Factory, Clock)}; Handler code is the same for every implementation.
 */
public final class Looper {
    private static final ThreadLocal<Looper> CURRENT = new ThreadLocal<>();
    private static final Object MAIN_LOCK = new Object();
    private static Looper main;

    private final MessageQueue queue;
    private final Thread thread;

    private Looper(MessageQueue queue) {
        this.queue = queue;
        this.thread = Thread.currentThread();
    }

    /**
     * Gives the current thread a quittable Looper with the default queue kind and the system clock.
     *
     * @throws IllegalStateException if the thread already has a Looper
     */
    public static void prepare() {
        prepare(QueueKind.defaultKind(), Clock.SYSTEM);
    }

    /**
     * Gives the current thread a quittable Looper whose queue {@code factory} makes with {@code clock}.
     *
     * @throws IllegalStateException if the thread already has a Looper
     */
    public static void prepare(MessageQueue.Factory factory, Clock clock) {
        install(factory.create(true, Objects.requireNonNull(clock, "clock")));
    }

    /**
     * Makes the current thread's Looper the process's main Looper, which may not quit.
     *
     * @throws IllegalStateException if a main Looper exists or the thread already has a Looper
     */
    public static void prepareMainLooper() {
        synchronized (MAIN_LOCK) {
            if (main != null) {
                throw new IllegalStateException("The main Looper has already been prepared.");
            }
            main = install(QueueKind.defaultKind().create(false, Clock.SYSTEM));
        }
    }

    private static Looper install(MessageQueue queue) {
        if (CURRENT.get() != null) {
            throw new IllegalStateException("Only one Looper may be created per thread");
        }
        Looper looper = new Looper(queue);
        CURRENT.set(looper);
        return looper;
    }

    /** The main Looper, or null if none was prepared. */
    public static Looper getMainLooper() {
        synchronized (MAIN_LOCK) {
            return main;
        }
    }

    /** The current thread's Looper, or null. */
    public static Looper myLooper() {
        return CURRENT.get();
    }

    /**
     * The current thread's queue.
     *
     * @throws IllegalStateException if the thread has no Looper
     */
    public static MessageQueue myQueue() {
        return requireLooper().queue;
    }

    /**
     * Dispatches messages of the current thread's queue until it quits.
     *
     * @throws IllegalStateException if the thread has no Looper
     */
    public static void loop() {
        MessageQueue queue = requireLooper().queue;
        for (Message msg; (msg = queue.next()) != null; ) {
            try {
                msg.target.dispatchMessage(msg);
            } finally {
                queue.recycleDispatched(msg); // also when the handler throws: the queue gets its message back
            }
        }
    }

    private static Looper requireLooper() {
        Looper me = CURRENT.get();
        if (me == null) {
            throw new IllegalStateException("No Looper; Looper.prepare() wasn't called on this thread.");
        }
        return me;
    }

    /**
     * Quits without delivering anything more; later sends fail.
     *
     * @throws IllegalStateException for the main Looper
     */
    public void quit() {
        queue.quit(false);
    }

    /**
     * Quits after delivering every message due now; later sends fail.
     *
     * @throws IllegalStateException for the main Looper
     */
    public void quitSafely() {
        queue.quit(true);
    }

    public MessageQueue getQueue() {
        return queue;
    }

    public Thread getThread() {
        return thread;
    }

    public boolean isCurrentThread() {
        return Thread.currentThread() == thread;
    }

    @Override
    public String toString() {
        return "Looper (" + thread.getName() + ", tid " + thread.getId() + ") {" + queue.getClass().getSimpleName() + "}";
    }
}
