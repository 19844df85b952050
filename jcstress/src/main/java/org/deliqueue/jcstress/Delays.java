package org.deliqueue.jcstress;

/**
 * Busy waits that hold an actor inside a race window, standing for work a real caller would do there (a long
 * queue, slow user code, a Looper busy elsewhere). A spin, not a sleep: the thread keeps its core.
 */
final class Delays {
    private Delays() {
    }

    /** Spins for about {@code nanos} ns. */
    static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
