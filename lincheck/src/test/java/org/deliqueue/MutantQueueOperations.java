package org.deliqueue;

/**
 * The operations on a seeded bug. Lincheck creates test instances itself, so the mutant is chosen through
 * {@link #underTest} before each check; the tests that set it run one at a time.
 */
public class MutantQueueOperations extends QueueOperations {
    static volatile Mutant underTest = Mutant.NON_ATOMIC_PUSH;

    public MutantQueueOperations() {
        super(underTest);
    }
}
