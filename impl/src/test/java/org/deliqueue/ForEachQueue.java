package org.deliqueue;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A conformance test: runs once per queue implementation of {@link QueueFactories#queues()}, which it receives
 * as its {@link MessageQueue.Factory} parameter. Tests must not depend on which implementation they get.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "{0}")
@MethodSource("org.deliqueue.QueueFactories#queues")
@interface ForEachQueue {
}
