package org.deliqueue;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The queue implementations the conformance suite runs against, as named {@link MessageQueue.Factory factories}
 * (the argument source of {@link ForEachQueue}).
 *
 * <p>By default: every {@link QueueKind}. The system property {@value #PROPERTY} replaces them with a
 * comma-separated list, each item either a {@link QueueKind} name or {@code Class#NAME}: a public static field or
 * enum constant ({@code Class#*}: all constants of an enum) that is a {@link MessageQueue.Factory} or has a
 * {@code create(boolean, Clock)} method. A class name without a package is looked up in {@code org.deliqueue}.
 * That is how a seeded bug is run through the same suite, for instance
 * {@code mvn -pl impl test -Ddeliqueue.queues=Mutant#LOST_WAKEUP}.
 */
final class QueueFactories {
    static final String PROPERTY = "deliqueue.queues";

    private QueueFactories() {
    }

    /** The {@code @MethodSource} of every conformance test. */
    static Stream<Arguments> queues() {
        return factories().stream().map(Arguments::of);
    }

    static List<Named<MessageQueue.Factory>> factories() {
        String spec = System.getProperty(PROPERTY, "").trim();
        List<Named<MessageQueue.Factory>> result = new ArrayList<>();
        if (spec.isEmpty()) {
            for (QueueKind kind : QueueKind.values()) {
                result.add(named(kind.name(), kind));
            }
            return result;
        }
        for (String item : spec.split(",")) {
            if (!item.isBlank()) {
                result.addAll(resolve(item.trim()));
            }
        }
        return result;
    }

    /** A factory with the name the test reports show. */
    static Named<MessageQueue.Factory> named(String displayName, MessageQueue.Factory factory) {
        return Named.of(displayName, factory);
    }

    /** One item of {@value #PROPERTY}: a {@link QueueKind} name or {@code Class#NAME} ({@code Class#*}: all of them). */
    static List<Named<MessageQueue.Factory>> resolve(String item) {
        int hash = item.indexOf('#');
        if (hash < 0) {
            QueueKind kind = QueueKind.valueOf(item);
            return List.of(named(kind.name(), kind));
        }
        String className = item.substring(0, hash);
        String member = item.substring(hash + 1);
        try {
            Class<?> owner = Class.forName(className.contains(".") ? className : "org.deliqueue." + className);
            if (member.equals("*")) {
                if (!owner.isEnum()) {
                    throw new IllegalArgumentException(PROPERTY + ": " + className + " is not an enum");
                }
                return Arrays.stream(owner.getEnumConstants())
                        .map(c -> named(owner.getSimpleName() + "." + ((Enum<?>) c).name(), asFactory(c)))
                        .toList();
            }
            Field field = owner.getField(member);
            if (!Modifier.isStatic(field.getModifiers())) {
                throw new IllegalArgumentException(PROPERTY + ": " + item + " is not static");
            }
            return List.of(named(owner.getSimpleName() + "." + member, asFactory(field.get(null))));
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(PROPERTY + ": cannot resolve " + item, e);
        }
    }

    private static MessageQueue.Factory asFactory(Object value) {
        if (value instanceof MessageQueue.Factory factory) {
            return factory;
        }
        try {
            Method create = value.getClass().getMethod("create", boolean.class, Clock.class);
            create.setAccessible(true);
            return (quitAllowed, clock) -> {
                try {
                    return (MessageQueue) create.invoke(value, quitAllowed, clock);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot create a queue with " + value, e);
                }
            };
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(PROPERTY + ": " + value + " has no create(boolean, Clock)", e);
        }
    }
}
