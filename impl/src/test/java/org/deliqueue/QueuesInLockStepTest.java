package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * DeliQueue against the legacy queue, its sequential oracle, in lock step: one random script, run on both queues,
 * every answer compared as it comes. The script posts (at {@code when} 0 or negative, near {@code Long.MAX_VALUE}
 * and ordinary; asynchronous ones), polls, moves the clock, posts and removes barriers, removes, asks
 * {@code hasMessages}, {@code isIdle} and {@code getMessageCount}, and late in the script may quit or quitSafely,
 * after which it goes on: posts are refused, barriers refused, removals and queries answer, and {@code next()}
 * delivers what the quit kept, then null for good. What the conformance suite's reference model
 * ({@link QueueModel}) leaves out is here: the quit, negative {@code when}s, a clock starting at 0. After every
 * step DeliQueue's structural obligations are checked too ({@link DeliQueueTesting#checkInvariants}).
 *
 * <p>A script has negative {@code when}s or front-of-queue ones ({@code when} 0), never both: between the two the
 * queues order front-of-queue messages differently, as MessageQueue's Javadoc says. The negative control runs the
 * same scripts on three seeded bugs the reference model cannot see (a quit that keeps barriers, a negative
 * {@code when} taken for the front of the queue, a drain that leaves removal descriptors linked: answers right,
 * structure wrong) and requires a disagreement in each.
 */
// negative control: QUIT_KEEPS_BARRIERS, NEGATIVE_WHEN_AT_FRONT, DRAIN_KEEPS_DESCRIPTORS
// obligation: Refinement
class QueuesInLockStepTest {
    static final int SCRIPTS = 300;
    static final int STEPS = 300;
    /** The last steps a disagreement is reported with. */
    static final int HISTORY = 40;

