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

/**
 * Scenarios written by hand, added to every model-checking run: random scenarios rarely line up the few actors
 * these races need, and the model checker then explores every interleaving of them.
 */
final class CustomScenarios {
    /** The index of {@code when} 5 (due) and 20 (not due) in {@link QueueOperations}' table. */
    private static final int DUE = 0;
    private static final int NOT_DUE = 2;

    private CustomScenarios() {
    }

    static ModelCheckingOptions addTo(ModelCheckingOptions options) {
        return options
                // ExactlyOnce: a remover and the Looper race for the same due message (what 0).
                .addCustomScenario(scenario(initial -> actor(initial, "post", 0, DUE),
                        remover -> actor(remover, "removeOne", 0, 0),
                        looper -> actor(looper, "deliver")))
                // TraversalComplete: a query stands on b while the Looper delivers and unlinks b; a (what 0,
                // never due) lies below b, c sits on top so that b is not the top.
                .addCustomScenario(scenario(initial -> {
                    actor(initial, "post", 0, NOT_DUE); // a: what 0
                    actor(initial, "post", 0, DUE);     // b: what 1
                    actor(initial, "post", 0, NOT_DUE); // c: what 2
                }, query -> actor(query, "has", 0, 0), looper -> actor(looper, "deliver")));
    }

    @FunctionalInterface
    private interface Actors {
        void add(DSLThreadScenario thread);
    }

    private static Function1<DSLScenarioBuilder, Unit> scenario(Actors initial, Actors first, Actors second) {
        return builder -> {
            builder.initial(unit(initial));
            builder.parallel(parallel -> {
                parallel.thread(unit(first));
                parallel.thread(unit(second));
                return Unit.INSTANCE;
            });
            return Unit.INSTANCE;
        };
    }

    private static Function1<DSLThreadScenario, Unit> unit(Actors actors) {
        return thread -> {
            actors.add(thread);
            return Unit.INSTANCE;
        };
    }

    private static void actor(DSLThreadScenario thread, String operation, Object... args) {
        Method method = Arrays.stream(QueueOperations.class.getMethods())
                .filter(m -> m.getName().equals(operation)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no operation " + operation));
        KFunction<?> function = ReflectJvmMapping.getKotlinFunction(method);
        thread.actor(function, args);
    }
}
