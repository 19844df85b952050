package org.deliqueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Interleavings that random stress rarely produces, scripted step by step. Each scenario runs on the real
 * DeliQueue, where it must come out right, and on the mutant that breaks the step it exercises, where it must show
 * the violation: the test is its own negative control. The scripts use the protocol's own steps: a traversal's
 * predicate runs in the middle of the walk, so it can act as the Looper or a producer at that exact point.
 */
// negative control: UNLINK_CLEARS_NEXT, SINGLE_PASS_TRAVERSAL, LOST_WAKEUP, TEARDOWN_WITHOUT_WAIT, RESOLVE_TAKES_LATEST_OWNER, QUIT_OWNS_NOTHING, EARLIEST_OWNER_IS_LATEST, QUIT_DROP_OVERRIDES_REMOVAL, QUERY_SKIPS_RESERVATION, REMOVAL_IGNORES_OWNER, CLAIM_FLOOR_AT_TOP, SKIP_OVER_RESERVATION, QUERY_REMEMBERS_LAST_OWNER, FLOOR_FROM_UNREMOVED_VERDICTS, DEAD_HEAD_SYNC_ONLY, RECHECK_TRUSTS_OWNER_ON_TOP, QUERY_FALSE_AT_REMOVED_MATCH, SELECT_ASKS_ABOUT_OWNED, DEAD_BARRIER_STAYS_IN_HEAP, TEARDOWN_WAIT_ENDS_ON_INTERRUPT
// obligation: TraversalComplete
// obligation: Refinement
// obligation: NoLostWakeup
// obligation: NoUseAfterTeardown
// obligation: RemovalReturnsItsSet
// obligation: SkipsPassOnlyGone
// obligation: HasMessagesLinearizable
// obligation: DeliveryOrder
// obligation: UserCodeOnCaller
// obligation: EventualDelivery
class ScriptedInterleavingTest {
    private final Handler h = Targets.handler();

    private static DeliQueue queue(MessageQueue.Factory factory, Clock clock) {
        return (DeliQueue) factory.create(true, clock);
    }

    private Message message(int what) {
        return Message.obtain(h, what);
    }

    // ---- TraversalComplete: the Looper unlinks the message a traversal stands on ----

    @Test
    void traversalStandingOnAnUnlinkedMessageRejoinsTheStack() {
        assertTrue(traversalVisitsTheMessageBelowAnUnlinkedOne(QueueKind.DELI));
    }

    @Test
    void mutantUnlinkClearsNextStrandsTheTraversal() {
        assertFalse(traversalVisitsTheMessageBelowAnUnlinkedOne(Mutant.UNLINK_CLEARS_NEXT));
    }

