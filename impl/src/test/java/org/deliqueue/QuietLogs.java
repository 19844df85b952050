package org.deliqueue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Silences the queues' logger ({@code org.deliqueue}) during a test that provokes what it logs by design:
 * messages dropped after a quit, a throwing idle handler. Other tests keep the log, where it would mean something.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(QuietLogs.Extension.class)
@interface QuietLogs {

    /** Sets the level to OFF before each invocation and restores it after. */
    final class Extension implements BeforeEachCallback, AfterEachCallback {
        private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(QuietLogs.class);

        @Override
        public void beforeEach(ExtensionContext context) {
            Logger logger = Logger.getLogger("org.deliqueue");
            // The store holds the logger strongly: java.util.logging keeps loggers only weakly.
            context.getStore(NAMESPACE).put("logger", logger);
            context.getStore(NAMESPACE).put("level", new Level[] {logger.getLevel()});
            logger.setLevel(Level.OFF);
        }

        @Override
        public void afterEach(ExtensionContext context) {
            Logger logger = context.getStore(NAMESPACE).remove("logger", Logger.class);
            Level[] saved = context.getStore(NAMESPACE).remove("level", Level[].class);
            if (logger != null) {
                logger.setLevel(saved[0]);
            }
        }
    }
}
