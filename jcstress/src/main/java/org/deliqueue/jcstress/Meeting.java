package org.deliqueue.jcstress;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded meeting of a test's two actors just before their racing steps, for races whose window is a few
 * instructions. Without it the actors drift apart: jcstress runs each actor over many states in a row, and an actor
 * whose step costs more (one that builds an exception, or walks further) falls behind and stays behind, so the two
 * steps rarely overlap. Each actor arrives whatever the queue does (before it touches it), and the wait is bounded:
 * a descheduled partner costs one sample, never a hang. One meeting per state: jcstress makes a state per sample.
 */
final class Meeting {
    /** The longest wait of an actor for the other (a few microseconds). */
    static final int SPINS = 2_000;

    /** How many actors have arrived. */
    private final AtomicInteger arrived = new AtomicInteger();

    /** Arrives, then waits for the other actor, at most {@value #SPINS} spins. */
    void arrive() {
        arrived.incrementAndGet();
        for (int i = 0; i < SPINS && arrived.get() < 2; i++) {
            Thread.onSpinWait();
        }
    }
}
