package org.deliqueue.jcstress;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a jcstress test as the negative control of a scenario: the same actors run on the queue of a seeded
 * {@link org.deliqueue.Mutant}, and the violation that the DELI twin forbids is graded ACCEPTABLE_INTERESTING.
 * {@link RunAndReport} fails the run unless such an outcome was actually observed: a checker that stops
 * finding the bug must fail CI.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface MutantTwin {
    /** The {@link org.deliqueue.Mutant} constant whose queue the test runs on. */
    String value();

    /**
     * True where only a weak-memory machine (arm64) can expose the violation: on x86-64 a twin that saw nothing
     * is then reported as skipped (never as passed); elsewhere it must see the violation.
     */
    boolean weakMemoryOnly() default false;

    /**
     * True where only x86-64's store buffer shows the violation: a release store followed by an acquire load, which
     * x86-64 reorders, while HotSpot compiles both on AArch64 to {@code stlr} and {@code ldar}, which AArch64 keeps
     * in order (as it does volatile accesses). Required on x86-64; elsewhere a twin that saw nothing is reported as
     * skipped (never as passed).
     */
    boolean tsoOnly() default false;
}
