package org.deliqueue;

import java.util.Objects;

/**
 * Sends messages and runnables to a {@link Looper}'s queue and handles them on the Looper's thread, as
 * Android's {@code android.os.Handler}. Times are {@link Clock} milliseconds of the queue's clock.
 *
 * <p>Every send returns true if the queue accepted the message and false if the Looper is quitting (the message
 * is then dropped). Delays saturate: {@code sendMessageDelayed(msg, Long.MAX_VALUE)} means "never", where
 * Android's {@code uptime + delay} overflows into the past.
 */
public class Handler {

    /** Handles a message before {@link Handler#handleMessage}; return true to stop there. */
    @FunctionalInterface
    public interface Callback {
        boolean handleMessage(Message msg);
    }

    private final Looper looper;
    private final MessageQueue queue;
    private final Callback callback;
    private final boolean asynchronous;

    /**
     * A handler on the current thread's Looper.
     *
     * @throws IllegalStateException if the current thread has no Looper (Android's message)
     */
    public Handler() {
        this((Callback) null);
    }

    /**
     * A handler on the current thread's Looper, with {@code callback} in front of {@link #handleMessage}.
     *
     * @throws IllegalStateException if the current thread has no Looper (Android's message)
     */
    public Handler(Callback callback) {
        this(currentLooper(), callback, false);
    }

    public Handler(Looper looper) {
        this(looper, null, false);
    }

    public Handler(Looper looper, Callback callback) {
        this(looper, callback, false);
    }

    /**
     * @param asynchronous whether every message this handler sends is asynchronous (passes sync barriers)
     */
    public Handler(Looper looper, Callback callback, boolean asynchronous) {
        this.looper = Objects.requireNonNull(looper, "looper");
        this.queue = looper.getQueue();
        this.callback = callback;
        this.asynchronous = asynchronous;
    }

    private static Looper currentLooper() {
        Looper looper = Looper.myLooper();
        if (looper == null) {
            throw new IllegalStateException("Can't create handler inside thread " + Thread.currentThread()
                    + " that has not called Looper.prepare()");
        }
        return looper;
    }

    /** A handler whose messages all pass sync barriers. */
    public static Handler createAsync(Looper looper) {
        return new Handler(looper, null, true);
    }

    public static Handler createAsync(Looper looper, Callback callback) {
        return new Handler(looper, callback, true);
    }

    /** Subclasses handle messages here. */
    public void handleMessage(Message msg) {
    }

    /** Runs the message's callback, else this handler's {@link Callback}, else {@link #handleMessage}. */
    public void dispatchMessage(Message msg) {
        if (msg.callback != null) {
            msg.callback.run();
        } else if (callback == null || !callback.handleMessage(msg)) {
            handleMessage(msg);
        }
    }

    public final Looper getLooper() {
        return looper;
    }

    // ---- obtaining ----

    public final Message obtainMessage() {
        return Message.obtain(this);
    }

    public final Message obtainMessage(int what) {
        return Message.obtain(this, what);
    }

    public final Message obtainMessage(int what, Object obj) {
        return Message.obtain(this, what, obj);
    }

    public final Message obtainMessage(int what, int arg1, int arg2) {
        return Message.obtain(this, what, arg1, arg2);
    }

    public final Message obtainMessage(int what, int arg1, int arg2, Object obj) {
        return Message.obtain(this, what, arg1, arg2, obj);
    }

    // ---- posting runnables ----

    public final boolean post(Runnable r) {
        return sendMessageDelayed(runnableMessage(r, null), 0);
    }

    public final boolean postAtTime(Runnable r, long uptimeMillis) {
        return sendMessageAtTime(runnableMessage(r, null), uptimeMillis);
    }

    /** Posts {@code r} with {@code token} as its {@code obj}, for {@link #removeCallbacksAndMessages}. */
    public final boolean postAtTime(Runnable r, Object token, long uptimeMillis) {
        return sendMessageAtTime(runnableMessage(r, token), uptimeMillis);
    }

    public final boolean postDelayed(Runnable r, long delayMillis) {
        return sendMessageDelayed(runnableMessage(r, null), delayMillis);
    }

    public final boolean postDelayed(Runnable r, Object token, long delayMillis) {
        return sendMessageDelayed(runnableMessage(r, token), delayMillis);
    }

    public final boolean postAtFrontOfQueue(Runnable r) {
        return sendMessageAtFrontOfQueue(runnableMessage(r, null));
    }

