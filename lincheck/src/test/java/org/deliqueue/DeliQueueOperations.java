package org.deliqueue;

/** The operations on the queue under test. */
public class DeliQueueOperations extends QueueOperations {
    public DeliQueueOperations() {
        super(QueueKind.DELI);
    }
}