    @Test
    @QuietLogs // every post after the quit is refused, and logged
    void deliQueueAnswersAsTheLegacyQueueAtEveryStep() {
        for (long seed = 1; seed <= SCRIPTS; seed++) {
            Optional<String> disagreement = new Script(QueueKind.DELI, seed).firstDisagreement();
            assertTrue(disagreement.isEmpty(), disagreement::toString);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Mutant.class,
            names = {"QUIT_KEEPS_BARRIERS", "NEGATIVE_WHEN_AT_FRONT", "DRAIN_KEEPS_DESCRIPTORS"})
    @QuietLogs
    void aSeededBugDisagreesWithTheLegacyQueue(Mutant mutant) {
        assertTrue(LongStream.rangeClosed(1, SCRIPTS)
                .anyMatch(seed -> new Script(mutant, seed).firstDisagreement().isPresent()),
                mutant + " answered as the legacy queue in every script");
    }

    /** One random script, run on the legacy queue and on the queue {@code subject} makes. */
    private static final class Script {
        private final Random random;
        private final long seed;
        private final boolean negativeWhens;
        private final long start;
        /** Both queues' clock: only the script moves it. */
        private final ManualClock clock;
        private final MessageQueue oracle;
        private final DeliQueue subject;
        private final Handler[] handlers = {Targets.handler(), Targets.handler()};
        private final Object[] objects = {null, "a", "b"};
        /** The pending barriers: the oracle's token, then the subject's. */
        private final List<int[]> barriers = new ArrayList<>();
        private final Deque<String> history = new ArrayDeque<>();
        private int posts;
        private boolean quit;

        Script(MessageQueue.Factory subjectKind, long seed) {
            this.seed = seed;
            random = new Random(seed);
            negativeWhens = random.nextBoolean();
            start = !negativeWhens && random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(50);
            clock = new ManualClock(start);
            oracle = QueueKind.LEGACY.create(true, clock);
            subject = (DeliQueue) subjectKind.create(true, clock);
        }

        /** Runs the script; the first step whose answers differ, with the steps before it, if any. */
        Optional<String> firstDisagreement() {
            for (int step = 0; step < STEPS; step++) {
                Optional<String> d = step(step);
                if (d.isPresent()) {
                    return d;
                }
            }
            return Optional.empty();
        }

        private Optional<String> step(int step) {
            int op = random.nextInt(100);
            if (op < 30) {
                return post();
            } else if (op < 50) {
                return compare("poll", () -> idOf(oracle.poll()), () -> idOf(subject.poll()));
            } else if (op < 60) {
                long by = random.nextInt(6);
                clock.advance(by);
                return compare("advance " + by, () -> null, () -> null);
            } else if (op < 68) {
                return barrier();
            } else if (op < 76) {
                return remove();
            } else if (op < 84) {
                Handler h = handler();
                int what = random.nextInt(3);
                return compare("hasMessages " + what, () -> oracle.hasMessages(h, what, null),
                        () -> subject.hasMessages(h, what, null));
            } else if (op < 90) {
                return compare("isIdle", oracle::isIdle, subject::isIdle);
            } else if (op < 96) {
                return compare("getMessageCount", oracle::getMessageCount, subject::getMessageCount);
            } else if (op < 98 && !quit && step > STEPS / 3) {
                boolean safely = random.nextBoolean();
                quit = true;
                return compare("quit(" + safely + ")", () -> quit(oracle, safely), () -> quit(subject, safely));
            } else if (quit) {
                return compare("next", () -> idOf(oracle.next()), () -> idOf(subject.next()));
            }
            return Optional.empty();
        }

        private Optional<String> post() {
            Handler h = handler();
            int what = random.nextInt(3);
            Object obj = objects[random.nextInt(objects.length)];
            boolean async = random.nextInt(4) == 0;
            int kind = random.nextInt(10);
            long when = kind == 0 ? (negativeWhens ? -1 - random.nextInt(5) : 0)
                    : kind == 1 ? Long.MAX_VALUE - random.nextInt(2)
                    : Math.max(1, clock.uptimeMillis() - 3 + random.nextInt(20));
            int id = ++posts;
            Message a = Message.obtain(h, what, id, 0, obj);
            Message b = Message.obtain(h, what, id, 0, obj);
            a.setAsynchronous(async);
            b.setAsynchronous(async);
            return compare("enqueueMessage #" + id + " when=" + when + " what=" + what + " obj=" + obj
                    + (async ? " async" : ""), () -> oracle.enqueueMessage(a, when),
                    () -> subject.enqueueMessage(b, when));
        }

        private Optional<String> barrier() {
            if (barriers.size() < 3 && (barriers.isEmpty() || random.nextBoolean())) {
                Object[] tokens = new Object[2];
                Optional<String> d = compare("postSyncBarrier",
                        () -> outcome(() -> tokens[0] = oracle.postSyncBarrier()) == null ? "posted" : "refused",
                        () -> outcome(() -> tokens[1] = subject.postSyncBarrier()) == null ? "posted" : "refused");
                if (tokens[0] != null && tokens[1] != null) {
                    barriers.add(new int[] {(Integer) tokens[0], (Integer) tokens[1]});
                }
                return d;
            }
            int[] t = barriers.remove(random.nextInt(barriers.size()));
            return compare("removeSyncBarrier", () -> outcome(() -> oracle.removeSyncBarrier(t[0])),
                    () -> outcome(() -> subject.removeSyncBarrier(t[1])));
        }

        private Optional<String> remove() {
            Handler h = handler();
            int what = random.nextInt(3);
            Object obj = objects[random.nextInt(objects.length)];
            if (random.nextBoolean()) {
                return compare("removeMessages " + what + " " + obj, () -> oracle.removeMessages(h, what, obj),
                        () -> subject.removeMessages(h, what, obj));
            }
            return compare("removeCallbacksAndMessages " + obj, () -> oracle.removeCallbacksAndMessages(h, obj),
                    () -> subject.removeCallbacksAndMessages(h, obj));
        }

        private Handler handler() {
            return handlers[random.nextInt(handlers.length)];
        }

        /**
         * Runs one step on both queues, then checks DeliQueue's structure; a disagreement, or a broken structural
         * obligation, is reported with the steps that led to it.
         */
        private Optional<String> compare(String what, Supplier<Object> onOracle, Supplier<Object> onSubject) {
            Object expected = onOracle.get();
            Object actual = onSubject.get();
            String broken = outcome(() -> DeliQueueTesting.checkInvariants(subject), RuntimeException::toString);
            boolean agree = Objects.equals(expected, actual) && broken == null;
            history.addLast(what + " (uptime " + clock.uptimeMillis() + ") -> " + expected
                    + (Objects.equals(expected, actual) ? "" : ", subject: " + actual)
                    + (broken == null ? "" : ", structure: " + broken));
            if (history.size() > HISTORY) {
                history.removeFirst();
            }
            return agree ? Optional.empty()
                    : Optional.of("script " + seed + " (uptime from " + start + ", negative whens " + negativeWhens
                            + "):\n  " + String.join("\n  ", history));
        }
    }

    private static Object quit(MessageQueue q, boolean safely) {
        q.quit(safely);
        return null;
    }

    private static Object idOf(Message m) {
        return m == null ? null : m.arg1;
    }

    /** Null if {@code call} returned, else the class of what it threw. */
    private static String outcome(Runnable call) {
        return outcome(call, e -> e.getClass().getSimpleName());
    }

    /** Null if {@code call} returned, else {@code described} of the {@code RuntimeException} it threw. */
    private static String outcome(Runnable call, Function<RuntimeException, String> described) {
        try {
            call.run();
            return null;
        } catch (RuntimeException e) {
            return described.apply(e);
        }
    }
}
