package org.deliqueue.jpf;

import org.deliqueue.Clock;

/**
 * The clock of the harnesses where time is a choice: {@link #tick} moves it on by 1 ms, from an actor thread of its
 * own. Unlike {@code ManualClock.now} (set before the actors start, and no scheduling point in
 * {@code config/common.properties}), {@link #now} is a racy field under JPF: every read of the uptime is a scheduling
 * point, so JPF explores the tick between any two reads of any operation.
 */
final class TickingClock implements Clock {
    private volatile long now;

    TickingClock(long start) {
        now = start;
    }

    @Override
    public long uptimeMillis() {
        return now;
    }

    /** One millisecond on; only the clock thread writes {@link #now}. */
    void tick() {
        now = now + 1;
    }
}
