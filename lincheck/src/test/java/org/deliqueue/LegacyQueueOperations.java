package org.deliqueue;

/**
 * The sequential specification: the same operations on the legacy queue, whose one lock makes every operation
 * atomic. Also checked as an implementation, as the lock-detection control of the obstruction-freedom check.
 */
public class LegacyQueueOperations extends QueueOperations {
    public LegacyQueueOperations() {
        super(QueueKind.LEGACY);
    }
}
