package org.deliqueue;

/**
 * The jpf module's door to DeliQueue's package-private protocol steps and fields. It lives in package
 * {@code org.deliqueue} (in this module's source tree, on the same class path as impl) so the harnesses in
 * {@code org.deliqueue.jpf} can drive single steps of the real queue and of the seeded {@link Mutant}s and read
 * its state once the threads are joined. Every method forwards to exactly one step or one field and adds nothing.
 */
public final class JpfSteps {
    private JpfSteps() {
    }

    /** The queue of the current thread's Looper, which the harness prepared with the queue under test. */
    public static DeliQueue myDeliQueue() {
        return (DeliQueue) Looper.myQueue();
    }

    /** A message for {@code h} with {@code what} and {@code arg1}, built before any actor thread starts. */
    public static Message message(Handler h, int what, int arg1) {
        Message m = new Message();
        m.what = what;
        m.arg1 = arg1;
        m.setTarget(h);
        return m;
    }

    /** Strong reference: java.util.logging keeps loggers weakly, and a collected logger forgets its level. */
    private static java.util.logging.Logger queueLog;

    /**
     * Initialises the logging behind the queue's warning about a push refused after quit on the calling thread,
     * before any actor starts, by logging that warning once. Otherwise the first refused push would initialise it
     * inside the model checker's state space, racing the other threads: many states, none about the queue.
     * {@code silence} (plain JVM) also turns the warning off; JPF cannot run java.util.logging's LogManager.
     */
    public static synchronized void warmUpQueueLog(boolean silence) {
        if (silence && queueLog == null) {
            queueLog = java.util.logging.Logger.getLogger(MessageQueue.class.getName());
            queueLog.setLevel(java.util.logging.Level.OFF);
        }
        MessageQueue.warnDroppedAfterQuit(new Message());
    }

    // ---- step 3/4: tombstone and traverse (visitor sees every message the walk offers) ----

    public static boolean traverse(DeliQueue q, java.util.function.Predicate<Message> visitor) {
        return q.hasMatching(visitor);
    }

    public static boolean isRemoved(Message m) {
        return DeliQueue.isRemoved(m);
    }

    // ---- state, read by the harness's main thread after every actor has been joined ----

    public static long ticket(Message m) {
        return m.ticket;
    }

    /** The message on top of the stack. */
    public static Message top(DeliQueue q) {
        return FieldAccess.lvTop(q);
    }

    public static boolean isQuitSentinel(Message m) {
        return DeliQueue.isQuitSentinel(m);
    }

    /** Whether {@code m} was tombstoned for the quit: the owner its tombstoners recorded is the quit sentinel. */
    public static boolean removedByQuit(Message m) {
        Message owner = m.removedBy;
        return owner != null && DeliQueue.isQuitSentinel(owner);
    }

    /** Whether the wake resource has been freed (the Looper tore down). */
    public static boolean isTornDown(DeliQueue q) {
        return DeliQueueTesting.isTornDown(q);
    }

    /**
     * TraversalSafe, BackLinksConsistent, HeapStackConsistent, GoneNodesUnlinkedAtRest, while no other thread uses
     * the queue.
     */
    public static void checkInvariants(DeliQueue q) {
        DeliQueueTesting.checkInvariants(q);
    }

    /**
     * Looper thread only (it owns {@code swept} and the back-links): whether the message the last sweep stopped at
     * is still reachable from {@code top}. Pushes only add messages above {@code top}, so the walk is safe while
     * producers run. If it is not, a push has overwritten part of the stack: those messages are lost.
     */
    public static boolean sweptReachable(DeliQueue q) {
        Message s = q.swept;
        for (Message m = FieldAccess.lvTop(q); m != null; m = FieldAccess.lpNext(m)) {
            if (m == s) {
                return true;
            }
        }
        return s == null;
    }

    /** Looper thread only: BackLinksConsistent below {@code swept}: {@code n.prev == m} for every step m -> n. */
    public static boolean backLinksConsistent(DeliQueue q) {
        boolean below = false;
        for (Message m = FieldAccess.lvTop(q), up = null; m != null; up = m, m = FieldAccess.lpNext(m)) {
            if (below && m.prev != up) {
                return false;
            }
            below |= m == q.swept;
        }
        return true;
    }

    /** How many messages reachable from {@code top} carry the REMOVED flag (quit sentinel excluded). */
    public static int linkedTombstones(DeliQueue q) {
        int n = 0;
        for (Message m = FieldAccess.lvTop(q); m != null; m = FieldAccess.lpNext(m)) {
            if (DeliQueue.isRemoved(m) && !DeliQueue.isQuitSentinel(m)) {
                n++;
            }
        }
        return n;
    }

    /**
     * A factory for the seeded mutant whose queue class is {@code className} (an anonymous subclass of DeliQueue
     * in impl's test-jar), built by reflection without touching the {@link Mutant} enum. Java PathFinder
     * (java-17 branch) names the classes it generates for lambdas {@code Enclosing$<bootstrap index>}, the names
     * javac gives anonymous classes: once {@code Mutant}'s static initializer has run its lambdas under JPF,
     * {@code Mutant$6} resolves to a generated lambda class and {@code Mutant.create} fails with
     * NoSuchMethodException. The run script asks the plain JVM which class each Mutant creates
     * ({@code MutantClasses}) and passes it to the harness as {@code NAME@class}: the same bytecode, minus the
     * enum's lambda.
     */
    public static MessageQueue.Factory mutantByClass(String className) {
        return new ByClass(className);
    }

    private static final class ByClass implements MessageQueue.Factory {
        private final String className;

        ByClass(String className) {
            this.className = className;
        }

        @Override
        public MessageQueue create(boolean quitAllowed, Clock clock) {
            try {
                java.lang.reflect.Constructor<?> c =
                        Class.forName(className).getDeclaredConstructor(boolean.class, Clock.class);
                c.setAccessible(true);
                return (MessageQueue) c.newInstance(quitAllowed, clock);
            } catch (ReflectiveOperationException e) {
                throw new IllegalArgumentException("no queue class " + className, e);
            }
        }
    }
}
