package org.deliqueue.jpf;

import org.deliqueue.ManualClock;
import org.deliqueue.Mutant;

/**
 * Plain JVM, for {@code bin/run-jpf.sh}: prints {@code NAME class} for every seeded {@link Mutant}, the class of the
 * queue it creates, so that JPF can build it without running the enum's lambdas (see
 * {@code JpfSteps.mutantByClass}).
 */
public final class MutantClasses {
    private MutantClasses() {
    }

    public static void main(String[] args) {
        for (Mutant m : Mutant.values()) {
            System.out.println(m.name() + " " + m.create(true, new ManualClock()).getClass().getName());
        }
    }
}