    /** Stack c -> b -> a; a query walks; while it stands on b, b is removed and the Looper unlinks it. */
    private boolean traversalVisitsTheMessageBelowAnUnlinkedOne(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(0));
        Message a = message(1);
        Message b = message(2);
        q.enqueueMessage(a, 100);
        q.enqueueMessage(b, 100);
        q.enqueueMessage(message(3), 100);
        q.poll(); // the Looper sweeps: back-links exist, nothing is due
        List<Message> visited = new ArrayList<>();
        q.traverse(m -> {
            visited.add(m);
            if (m == b) {
                assertEquals(1, q.removeMessages(h, 2, null), "another remover tombstones b");
                q.poll(); // the Looper drains the freelist: b is unlinked under our feet
            }
            return false;
        });
        return visited.contains(a);
    }

    // ---- Refinement: hasMessages must be linearizable ----

    @Test
    void queryRacingDeliveryAndPushIsLinearizable() {
        assertTrue(queryFindsAMatchWhileOneIsAlwaysPending(QueueKind.DELI),
                "a message with what 1 is pending at every instant of the call, so the answer must be true");
    }

    @Test
    void mutantSinglePassTraversalIsNotLinearizable() {
        assertFalse(queryFindsAMatchWhileOneIsAlwaysPending(Mutant.SINGLE_PASS_TRAVERSAL));
    }

    /**
     * x (what 1, due), then z on top. hasMessages(1) starts at z; there, y (what 1) is pushed by another thread and
     * then x is delivered. Before push(y) x is pending, after it y is: no instant of the call lacks a what-1 message.
     * (A push by the query's own thread, from inside its predicate, would not count: the walk does not ask about
     * its own posts.)
     */
    private boolean queryFindsAMatchWhileOneIsAlwaysPending(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message x = message(1);
        Message z = message(2);
        q.enqueueMessage(x, 5);
        q.enqueueMessage(z, 100);
        boolean[] scripted = {false};
        return q.hasMatching(m -> {
            if (m == z && !scripted[0]) {
                scripted[0] = true;
                TestSupport.onNewThread("producer of y", () -> q.enqueueMessage(message(1), 5)); // push(y)
                assertSame(x, q.poll(), "then the Looper delivers x");
            }
            return m.target == h && m.what == 1;
        });
    }

    // ---- RemovalReturnsItsSet, Refinement: owners pushed while the Looper holds a reservation ----

    @Test
    void aReservationGoesToTheEarliestOfTwoRemovalsThatCoverIt() {
        assertEquals(List.of(false, 1, 0), reservationUnderTwoOwners(QueueKind.DELI, false));
    }

    @Test
    void aReservationGoesToARemovalPushedBeforeTheQuit() {
        assertEquals(List.of(false, 1, 0), reservationUnderTwoOwners(QueueKind.DELI, true));
    }

    @Test
    void mutantResolveTakesLatestOwnerLosesTheFirstRemovalsMessage() {
        assertEquals(List.of(false, 0, 0), reservationUnderTwoOwners(Mutant.RESOLVE_TAKES_LATEST_OWNER, false));
        assertEquals(List.of(false, 0, 0), reservationUnderTwoOwners(Mutant.RESOLVE_TAKES_LATEST_OWNER, true));
    }

    /**
     * The Looper has swept {@code a} and reserved it for delivery. Then two owners that cover {@code a} are pushed
     * before anyone resolves the reservation: a removal whose remover is paused between its descriptor's push and
     * its collect, and above it a second removal that had selected {@code a} before the first was pushed (its
     * first CAS failed; the retry pushes the same tickets), or else a quit(). The Looper resolves, then each remover
     * collects. The first removal linearized while {@code a} was queued, so it takes {@code a}: the delivery is
     * refused, the first removal returns 1 and the second 0 (the quit takes nothing it returns).
     *
     * @return whether the Looper delivered {@code a}, what the first removal took, what the second took (0 for the
     *     quit)
     */
    private List<Object> reservationUnderTwoOwners(MessageQueue.Factory factory, boolean secondIsQuit) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message a = sweptAndReserved(q);
        DeliQueue.Selection firstSelection = selectionOf(q, a);
        DeliQueue.Selection secondSelection = secondIsQuit ? null : selectionOf(q, a);
        Message first = new Message();
        q.pushDescriptor(first, firstSelection);
        assertSame(first, FieldAccess.lvTop(q));
        Message second = new Message();
        if (secondIsQuit) {
            q.quit(false);
        } else {
            // Its first CAS fails (the first removal's push moved top): it walks that segment and pushes above it.
            q.pushDescriptor(second, secondSelection);
            assertSame(first, FieldAccess.lpNext(second), "the second descriptor went above the first");
        }
        boolean delivered = q.resolve(a);
        int firstTook = q.collect(first);
        int secondTook = secondIsQuit ? 0 : q.collect(second);
        return List.of(delivered, firstTook, secondTook);
    }

    /**
     * A message due now (the clock reads 10) that the Looper has swept and reserved for delivery:
     * {@code claimForDelivery}'s reservation, without its resolve, which the caller scripts.
     */
    private Message sweptAndReserved(DeliQueue q) {
        Message a = message(1);
        q.enqueueMessage(a, 10);
        q.sweep();
        a.claimTop = q.swept;
        assertTrue(FieldAccess.casFlags(a, FieldAccess.lvFlags(a), FieldAccess.lvFlags(a) | Message.FLAG_RESERVED));
        return a;
    }

    /**
     * A removal's selection that has walked {@code q} from its current top and matched {@code matched} alone
     * (given newest first, the order of the walk).
     */
    private static DeliQueue.Selection selectionOf(DeliQueue q, Message... matched) {
        DeliQueue.Selection s = q.newSelection(x -> Arrays.stream(matched).anyMatch(m -> m == x));
        for (Message m : matched) {
            assertFalse(s.visit(m));
        }
        assertTrue(s.endSegment(), "the selection matched what it was given");
        s.seen = FieldAccess.lvTop(q);
        return s;
    }

    // ---- RemovalReturnsItsSet: the Looper tombstones for removals it swept before their removers collect ----

    @Test
    void theLooperTakesAMessageForTheEarliestOfTwoSweptRemovals() {
        assertEquals(List.of(1, 0), twoRemovalsSweptBeforeEitherCollects(QueueKind.DELI));
    }

    @Test
    void mutantEarliestOwnerIsLatestLosesTheMessageBothRemovalsCover() {
        assertEquals(List.of(0, 0), twoRemovalsSweptBeforeEitherCollects(Mutant.EARLIEST_OWNER_IS_LATEST));
    }

    /**
     * Two removals select {@code a}; the second's push goes above the first's. The Looper sweeps both descriptors
     * while both removers are paused before their collect, and meets {@code a} at the head of its heap: it
     * tombstones {@code a} for its owner, the earliest removal that covers it. Then each remover collects: the
     * first returns 1 and the second 0, and {@code a} is gone.
     *
     * @return what the first removal took, what the second took
     */
    private List<Integer> twoRemovalsSweptBeforeEitherCollects(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message a = message(1);
        q.enqueueMessage(a, 20);
        q.sweep();
        Message[] removals = twoRemovalsOf(q, a);
        assertNull(q.poll(), "nothing is due");
        List<Integer> took = List.of(q.collect(removals[0]), q.collect(removals[1]));
        assertFalse(q.hasMessages(h, 1, null), "a left the queue");
        return took;
    }

    /**
     * Two removals that both selected {@code a} before either was pushed, both pushed, the second above the first;
     * neither has collected.
     *
     * @return the first descriptor, the second
     */
    private static Message[] twoRemovalsOf(DeliQueue q, Message a) {
        DeliQueue.Selection firstSelection = selectionOf(q, a);
        DeliQueue.Selection secondSelection = selectionOf(q, a);
        Message first = new Message();
        q.pushDescriptor(first, firstSelection);
        Message second = new Message();
        q.pushDescriptor(second, secondSelection);
        assertSame(first, FieldAccess.lpNext(second), "the second descriptor went above the first");
        return new Message[] {first, second};
    }

    @Test
    void aLaterRemovalLeavesWhatAnEarlierOneOwnsToIt() {
        assertEquals(List.of(1, 0), secondRemovalCollectsFirst(QueueKind.DELI));
    }

    @Test
    void mutantRemovalIgnoresOwnerTakesWhatTheEarlierRemovalOwns() {
        assertEquals(List.of(0, 1), secondRemovalCollectsFirst(Mutant.REMOVAL_IGNORES_OWNER));
    }

    /**
     * Two removals select {@code a}; the second's push goes above the first's, and the second collects first, while
     * the first remover is still paused. Walking down, the second passes the first descriptor, which covers
     * {@code a}: the first removal took {@code a} at its push, so the second must leave it, and the first counts it
     * when it collects.
     *
     * @return what the first removal took, what the second took
     */
    private List<Integer> secondRemovalCollectsFirst(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message a = message(1);
        q.enqueueMessage(a, 20);
        Message[] removals = twoRemovalsOf(q, a);
        int secondTook = q.collect(removals[1]);
        return List.of(q.collect(removals[0]), secondTook);
    }

    // ---- RemovalReturnsItsSet, Refinement: a removal pushed before quit(), swept with it ----

    @Test
    void aRemovalPushedBeforeTheQuitKeepsWhatTheLooperDropsAtTheQuit() {
        assertEquals(1, removalThenQuitSweptBeforeTheRemoverCollects(QueueKind.DELI));
    }

    @Test
    void mutantQuitDropOverridesRemovalTakesTheRemovalsMessage() {
        assertEquals(0, removalThenQuitSweptBeforeTheRemoverCollects(Mutant.QUIT_DROP_OVERRIDES_REMOVAL));
    }

    /**
     * A removal selects {@code a} and pushes its descriptor, then pauses before its collect; quit() is pushed above
     * it; the Looper sweeps both and drops what the quit dooms. The removal linearized first, while {@code a} was
     * queued, so {@code a} is the removal's: its collect returns 1, whoever wrote the tombstone.
     *
     * @return what the removal took
     */
    private int removalThenQuitSweptBeforeTheRemoverCollects(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message a = message(1);
        q.enqueueMessage(a, 20);
        q.sweep();
        Message removal = new Message();
        q.pushDescriptor(removal, selectionOf(q, a));
        q.quit(false);
        assertNull(q.poll(), "the Looper drops what the quit dooms and delivers nothing");
        return q.collect(removal);
    }

    // ---- Refinement: a query beside a reservation ----

    @Test
    void aQueryResolvesTheReservationItMeets() {
        assertEquals(List.of(false, 0, true), queryThenRemovalBesideAReservation(QueueKind.DELI));
    }

    @Test
    void mutantQuerySkipsReservationAnswersAbsentThenRemovesIt() {
        assertEquals(List.of(false, 1, false), queryThenRemovalBesideAReservation(Mutant.QUERY_SKIPS_RESERVATION));
    }

    /**
     * The Looper holds a reservation on {@code a}. One thread asks whether a what-1 message is queued, then removes
     * the what-1 messages, then the Looper resolves. A query that meets the reservation resolves it: no owner was
     * pushed since the claim, so {@code a} is delivered, and the query answers false, the removal takes nothing and
     * the Looper's resolution reads delivered. A query that answered false without resolving would leave {@code a}
     * for that thread's removal to take: absent, then removed.
     *
     * @return the query's answer, what the removal took, whether the Looper delivered {@code a}
     */
    private List<Object> queryThenRemovalBesideAReservation(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message a = sweptAndReserved(q);
        boolean present = q.hasMessages(h, 1, null);
        int removed = q.removeMessages(h, 1, null);
        return List.of(present, removed, q.resolve(a));
    }

    // ---- HasMessagesLinearizable: a query's re-read finds a removal's descriptor on top ----

    @Test
    void aQueryWalksTheSegmentBelowADescriptorOnTop() {
        assertTrue(queryPastAPostThenARemoval(QueueKind.DELI),
                "a what-1 message is queued at every instant of the call, so the answer must be true");
    }

    @Test
    void mutantRecheckTrustsOwnerOnTopAnswersFalse() {
        assertFalse(queryPastAPostThenARemoval(Mutant.RECHECK_TRUSTS_OWNER_ON_TOP));
    }

    /**
     * x (what 1) is queued. A query for what 1 stands on x; there another thread posts y (what 1), and a third
     * removes x (by its object, so not y). x is REMOVED when the query reads its flags again, and the re-read of
     * {@code top} finds the removal's descriptor, above y. Before the post x is queued, after it y: the answer
     * must be true, and only the segment below the descriptor holds y.
     */
    private boolean queryPastAPostThenARemoval(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Object key = new Object();
        Message x = message(1);
        x.obj = key;
        q.enqueueMessage(x, 100);
        boolean[] scripted = {false};
        return q.hasMatching(m -> {
            if (m == x && !scripted[0]) {
                scripted[0] = true;
                TestSupport.onNewThread("producer of y", () -> q.enqueueMessage(message(1), 100)); // push(y)
                assertEquals(1, TestSupport.onNewThread("remover of x", () -> q.removeMessages(h, 1, key)));
                assertTrue(DeliQueue.isOwnerNode(FieldAccess.lvTop(q)), "the removal's descriptor is on top");
            }
            return m.target == h && m.what == 1;
        });
    }

    // ---- HasMessagesLinearizable: a match removed under the query, an older one still queued ----

    @Test
    void aQueryGoesOnPastAMatchRemovedUnderIt() {
        assertTrue(queryWhoseFirstMatchIsRemovedUnderIt(QueueKind.DELI),
                "a (what 1) is queued at every instant of the call, so the answer must be true");
    }

    @Test
    void mutantQueryFalseAtRemovedMatchAnswersFalse() {
        assertFalse(queryWhoseFirstMatchIsRemovedUnderIt(Mutant.QUERY_FALSE_AT_REMOVED_MATCH));
    }

    /**
     * a and b (both what 1) are queued, b newer. A query for what 1 meets b first; while its predicate runs on b
     * (after it read b's fields: the user code answers yes), another thread removes b by its object, so not a. b is
     * REMOVED when the query reads its flags again, and the walk must go on to a, which was queued at every instant
     * of the call (the spec's MCHasTwo).
     */
    private boolean queryWhoseFirstMatchIsRemovedUnderIt(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Object key = new Object();
        Message a = message(1);
        Message b = message(1);
        b.obj = key;
        q.enqueueMessage(a, 100);
        q.enqueueMessage(b, 100);
        boolean[] removedB = {false};
        boolean answer = q.hasMatching(m -> {
            boolean match = m.target == h && m.what == 1;
            if (m == b && !removedB[0]) {
                removedB[0] = true;
                assertEquals(1, TestSupport.onNewThread("remover of b", () -> q.removeMessages(h, 1, key)));
            }
            return match;
        });
        assertTrue(removedB[0], "the query met b");
        return answer;
    }

    // ---- UserCodeOnCaller: a removal's key is asked only about queued messages ----

    @Test
    void aRemovalIsNotAskedAboutWhatAnEarlierRemovalTook() {
        assertEquals(List.of(), keysAskedAfterAnotherRemovalsPush(QueueKind.DELI));
    }

    @Test
    void mutantSelectAsksAboutOwnedAsksAboutATakenMessage() {
        assertEquals(List.of(1), keysAskedAfterAnotherRemovalsPush(Mutant.SELECT_ASKS_ABOUT_OWNED));
    }

    /**
     * {@code a} (what 1) is queued. A removal selects it and pushes its descriptor, then pauses before its collect:
     * {@code a} left the queue at that push. A second removal of what 1 starts then: its key must not be asked about
     * {@code a}, which was not queued at any instant of its call (the spec's UserCodeOnCaller: user code runs on
     * queued messages only). Each removal then returns what it took: the second nothing, the first {@code a}.
     *
     * @return the {@code what} of each message the second removal's key was asked about
     */
    private List<Integer> keysAskedAfterAnotherRemovalsPush(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(0));
        Message a = message(1);
        q.enqueueMessage(a, 100);
        Message first = new Message();
        q.pushDescriptor(first, selectionOf(q, a));
        List<Integer> asked = new ArrayList<>();
        assertEquals(0, q.removeMatching(m -> {
            asked.add(m.what);
            return m.target == h && m.what == 1;
        }), "a belongs to the first removal");
        assertEquals(1, q.collect(first));
        return asked;
    }

    // ---- HasMessagesLinearizable: a query past two removals' descriptors ----

    @Test
    void aQueryPastTwoDescriptorsCountsWhatTheFirstOneOwnsAsGone() {
        assertEquals(List.of(false, 1, 1), queryPastTwoDescriptors(QueueKind.DELI));
    }

    @Test
    void mutantQueryRemembersLastOwnerFindsWhatARemovalTook() {
        assertEquals(List.of(true, 1, 1), queryPastTwoDescriptors(Mutant.QUERY_REMEMBERS_LAST_OWNER));
    }

    /**
     * {@code a} (what 1) and {@code b} (what 2) are queued, not due. A removal of {@code b} pushes its descriptor,
     * then a removal of {@code a} pushes its own above it; neither has collected when a query for what 1 starts.
     * The query walks past {@code a}'s owner, then {@code b}'s, then {@code b} and {@code a}: {@code a} left the
     * queue at its removal's push, before the query began, so the answer is false (the spec's MCHasRemovers). Then
     * each removal collects what it owns.
     *
     * @return the query's answer, what the removal of {@code a} took, what the removal of {@code b} took
     */
    private List<Object> queryPastTwoDescriptors(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(0));
        Message a = message(1);
        Message b = message(2);
        q.enqueueMessage(a, 100);
        q.enqueueMessage(b, 100);
        Message removesB = new Message();
        q.pushDescriptor(removesB, selectionOf(q, b));
        Message removesA = new Message();
        q.pushDescriptor(removesA, selectionOf(q, a));
        assertSame(removesB, FieldAccess.lpNext(removesA), "a's owner lies above b's");
        boolean present = q.hasMessages(h, 1, null);
        return List.of(present, q.collect(removesA), q.collect(removesB));
    }

    // ---- RemovalReturnsItsSet: the Looper tombstones a removal's older verdict before the removal collects ----

    @Test
    void aRemovalCountsTheVerdictTheLooperTookForIt() {
        assertEquals(2, removalOfTwoWhileTheLooperTakesTheOlder(QueueKind.DELI));
    }

    @Test
    void mutantFloorFromUnremovedVerdictsLeavesTheOlderUncounted() {
        assertEquals(1, removalOfTwoWhileTheLooperTakesTheOlder(Mutant.FLOOR_FROM_UNREMOVED_VERDICTS));
    }

    /**
     * {@code a} (due at 20), {@code c} (25, not matched) and {@code b} (30) are queued and swept at 10. A removal
     * selects {@code a} and {@code b} and pushes its descriptor; before it collects, the Looper polls: it sweeps
     * the descriptor and tombstones {@code a}, the head of its heap, for it, then finds {@code c} live (not due).
     * {@code b} is still unremoved when the removal collects: both are its own, and it returns 2.
     *
     * @return what the removal returned
     */
    private int removalOfTwoWhileTheLooperTakesTheOlder(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message a = message(1);
        Message c = message(2);
        Message b = message(1);
        q.enqueueMessage(a, 20);
        q.enqueueMessage(c, 25);
        q.enqueueMessage(b, 30);
        q.sweep();
        Message removal = new Message();
        q.pushDescriptor(removal, selectionOf(q, b, a));
        assertNull(q.poll(), "nothing is due");
        assertTrue(DeliQueue.isRemoved(a), "the Looper took a for the removal");
        assertFalse(DeliQueue.isRemoved(b), "b is not a head: the Looper left it");
        int took = q.collect(removal);
        assertFalse(q.hasMessages(h, 1, null), "neither a nor b is queued");
        return took;
    }

    // ---- RemovalReturnsItsSet, DeliveryOrder: an async message a swept removal owns ----

    @Test
    void theLooperDoesNotDeliverAnAsyncMessageASweptRemovalOwns() {
        assertEquals(List.of(false, 1), asyncMessageOwnedBySweptRemoval(QueueKind.DELI));
    }

    @Test
    void mutantDeadHeadSyncOnlyDeliversWhatTheRemovalTook() {
        assertEquals(List.of(true, 0), asyncMessageOwnedBySweptRemoval(Mutant.DEAD_HEAD_SYNC_ONLY));
    }

    /**
     * An async message {@code m}, due now; a removal selects it and pushes its descriptor, then pauses before its
     * collect. The Looper polls: it sweeps the descriptor, which owns {@code m} (the removal linearized at its
     * push), so it tombstones {@code m} for it and delivers nothing; the removal then returns 1.
     *
     * @return whether the poll delivered {@code m}, what the removal returned
     */
    private List<Object> asyncMessageOwnedBySweptRemoval(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message m = message(1);
        m.setAsynchronous(true);
        q.enqueueMessage(m, 10);
        Message removal = new Message();
        q.pushDescriptor(removal, selectionOf(q, m));
        boolean delivered = q.poll() == m;
        return List.of(delivered, q.collect(removal));
    }

    // ---- EventualDelivery: a barrier a swept removal owns, at the head of the sync heap ----

    @Test
    void theLooperDeliversWhatABarrierASweptRemovalOwnsHeldBack() {
        ChildJvm.Outcome o = ChildJvm.run(getClass(), "deadBarrierAheadOfADueMessage", "DELI");
        assertEquals("[true, 1]", o.result(), o.output());
    }

    @Test
    void mutantDeadBarrierStaysInHeapSpinsOnTheBarrier() {
        ChildJvm.Outcome o = ChildJvm.run(getClass(), "deadBarrierAheadOfADueMessage",
                "Mutant#DEAD_BARRIER_STAYS_IN_HEAP");
        assertTrue(o.hungIn("DeliQueue.liveHead"), "the Looper's poll spins on the dead barrier: " + o.output());
    }

    /**
     * A barrier, then a sync message due now behind it; the Looper sweeps both (the barrier blocks the message). A
     * removal of the barrier pushes its descriptor and pauses before its collect. The Looper polls: it sweeps the
     * descriptor, which owns the barrier, tombstones the barrier for it at the head of the sync heap and takes it
     * out, and the message it held back is delivered; the removal then returns 1. A Looper that leaves the dead
     * barrier in its heap meets it again, for ever. Run in a JVM of its own ({@link ChildJvm}): that poll never
     * returns.
     *
     * @return whether the poll delivered the message, what the removal returned
     */
    private List<Object> deadBarrierAheadOfADueMessage(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message barrier = q.firstBarrier(q.postSyncBarrier());
        Message m = message(1);
        q.enqueueMessage(m, 10);
        assertNull(q.poll(), "the barrier blocks m");
        Message removal = new Message();
        q.pushDescriptor(removal, selectionOf(q, barrier));
        boolean delivered = q.poll() == m;
        return List.of(delivered, q.collect(removal));
    }

    // ---- RemovalReturnsItsSet: a removal pushed between the Looper's sweep and its claim ----

    @Test
    void aRemovalPushedBetweenTheSweepAndTheClaimTakesTheMessage() {
        assertEquals(List.of(false, 1), removalBetweenSweepAndClaim(QueueKind.DELI));
    }

    @Test
    void mutantClaimFloorAtTopDeliversWhatTheRemovalTook() {
        assertEquals(List.of(true, 0), removalBetweenSweepAndClaim(Mutant.CLAIM_FLOOR_AT_TOP));
    }

    /**
     * The Looper sweeps {@code a}; a removal selects it and pushes its descriptor; then the Looper claims
     * {@code a} ({@code claimForDelivery}: reserve, then resolve). The removal's push came after the sweep, so the
     * claim's floor (the top it swept) is below the descriptor: the resolution finds the removal and hands
     * {@code a} to it.
     *
     * @return whether the claim delivered {@code a}, what the removal took
     */
    private List<Object> removalBetweenSweepAndClaim(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message a = message(1);
        q.enqueueMessage(a, 10);
        q.sweep();
        Message removal = new Message();
        q.pushDescriptor(removal, selectionOf(q, a));
        boolean delivered = q.claimForDelivery(a);
        return List.of(delivered, q.collect(removal));
    }

    // ---- SkipsPassOnlyGone: a removal finishes above a reservation ----

    @Test
    void aFinishedRemovalsSkipStopsAtAReservedMessage() {
        assertEquals(List.of(true), skipOfARemovalFinishedAboveAReservation(QueueKind.DELI));
    }

    @Test
    void mutantSkipOverReservationPassesTheReservedMessage() {
        assertEquals(List.of(false), skipOfARemovalFinishedAboveAReservation(Mutant.SKIP_OVER_RESERVATION));
    }

    /**
     * The Looper holds a reservation on {@code a}; above it {@code b} is removed and the removal finishes, recording
     * where the run of dead nodes below its descriptor ends. {@code b} is dead, {@code a} is not until its
     * reservation is resolved, so the run ends at {@code a}.
     *
     * @return whether the descriptor's skip is {@code a}
     */
    private List<Boolean> skipOfARemovalFinishedAboveAReservation(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message a = sweptAndReserved(q);
        Message b = message(2);
        q.enqueueMessage(b, 20);
        Message removal = new Message();
        q.pushDescriptor(removal, selectionOf(q, b));
        assertEquals(1, q.collect(removal), "the removal took b");
        return List.of(removal.skip == a);
    }

    // ---- Refinement: quit() while the Looper holds a reservation ----

    @Test
    void aReservationResolvedAfterQuitIsNotDelivered() {
        assertFalse(deliversAReservationResolvedAfterQuit(QueueKind.DELI));
    }

    @Test
    void mutantQuitOwnsNothingDeliversWhatTheQuitDoomed() {
        assertTrue(deliversAReservationResolvedAfterQuit(Mutant.QUIT_OWNS_NOTHING));
    }

    /**
     * The Looper reserves a due message; quit() takes effect (its sentinel is pushed) before the Looper resolves
     * the reservation, whose read of {@code top} is the delivery's linearization point: the quit came first and
     * doomed the message, which must not be delivered.
     */
    private boolean deliversAReservationResolvedAfterQuit(MessageQueue.Factory factory) {
        DeliQueue q = queue(factory, new ManualClock(10));
        Message a = sweptAndReserved(q);
        q.quit(false);
        return q.resolve(a);
    }

    // ---- NoLostWakeup: a push between the Looper's sweep and its ASLEEP write ----

    @Test
    void pushBeforeTheLooperSleepsIsSeenByItsRecheck() throws InterruptedException {
        assertTrue(looperReturnsFromSleepWithADueMessagePending(QueueKind.DELI));
    }

    @Test
    void mutantLostWakeupSleepsPastADueMessage() throws InterruptedException {
        assertFalse(looperReturnsFromSleepWithADueMessagePending(Mutant.LOST_WAKEUP));
    }

    /**
     * The Looper sweeps an empty stack; a producer pushes a due message while the Looper is still AWAKE (so the
     * producer rightly does not wake it); then the Looper goes to sleep with no deadline. It must not stay asleep.
     */
    private boolean looperReturnsFromSleepWithADueMessagePending(MessageQueue.Factory factory)
            throws InterruptedException {
        DeliQueue q = queue(factory, new ManualClock(10));
        assertEquals(null, q.poll(), "the Looper sweeps: nothing there");
        q.enqueueMessage(message(1), 0); // sees AWAKE: no wake
        Thread looper = new Thread(() -> q.sleep(MessageQueue.NO_DEADLINE, null), "looper");
        looper.start();
        looper.join(TimeUnit.SECONDS.toMillis(2));
        boolean returned = !looper.isAlive();
        LockSupport.unpark(looper); // let a stranded mutant Looper go
        looper.join();
        return returned;
    }

    // ---- NoUseAfterTeardown: a waker holds a reference while the Looper tears down ----

    /** When the Looper tearing down is interrupted: never, before its teardown starts, or once it waits. */
    private enum Interrupt { NONE, BEFORE_TEARDOWN, WHILE_WAITING }

    @Test
    void teardownWaitsForWakersHoldingAReference() throws InterruptedException {
        assertTrue(wakerHoldingAReferenceCanStillSignal(QueueKind.DELI, Interrupt.NONE));
    }

    @Test
    void mutantTeardownWithoutWaitFreesUnderAWaker() throws InterruptedException {
        assertFalse(wakerHoldingAReferenceCanStillSignal(Mutant.TEARDOWN_WITHOUT_WAIT, Interrupt.NONE));
    }

    @Test
    void anInterruptOfTheLooperDoesNotEndTheTeardownWait() throws InterruptedException {
        assertTrue(wakerHoldingAReferenceCanStillSignal(QueueKind.DELI, Interrupt.BEFORE_TEARDOWN));
        assertTrue(wakerHoldingAReferenceCanStillSignal(QueueKind.DELI, Interrupt.WHILE_WAITING));
    }

    @Test
    void mutantTeardownWaitEndsOnInterruptFreesUnderAWaker() throws InterruptedException {
        assertTrue(wakerHoldingAReferenceCanStillSignal(Mutant.TEARDOWN_WAIT_ENDS_ON_INTERRUPT, Interrupt.NONE),
                "not interrupted, the mutant waits");
        assertFalse(wakerHoldingAReferenceCanStillSignal(Mutant.TEARDOWN_WAIT_ENDS_ON_INTERRUPT,
                Interrupt.BEFORE_TEARDOWN));
        assertFalse(wakerHoldingAReferenceCanStillSignal(Mutant.TEARDOWN_WAIT_ENDS_ON_INTERRUPT,
                Interrupt.WHILE_WAITING));
    }

    /**
     * A waker takes its reference; the Looper starts teardown and either waits (parks) or finishes, interrupted as
     * {@code interrupt} says (an interrupt only makes the wait read the count again); then the waker signals and
     * releases. Returns whether the signal found the resource alive; checks that teardown then completes.
     */
    private boolean wakerHoldingAReferenceCanStillSignal(MessageQueue.Factory factory, Interrupt interrupt)
            throws InterruptedException {
        DeliQueue q = queue(factory, new ManualClock(0));
        assertTrue(q.acquireWakeRef());
        Thread looper = new Thread(() -> {
            if (interrupt == Interrupt.BEFORE_TEARDOWN) {
                Thread.currentThread().interrupt();
            }
            q.teardown();
        }, "looper-teardown");
        looper.start();
        awaitParkedOrDone(looper);
        if (interrupt == Interrupt.WHILE_WAITING && looper.isAlive()) {
            looper.interrupt();
            awaitParkedOrDone(looper);
        }
        boolean signalled;
        try {
            q.signalWakeResource();
            signalled = true;
        } catch (IllegalStateException useAfterFree) {
            signalled = false;
        } finally {
            q.releaseWakeRef();
        }
        looper.join(TimeUnit.SECONDS.toMillis(5));
        assertFalse(looper.isAlive(), "teardown completes once the last reference is gone");
        assertTrue(DeliQueueTesting.isTornDown(q));
        return signalled;
    }

    /**
     * Waits until {@code t} has ended, or parks with its interrupt status clear (read first: the wait clears it
     * just before it parks, so a thread interrupted while parked counts once it has parked again); fails after 5 s.
     */
    private static void awaitParkedOrDone(Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.isAlive() && (t.isInterrupted() || t.getState() != Thread.State.WAITING)) {
            assertTrue(System.nanoTime() < deadline, t.getName() + " neither parked nor ended: " + t.getState());
            Thread.onSpinWait();
        }
    }
}
