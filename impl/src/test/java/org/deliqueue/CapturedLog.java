package org.deliqueue;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records one logger ({@code java.util.logging}, the backend of {@link System.Logger}) receives while open,
 * kept from the console. {@link #close()} restores the logger.
 */
final class CapturedLog implements AutoCloseable {
    private final Logger logger;
    private final boolean usedParentHandlers;
    private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            messages.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    CapturedLog(Class<?> loggerOf) {
        logger = Logger.getLogger(loggerOf.getName()); // held strongly while open: JUL keeps loggers weakly
        usedParentHandlers = logger.getUseParentHandlers();
        logger.setUseParentHandlers(false);
        logger.addHandler(handler);
    }

    /** The next record, as {@code "LEVEL message"}, waiting (bounded) for it. */
    String next() {
        return TestSupport.take(messages, "a log record of " + logger.getName());
    }

    /** Whether a record arrives within {@code millis}. */
    boolean anyWithin(long millis) throws InterruptedException {
        return messages.poll(millis, TimeUnit.MILLISECONDS) != null;
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(usedParentHandlers);
    }
}