    private static Message runnableMessage(Runnable r, Object token) {
        Message m = Message.obtain();
        m.callback = Objects.requireNonNull(r, "runnable");
        m.obj = token;
        return m;
    }

    // ---- sending messages ----

    public final boolean sendMessage(Message msg) {
        return sendMessageDelayed(msg, 0);
    }

    public final boolean sendEmptyMessage(int what) {
        return sendEmptyMessageDelayed(what, 0);
    }

    public final boolean sendEmptyMessageDelayed(int what, long delayMillis) {
        Message m = Message.obtain();
        m.what = what;
        return sendMessageDelayed(m, delayMillis);
    }

    public final boolean sendEmptyMessageAtTime(int what, long uptimeMillis) {
        Message m = Message.obtain();
        m.what = what;
        return sendMessageAtTime(m, uptimeMillis);
    }

    /** Sends at {@code now + delayMillis}; a negative delay counts as 0, an overflowing one as "never". */
    public final boolean sendMessageDelayed(Message msg, long delayMillis) {
        long now = queue.clock().uptimeMillis();
        long delay = Math.max(0, delayMillis);
        long when = now > Long.MAX_VALUE - delay ? Long.MAX_VALUE : now + delay; // no wrap for any clock reading
        return sendMessageAtTime(msg, when);
    }

    /**
     * Sends {@code msg} to be handled at {@code uptimeMillis} (0 means front of the queue).
     *
     * @throws IllegalStateException if {@code msg} is in use
     */
    public boolean sendMessageAtTime(Message msg, long uptimeMillis) {
        return queue.enqueueFromHandler(this, msg, uptimeMillis, asynchronous);
    }

    /**
     * Sends {@code msg} ahead of every message not also sent at the front (those come out LIFO). As in Android, it
     * goes to the queue directly, not through an override of {@link #sendMessageAtTime}.
     *
     * @throws IllegalStateException if {@code msg} is in use
     */
    public final boolean sendMessageAtFrontOfQueue(Message msg) {
        return queue.enqueueFromHandler(this, msg, 0, asynchronous);
    }

    // ---- removal and queries ----

    public final void removeMessages(int what) {
        queue.removeMessages(this, what, null);
    }

    public final void removeMessages(int what, Object object) {
        queue.removeMessages(this, what, object);
    }

    public final void removeEqualMessages(int what, Object object) {
        queue.removeEqualMessages(this, what, object);
    }

    public final void removeCallbacks(Runnable r) {
        queue.removeCallbacks(this, r, null);
    }

    public final void removeCallbacks(Runnable r, Object token) {
        queue.removeCallbacks(this, r, token);
    }

    /** Removes every pending message and post whose {@code obj} is {@code token}; all of them when null. */
    public final void removeCallbacksAndMessages(Object token) {
        queue.removeCallbacksAndMessages(this, token);
    }

    public final void removeCallbacksAndEqualMessages(Object token) {
        queue.removeCallbacksAndEqualMessages(this, token);
    }

    public final boolean hasMessages(int what) {
        return queue.hasMessages(this, what, null);
    }

    public final boolean hasMessages(int what, Object object) {
        return queue.hasMessages(this, what, object);
    }

    public final boolean hasEqualMessages(int what, Object object) {
        return queue.hasEqualMessages(this, what, object);
    }

    public final boolean hasCallbacks(Runnable r) {
        return queue.hasCallbacks(this, r, null);
    }

    /** Whether this handler has any pending message or post. */
    public final boolean hasMessagesOrCallbacks() {
        return queue.hasMessages(this);
    }

    // ---- diagnostics ----

    /** Prints this handler and the uptime, then its Looper and every pending message, indented by two spaces. */
    public final void dump(Printer pw, String prefix) {
        pw.println(prefix + this + " @ " + queue.clock().uptimeMillis());
        looper.dump(pw, prefix + "  ");
    }

    /** As {@link #dump}, listing only this handler's pending messages. */
    public final void dumpMine(Printer pw, String prefix) {
        pw.println(prefix + this + " @ " + queue.clock().uptimeMillis());
        looper.dump(pw, prefix + "  ", this);
    }

    @Override
    public String toString() {
        return "Handler (" + getClass().getName() + ") {" + Integer.toHexString(System.identityHashCode(this)) + "}";
    }
}
