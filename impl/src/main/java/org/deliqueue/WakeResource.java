package org.deliqueue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The stand-in for the native allocation behind an Android Looper (its eventfd and epoll instance): the thing
 * other threads use to wake the Looper, freed when the Looper quits. Using it after {@link #free()} would be a
 * use-after-free in native code; here it is detected. Both directions are checked, so that whichever side comes
 * second in a race sees the other: {@link #signal()} fails if the resource is already freed, and
 * {@link #free()} fails if a signal is in progress.
 *
 * <p>DeliQueue makes both impossible with its tagged refcount ({@link DeliQueue}, step 5); the
 * {@code TEARDOWN_WITHOUT_WAIT} mutant shows the checks firing.
 */
final class WakeResource {
    private final AtomicInteger signalsInProgress = new AtomicInteger();
    /** Set by {@link #free()}; tests read it to see whether the Looper tore down. */
    volatile boolean freed;
    /** The Looper thread, set when it first waits for messages. */
    private volatile Thread looper;

    void bind(Thread thread) {
        if (looper != thread) {
            looper = thread;
        }
    }

    /** Wakes the Looper: a sticky permit, consumed by its next park. */
    void signal() {
        signalsInProgress.incrementAndGet();
        try {
            // obligation: NoUseAfterTeardown
            if (freed) {
                throw new IllegalStateException("use after free: the Looper's wake resource was signalled after teardown");
            }
            Thread t = looper;
            if (t != null) {
                LockSupport.unpark(t);
            }
        } finally {
            signalsInProgress.decrementAndGet();
        }
    }

    void free() {
        freed = true;
        if (signalsInProgress.get() != 0) {
            throw new IllegalStateException("use after free: the Looper's wake resource was freed while being signalled");
        }
        looper = null;
    }
}
