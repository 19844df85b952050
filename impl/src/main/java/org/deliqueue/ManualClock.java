package org.deliqueue;

/** A {@link Clock} that moves only when told to: makes ordering tests and model checks deterministic. */
public final class ManualClock implements Clock {
    private volatile long now;

    public ManualClock() {
        this(0);
    }

    public ManualClock(long start) {
        if (start < 0) {
            throw new IllegalArgumentException("uptime cannot be negative: " + start);
        }
        now = start;
    }

    @Override
    public long uptimeMillis() {
        return now;
    }

    /** Moves the clock to {@code time}; a clock never goes backwards. */
    public synchronized void set(long time) {
        if (time < now) {
            throw new IllegalArgumentException("clock cannot go back from " + now + " to " + time);
        }
        now = time;
    }

    /** Moves the clock forward by {@code millis}. */
    public synchronized void advance(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("cannot advance by a negative amount: " + millis);
        }
        now = Math.addExact(now, millis);
    }

    @Override
    public String toString() {
        return "ManualClock[" + now + "]";
    }
}
