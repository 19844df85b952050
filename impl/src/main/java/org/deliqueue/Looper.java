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
 *
 * <h2>Watching dispatch</h2>
 * Each may be set from any thread while the Looper runs, and takes effect from the next message:
 * <ul>
 *   <li>{@link #setMessageLogging(Printer)}: Android's two lines per message,
 *       {@code ">>>>> Dispatching to <handler> <callback>: <what>"} before and
 *       {@code "<<<<< Finished to <handler> <callback>"} after (not printed when the handler throws);
 *   <li>{@link #setObserver(Observer)}: start, end, or exception of every dispatch;
 *   <li>{@link #setSlowLogThresholdMs(long, long)}: a warning through {@link System.Logger} when a dispatch takes
 *       longer than its threshold, or a message is dispatched later than its {@code when} by more than its
 *       threshold (measured on the queue's {@link Clock}).
 * </ul>
 *
 * <h2>When a handler throws</h2>
 * {@link #loop()} gives the message back to its queue (which retires or pools it), tells the observer, and lets the
 * exception out, as Android does. The queue is intact: calling {@code loop()} again carries on with the next message.
 */
public final class Looper {
    private static final System.Logger LOG = System.getLogger(Looper.class.getName());
    private static final ThreadLocal<Looper> CURRENT = new ThreadLocal<>();
    static final Object MAIN_LOCK = new Object();
    /** Guarded by MAIN_LOCK; a test that prepared one clears it for the next. */
    static Looper main;

    /** Sees the dispatch of every message of one Looper, on the Looper's thread. */
    public interface Observer {
        /** A dispatch starts; the result is handed back to the other two calls for this message. */
        Object messageDispatchStarting();

        /** The handler returned normally. */
        void messageDispatched(Object token, Message msg);

        /** The handler threw {@code exception}, which {@link #loop()} lets out after this call. */
        void dispatchingThrewException(Object token, Message msg, Throwable exception);
    }

    private final MessageQueue queue;
    private final Thread thread;
    private volatile Printer logging;
    private volatile Observer observer;
    private volatile long slowDispatchThresholdMs;
    private volatile long slowDeliveryThresholdMs;
    /** Looper thread only: a slow delivery was logged and none has been on time since (logs once per backlog). */
    private boolean slowDeliveryDetected;

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
     * Makes the current thread's Looper the process's main Looper, which may not quit, with the default queue kind
     * and the system clock.
     *
     * @throws IllegalStateException if a main Looper exists or the thread already has a Looper
     */
    public static void prepareMainLooper() {
        prepareMainLooper(QueueKind.defaultKind(), Clock.SYSTEM);
    }

    /**
     * As {@link #prepareMainLooper()}, with a queue {@code factory} makes with {@code clock}.
     *
     * @throws IllegalStateException if a main Looper exists or the thread already has a Looper
     */
    public static void prepareMainLooper(MessageQueue.Factory factory, Clock clock) {
        Objects.requireNonNull(clock, "clock");
        synchronized (MAIN_LOCK) {
            if (main != null) {
                throw new IllegalStateException("The main Looper has already been prepared.");
            }
            main = install(factory.create(false, clock));
        }
    }

    private static Looper install(MessageQueue queue) {
        // A factory that made no queue must not leave the thread with a Looper that cannot loop and cannot be replaced.
        Objects.requireNonNull(queue, "the queue factory returned null");
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
     * Dispatches messages of the current thread's queue until it quits; a handler's exception ends it (see the class
     * comment).
     *
     * @throws IllegalStateException if the thread has no Looper
     */
    public static void loop() {
        Looper me = requireLooper();
        for (Message msg; (msg = me.queue.next()) != null; ) {
            try {
                me.dispatch(msg);
            } finally {
                me.queue.recycleDispatched(msg); // also when the handler throws: the queue gets its message back
            }
        }
    }

    /** Dispatches {@code msg} to its target with the logging, observer and slow-message checks of the class comment. */
    private void dispatch(Message msg) {
        Handler target = msg.target;
        Runnable callback = msg.callback;
        Printer printer = logging;
        if (printer != null) {
            printer.println(">>>>> Dispatching to " + target + " " + callback + ": " + msg.what);
        }
        long dispatchThreshold = slowDispatchThresholdMs;
        long deliveryThreshold = slowDeliveryThresholdMs;
        long start = dispatchThreshold > 0 || deliveryThreshold > 0 ? queue.clock().uptimeMillis() : 0;
        if (deliveryThreshold > 0 && msg.when > 0) {
            checkDelivery(msg, start - msg.when, deliveryThreshold);
        }
        Observer obs = observer;
        Object token = obs == null ? null : obs.messageDispatchStarting();
        try {
            target.dispatchMessage(msg);
            if (obs != null) {
                obs.messageDispatched(token, msg); // inside the try, as on Android: its exception is reported too
            }
        } catch (Throwable t) {
            if (obs != null) {
                obs.dispatchingThrewException(token, msg, t);
            }
            throw t;
        }
        if (dispatchThreshold > 0) {
            long took = queue.clock().uptimeMillis() - start;
            if (took > dispatchThreshold) {
                logSlow("dispatch", took, target, callback, msg.what);
            }
        }
        if (printer != null) {
            printer.println("<<<<< Finished to " + target + " " + callback);
        }
    }

    /** Logs a delivery {@code late} ms after its time, once per backlog: again only after one was on time. */
    private void checkDelivery(Message msg, long late, long threshold) {
        if (late > threshold) {
            if (!slowDeliveryDetected) {
                slowDeliveryDetected = true;
                logSlow("delivery", late, msg.target, msg.callback, msg.what);
            }
        } else if (slowDeliveryDetected) {
            slowDeliveryDetected = false;
            LOG.log(System.Logger.Level.WARNING, "Drained: deliveries on " + thread.getName() + " are on time again");
        }
    }

    private void logSlow(String what, long millis, Handler target, Runnable callback, int msgWhat) {
        LOG.log(System.Logger.Level.WARNING, "Slow " + what + " took " + millis + "ms " + thread.getName()
                + " h=" + target.getClass().getName() + " c=" + callback + " m=" + msgWhat);
    }

    private static Looper requireLooper() {
        Looper me = CURRENT.get();
        if (me == null) {
            throw new IllegalStateException("No Looper; Looper.prepare() wasn't called on this thread.");
        }
        return me;
    }

    /** Prints two lines per dispatched message to {@code printer} (see the class comment); null stops it. */
    public void setMessageLogging(Printer printer) {
        logging = printer;
    }

    /** Tells {@code observer} of every dispatch (see the class comment); null stops it. */
    public void setObserver(Observer observer) {
        this.observer = observer;
    }

    /**
     * Logs a warning for every dispatch that takes longer than {@code slowDispatchThresholdMs}, and for a message
     * dispatched more than {@code slowDeliveryThresholdMs} after its {@code when} (once, until a message is on time
     * again; front-of-queue messages are not measured). 0 or less turns a check off.
     */
    public void setSlowLogThresholdMs(long slowDispatchThresholdMs, long slowDeliveryThresholdMs) {
        this.slowDispatchThresholdMs = slowDispatchThresholdMs;
        this.slowDeliveryThresholdMs = slowDeliveryThresholdMs;
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

    /** Prints this Looper, then its queue indented by two spaces ({@link MessageQueue#dump(Printer, String)}). */
    public void dump(Printer pw, String prefix) {
        dump(pw, prefix, null);
    }

    /** As {@link #dump(Printer, String)}, listing only the messages of {@code handler} (all when null). */
    public void dump(Printer pw, String prefix, Handler handler) {
        pw.println(prefix + this);
        queue.dump(pw, prefix + "  ", handler);
    }

    @Override
    public String toString() {
        return "Looper (" + thread.getName() + ", tid " + thread.getId() + ") {" + queue.getClass().getSimpleName() + "}";
    }
}
