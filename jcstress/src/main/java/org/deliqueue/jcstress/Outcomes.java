package org.deliqueue.jcstress;

/** Result codes shared by the scenarios (one int per result slot). */
final class Outcomes {
    /** The actor or arbiter threw: a broken structure (NullPointerException, an invariant check). */
    static final int THREW = -1;

    private Outcomes() {
    }
}
