package org.deliqueue;

/**
 * The time base of a queue: a monotonic, non-negative count of milliseconds, like Android's
 * {@code SystemClock.uptimeMillis()}. A message is due when {@code clock.uptimeMillis() >= msg.getWhen()}.
 *
 * <p>Queues read the clock on the Looper thread, when a message is sent with a delay, when a barrier is posted and
 * when quitSafely is called (it keeps what is due at the call; quit keeps nothing and reads no clock). A producer never reads it to decide whether to
 * wake the Looper: DeliQueue decides by the queue's order, {@code (when, insertSeq)}. A test can inject a {@link ManualClock} and drive time by hand with {@link MessageQueue#poll()}.
 * Blocking waits in {@link MessageQueue#next()} always sleep in real time for {@code deadline - uptimeMillis()}
 * milliseconds.
 */
@FunctionalInterface
public interface Clock {

    /** Milliseconds since an arbitrary origin; never negative, never decreasing. */
    long uptimeMillis();

    /**
     * Real time: {@link System#nanoTime()} in milliseconds since this class was initialised, plus one. It never
     * reads 0, as a device's uptime never does: a send at uptime 0 has {@code when == 0}, which means "front of
     * the queue" (last in, first out), not "now".
     */
    Clock SYSTEM = new Clock() {
        private final long origin = System.nanoTime();

        @Override
        public long uptimeMillis() {
            return (System.nanoTime() - origin) / 1_000_000L + 1;
        }

        @Override
        public String toString() {
            return "Clock.SYSTEM";
        }
    };
}
