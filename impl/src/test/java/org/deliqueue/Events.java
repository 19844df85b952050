package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/** What a Looper thread did, in order, for a test thread to wait on (each wait bounded). */
final class Events {
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    /** Records {@code event}; any thread. */
    void add(String event) {
        events.add(event);
    }

    /** A runnable that records {@code event}. */
    Runnable recorder(String event) {
        return () -> add(event);
    }

    /** Waits for the next events and checks they are {@code expected}, in order. */
    void expect(String... expected) {
        for (String e : expected) {
            assertEquals(e, TestSupport.take(events, "event '" + e + "'"), "next event");
        }
    }

    /** Checks that nothing more was recorded: for a test whose recording threads have ended. */
    void expectNoMore() {
        assertEquals(null, events.poll(), "an event after the last expected one");
    }
}
