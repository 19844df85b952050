package org.deliqueue;

/**
 * The time base of a queue: a monotonic, non-negative count of milliseconds, like Android's
 * {@code SystemClock.uptimeMillis()}. A message is due when {@code clock.uptimeMillis() >= msg.getWhen()}.
 *
 * <p>Queues read the clock only on the Looper thread (and when a barrier is posted), so a test can inject a
 * {@link ManualClock} and drive time by hand with {@link MessageQueue#poll()}. Blocking waits in
 * {@link MessageQueue#next()} always sleep in real time for {@code deadline - uptimeMillis()} milliseconds.
 */
@FunctionalInterface
public interface Clock {

    /** Milliseconds since an arbitrary origin; never negative, never decreasing. */
    long uptimeMillis();

    /** Real time: {@link System#nanoTime()} in milliseconds since this class was initialised. */
    Clock SYSTEM = new Clock() {
        private final long origin = System.nanoTime();

        @Override
        public long uptimeMillis() {
            return (System.nanoTime() - origin) / 1_000_000L;
        }

        @Override
        public String toString() {
            return "Clock.SYSTEM";
        }
    };
}
