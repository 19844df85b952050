package org.deliqueue.jcstress;

import org.deliqueue.Clock;

/**
 * A clock that stands still at {@link #NOW} for the Looper actor (other threads read {@link #elsewhere}, which a
 * set-up may move to post barriers at other times) and notes whether the Looper read it. In {@code DeliQueue.sleep} the
 * Looper reads the clock only in {@code parkUntil}, that is, only when its re-check decided to park. That read then
 * stands for the park: it waits until the other actor has made its wake decision ({@link #decided}), as a parked
 * Looper would (it cannot store AWAKE before), and returns {@link #NOW}, so that a sleep until {@link #NOW} ends at
 * once. {@link #parked} is the Looper's park decision, at no cost in time: the other actor never waits for the
 * Looper, so the wait always ends.
 */
final class ParkClock implements Clock {
    static final long NOW = 100;

    /** The Looper actor's thread; reads by other threads are not counted. */
    Thread looper;
    /** What other threads read: {@link #NOW} unless a set-up moves it, to post a barrier at another time. */
    long elsewhere = NOW;
    /** 1 once the Looper read the clock. Written and read by the Looper actor only. */
    int parked;
    /** Set by the other actor once it decided whether to wake the Looper. */
    volatile boolean decided;

    @Override
    public long uptimeMillis() {
        if (Thread.currentThread() == looper) {
            parked = 1;
            while (!decided) {
                Thread.onSpinWait();
            }
            return NOW;
        }
        return elsewhere;
    }
}
