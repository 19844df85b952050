package org.deliqueue;

/**
 * The two queue implementations. {@link Looper#prepare()} uses {@link #defaultKind()}, which the system
 * property {@value #PROPERTY} selects ({@code DELI} unless set), so Handler code never names a queue.
 */
public enum QueueKind implements MessageQueue.Factory {
    /** {@link LegacyMessageQueue}: one monitor lock, the pre-Android-17 design. */
    LEGACY {
        @Override
        public MessageQueue create(boolean quitAllowed, Clock clock) {
            return new LegacyMessageQueue(quitAllowed, clock);
        }
    },
    /** {@link DeliQueue}: the lock-free design of Android 17. */
    DELI {
        @Override
        public MessageQueue create(boolean quitAllowed, Clock clock) {
            return new DeliQueue(quitAllowed, clock);
        }
    };

    /** System property naming the default kind: {@code LEGACY} or {@code DELI}. */
    public static final String PROPERTY = "org.deliqueue.queue";

    /** The kind named by {@value #PROPERTY}, or {@link #DELI}. */
    public static QueueKind defaultKind() {
        String name = System.getProperty(PROPERTY, DELI.name());
        try {
            return valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + "=" + name + " is not one of LEGACY, DELI", e);
        }
    }
}
