package org.deliqueue;

import java.lang.reflect.Method;
import java.util.Arrays;
import kotlin.Unit;
import kotlin.jvm.functions.Function1;
import kotlin.reflect.KFunction;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.jetbrains.lincheck.datastructures.DSLScenarioBuilder;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * Scenarios written by hand, added to every model-checking run of their group: random scenarios rarely line up
 * the few actors these races need, and the model checker then explores every interleaving of them. Each names
 * the obligation (or the defect) it aims at; arguments are those of the group's operations.
 */
final class CustomScenarios {
    /** Indices into {@link QueueOperations#WHENS}: {@code when} 0 (due at once), 1, and 3 (not due soon). */
    private static final int FRONT = 0;
    private static final int AT_1 = 1;
    private static final int LATER = 2;

    private CustomScenarios() {
    }

    static ModelCheckingOptions removal(ModelCheckingOptions options) {
        Class<?> ops = RemovalOperations.class;
        return options
                // ExactlyOnce: a remover and the Looper race for the same due message (token 0.0).
                .addCustomScenario(scenario(ops,
                        init -> init.add("post", 0, FRONT, 0),
                        remover -> remover.add("removeOne", 0, 0),
                        looper -> looper.add("deliver"),
                        after -> { }))
                // TraversalComplete: a query stands on b while the Looper delivers and unlinks b; a (what 0,
                // not due) lies below b, c sits on top so that b is not the top.
                .addCustomScenario(scenario(ops,
                        init -> init.add("post", 0, LATER, 0).add("post", 0, FRONT, 1).add("post", 0, LATER, 1),
                        query -> query.add("has", 0),
                        looper -> looper.add("deliver"),
                        after -> { }))
                // TraversalComplete, repeated pass: a match (0.0) delivered behind the query while another
                // (1.0) is pushed in front of it; one of them is pending at every instant.
                .addCustomScenario(scenario(ops,
                        init -> init.add("post", 0, FRONT, 0).add("post", 0, LATER, 1),
                        query -> query.add("has", 0),
                        other -> other.add("post", 1, LATER, 0).add("deliver"),
                        after -> { }))
                // Atomic bulk removal against delivery (BulkRemovalOffTheLooperTest): x2, pushed last, is the
                // head; removing message by message takes x2 while the Looper delivers x1.
                .addCustomScenario(bulkRemovalAgainstDelivery())
                // A removal's predicate reads a payload another removal is clearing (what 0, target still seen):
                // the equals that then runs (and throws) must not count: the message had left (make lincheck found
                // removeEqualThrowing(0) throwing though no message of what 0 was ever queued).
                .addCustomScenario(scenario(ops,
                        init -> init.add("post", 1, AT_1, 1),
                        thrower -> thrower.add("removeEqualThrowing", 0),
                        other -> other.add("removeAll"),
                        after -> after.add("has", 1)))
                // UserCodeOnCaller: a removal whose key answers the opposite when asked again, against the Looper
                // delivering what it may cover; asked once per message, it takes 0.0 and 0.2 and leaves 0.1.
                .addCustomScenario(scenario(ops,
                        init -> init.add("post", 0, FRONT, 0).add("post", 0, LATER, 0).add("post", 0, FRONT, 0),
                        remover -> remover.add("removeEqualFlipping", 0, 0),
                        looper -> looper.add("deliver"),
                        after -> after.add("has", 0)))
                // Atomic bulk removal against a removal and a later push (issue 18's trace at depth): once
                // removeOne found 0.0 gone, a message pushed afterwards must survive the bulk removal.
                .addCustomScenario(scenario(ops,
                        init -> init.add("post", 0, FRONT, 0),
                        bulk -> bulk.add("removeAll"),
                        other -> other.add("removeOne", 0, 0).add("post", 1, FRONT, 0),
                        after -> after.add("deliver")));
    }

    /** x1 then x2, both due (front of queue, so x2 comes out first); removeAll off the Looper races deliver. */
    static Function1<DSLScenarioBuilder, Unit> bulkRemovalAgainstDelivery() {
        return scenario(RemovalOperations.class,
                init -> init.add("post", 0, FRONT, 0).add("post", 0, FRONT, 1),
                remover -> remover.add("removeAll"),
                looper -> looper.add("deliver"),
                after -> after.add("deliver"));
    }

    static ModelCheckingOptions delivery(ModelCheckingOptions options) {
        Class<?> ops = DeliveryOperations.class;
        return options
                // ExactlyOnce, NoLostMessage: two pushes race; both are delivered, front-of-queue LIFO.
                .addCustomScenario(scenario(ops,
                        init -> { },
                        first -> first.add("post", 0, FRONT, 0),
                        second -> second.add("post", 1, FRONT, 0),
                        after -> after.add("deliver").add("deliver").add("deliver")))
                // quitSafely's time (issue 12, defect 2): a post accepted before the quit, due by the clock of
                // its post, must not be dropped.
                .addCustomScenario(scenario(ops,
                        init -> { },
                        quitter -> quitter.add("quitSafely"),
                        poster -> poster.add("advance", 1).add("post", 1, AT_1, 0),
                        after -> after.add("deliver")))
                // Uptime 0 (issue 12, defect 1, the part poll sees): a front-of-queue post at uptime 0 sorts
                // before a barrier posted at uptime 0 and is delivered past it.
                .addCustomScenario(scenario(ops,
                        init -> init.add("postBarrier"),
                        poster -> poster.add("post", 0, FRONT, 0),
                        looper -> looper.add("deliver"),
                        after -> after.add("deliver")));
    }

    /** The actors of one thread, by operation name. */
    static final class Actors {
        private final Class<?> operations;
        private final DSLThreadScenario thread;

        private Actors(Class<?> operations, DSLThreadScenario thread) {
            this.operations = operations;
            this.thread = thread;
        }

        Actors add(String operation, Object... args) {
            Method method = Arrays.stream(operations.getMethods())
                    .filter(m -> m.getName().equals(operation) && m.isAnnotationPresent(Operation.class))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no operation " + operation));
            KFunction<?> function = ReflectJvmMapping.getKotlinFunction(method);
            thread.actor(function, args);
            return this;
        }
    }

    @FunctionalInterface
    interface Part {
        void add(Actors actors);
    }

    /** An initial part, two parallel threads, and a part after them. */
    static Function1<DSLScenarioBuilder, Unit> scenario(Class<?> operations, Part initial, Part first,
            Part second, Part after) {
        return builder -> {
            builder.initial(thread(operations, initial));
            builder.parallel(parallel -> {
                parallel.thread(thread(operations, first));
                parallel.thread(thread(operations, second));
                return Unit.INSTANCE;
            });
            builder.post(thread(operations, after));
            return Unit.INSTANCE;
        };
    }

    private static Function1<DSLThreadScenario, Unit> thread(Class<?> operations, Part part) {
        return thread -> {
            part.add(new Actors(operations, thread));
            return Unit.INSTANCE;
        };
    }
}
