package org.deliqueue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * Seeded bugs: each constant makes a {@link DeliQueue} with exactly one protocol step broken, by a subclass that
 * overrides that step alone. They are the negative controls of every checker: a checker that stops catching the
 * mutants it is listed for fails its own tests. Production code never refers to this class (it is compiled with
 * the tests and shipped in the test-jar).
 *
 * <p>{@link #detection} says what is expected to catch each one in the impl module's own tests:
 * {@link Detection#CONFORMANCE} mutants fail the conformance suite ({@code MutantDetectionTest} asserts it),
 * {@link Detection#SCRIPTED} ones fail a test that scripts the bad interleaving ({@code ScriptedInterleavingTest}),
 * and {@link Detection#MODEL_CHECKER} ones need a checker that controls the schedule or the memory model; the
 * reason says which obligation each breaks. The checker modules use all of them as negative controls.
 */
public enum Mutant implements MessageQueue.Factory {

    /**
     * The push loop reads {@code top} and writes it back without CAS: two concurrent pushes lose one node. The
     * write records no trace event (the step it replaces is the CAS).
     */
    NON_ATOMIC_PUSH(Detection.CONFORMANCE, "NoLostMessage",
            "ExactlyOnce/NoLostMessage: the stress test counts a lost message",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean casTop(Message t, Message node) {
                top = node; // BUG: a plain volatile write, not a CAS: a push since the read of t is lost
                return true;
            }
        }),

    /** Delivery checks REMOVED then sets it, instead of one CAS: a racing remover and the Looper both win. */
    DELIVER_WITHOUT_REMOVED_CAS(Detection.MODEL_CHECKER, "ExactlyOnce",
            "ExactlyOnce: the window between check and set is a few "
            + "instructions wide; Lincheck/JPF schedule into it, a stress test on 2 cores rarely does",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean claimForDelivery(Message m) {
                if (isRemoved(m)) {
                    return false;
                }
                m.flags |= Message.FLAG_REMOVED | Message.FLAG_DELIVERED; // BUG: check-then-act, not a CAS
                return true;
            }
        }),

    /** The heap compares by {@code signum(a - b)}, as upstream: wrong once the difference overflows. */
    OVERFLOWING_COMPARATOR(Detection.CONFORMANCE, "DeliveryOrder",
            "DeliveryOrder: the extreme-when ordering test",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            MessageHeap newHeap() {
                return new MessageHeap() {
                    @Override
                    int compare(long whenA, long seqA, long whenB, long seqB) {
                        // BUG: the subtractions overflow for extreme values
                        return Long.signum(whenA - whenB) * 2 + Long.signum(seqA - seqB);
                    }
                };
            }
        }),

    /** Unlink clears the unlinked message's {@code next}: a traversal standing on it stops early. */
    UNLINK_CLEARS_NEXT(Detection.SCRIPTED, "TraversalComplete",
            "TraversalComplete: a traversal standing on the message the Looper "
            + "unlinks stops there (ScriptedInterleavingTest); random stress rarely lands on it",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void splice(Message m) {
                super.splice(m);
                FieldAccess.spNext(m, null); // BUG: stale traversals lose their way back
            }
        }),

    /** Teardown sets TEARDOWN and frees at once, without waiting for wakers holding a reference (hook awaitWakersGone). */
    TEARDOWN_WITHOUT_WAIT(Detection.SCRIPTED, "NoUseAfterTeardown",
            "NoUseAfterTeardown: a waker holding a reference signals a freed "
            + "resource (ScriptedInterleavingTest); random stress rarely lands in that window",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void awaitWakersGone() {
                // BUG: no wait for the count to drain: teardown frees the resource under a waker's reference
            }
        }),

    /**
     * The teardown wait ends when the Looper is interrupted, as an interruptible wait would: an interrupt that is
     * pending at teardown, or comes while it waits, frees the resource under a waker's reference.
     */
    TEARDOWN_WAIT_ENDS_ON_INTERRUPT(Detection.SCRIPTED, "NoUseAfterTeardown",
            "NoUseAfterTeardown: the Looper, interrupted, tears down while a waker holds a reference; the waker's "
            + "signal finds the resource freed (ScriptedInterleavingTest); no stress test interrupts the Looper in "
            + "that window",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean wakersGone(long c) {
                // BUG: an interrupt ends the wait, though a waker still holds a reference
                return super.wakersGone(c) || Thread.currentThread().isInterrupted();
            }
        }),

    /**
     * The Looper parks right after publishing ASLEEP, without re-checking {@code top} and {@code freelist}. Traced,
     * its sleep logs the publication and then the park, with no re-check between them.
     */
    LOST_WAKEUP(Detection.SCRIPTED, "NoLostWakeup",
            "NoLostWakeup: a push between the Looper's sweep and its ASLEEP write is "
            + "stranded (ScriptedInterleavingTest); random stress rarely lands there on 2 cores",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean unchangedSinceSweep() {
                return true; // BUG: no re-check of top/freelist: a push since the sweep that saw AWAKE is not seen
            }
        }),

    /** The sweep forgets the back-link of the boundary (the previous sweep's top). */
    SWEEP_SKIPS_BACKLINKS(Detection.CONFORMANCE, "BackLinksConsistent",
            "BackLinksConsistent: removing or delivering that message "
            + "later fails (no back-link to splice through)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void linkBack(Message n, Message m) {
                if (n != swept) { // BUG: off by one at the end of the walk
                    super.linkBack(n, m);
                }
            }
        }),

    /** A remover publishes its tombstone chain with a plain write: a racing push or drain loses a chain. */
    FREELIST_PLAIN_PUSH(Detection.MODEL_CHECKER, "HeapStackConsistent",
            "HeapStackConsistent: a lost chain leaves tombstones linked "
            + "forever (a leak no operation's result shows); jcstress's FreelistVsDrain twin counts them",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void pushFreelist(Message head, Message tail, int nodes) {
                tail.nextFree = FieldAccess.lvFreelist(this);
                freelist = head; // BUG: a plain volatile write, not a CAS
            }
        }),

    /** The Looper takes the freelist with a read, then a store of null: a chain pushed in between is lost. */
    FREELIST_DRAIN_READ_THEN_CLEAR(Detection.MODEL_CHECKER, "HeapStackConsistent, GoneNodesUnlinkedAtRest",
            "HeapStackConsistent: a remover's chain pushed between the "
            + "Looper's read of the freelist and its store of null never reaches a drain: its tombstones and "
            + "descriptor stay linked for good (a held-out audit's F09; jcstress's FreelistVsDrain twin counts them)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            Message takeFreelist() {
                Message m = FieldAccess.loFreelist(this);
                freelist = null; // BUG: not one exchange
                return m;
            }
        }),

    /** The drain unlinks what a removal took but not its descriptor (the spec's twin: MC_DRAIN_SKIPS_NEWEST). */
    DRAIN_KEEPS_DESCRIPTORS(Detection.STRUCTURE, "GoneNodesUnlinkedAtRest",
            "Every finished removal leaves its descriptor linked for good, "
            + "walked by every later removal and query (GoneNodesUnlinkedAtRest: DeliQueueTesting.checkInvariants "
            + "once the Looper has drained; DeliQueueStructureTest: the stack grows by a node per debounced event)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void unlink(Message m) {
                if (!isRemoval(m)) { // BUG: a drained descriptor is never unlinked
                    super.unlink(m);
                }
            }
        }),

    /** Once the quit sentinel is swept, what is due is judged by the Looper's clock reading alone (spec: DueBy). */
    DUE_BY_FORGETS_QUIT(Detection.MODEL_CHECKER, "Refinement",
            "Refinement (quitSafely): a claim lost to a removal sends the "
            + "Looper round again with its old clock reading; when that sweep meets the sentinel of a quitSafely "
            + "taken after a tick, what the quit kept is not due by the reading, and the Looper tears down over it. "
            + "Needs the tick, the removal and the quit between the Looper's reading and its claim (JPF (m) "
            + "QuitSafelyBesideRemoval; spec twin MC_DUE_BY_FORGETS_QUIT)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            long dueBy(long now) {
                return now; // BUG: the quit's later time is forgotten
            }
        }),

    /** Removers never wake the Looper to unlink what they leave on the stack (the design before the freelist's wake). */
    REMOVALS_PILE_UP(Detection.STRUCTURE, "",
            "Removals behind a sleeping Looper stay linked: a debounce from another "
            + "thread grows the stack by two nodes per event until the Looper's deadline (DeliQueueStructureTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean handOverWakes(int size, int nodes) {
                return false; // BUG: however long the freelist grows, a sleeping Looper is never woken to drain it
            }
        }),

    /** hasMessages walks once from one read of {@code top}, as upstream. */
    SINGLE_PASS_TRAVERSAL(Detection.SCRIPTED, "Refinement",
            "Refinement (linearizability of hasMessages): a match delivered "
            + "behind the walk while another is pushed in front of it is missed though one is always pending "
            + "(ScriptedInterleavingTest); the conformance suite never interleaves that way",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean traverse(Predicate<Message> visitor) {
                List<Message> owners = new ArrayList<>();
                // BUG: no second pass over what was pushed during the walk
                for (Message m = FieldAccess.lvTop(this); m != null; m = FieldAccess.lpNext(m)) {
                    if (isOwnerNode(m)) {
                        owners.add(m);
                    } else if (earliestOwner(owners, m) == null && visitor.test(m)) {
                        return true;
                    }
                }
                return false;
            }
        }),

    /** A producer decides whether a barrier holds its message back by the clock, not by the protocol's order. */
    WAKE_BY_CLOCK(Detection.CONFORMANCE, "NoLostWakeup",
            "NoLostWakeup: a front-of-queue post at uptime 0 sorts before a barrier "
            + "posted at uptime 0, yet the Looper parked behind the barrier is not woken (ClockAndFaultsTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean heldBackByBarrier(Message m) {
                // BUG: "sorts before the barrier" approximated by "due before now": false at uptime 0
                return !m.isAsynchronous() && m.when >= clock.uptimeMillis();
            }
        }),

    /** A producer treats an asynchronous message as held back by the barrier the Looper sleeps behind. */
    ASYNC_HELD_BY_BARRIER(Detection.CONFORMANCE, "NoLostWakeup",
            "NoLostWakeup: an async post past a barrier never wakes the Looper "
            + "parked behind it (HandlerLooperTest's barrier ping-pong)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean heldBackByBarrier(Message m) {
                Message barrier = FieldAccess.laSleepBarrier(this);
                return barrier != null && !sortsBefore(m, barrier); // BUG: async messages are not exempt
            }
        }),

    /** removeSyncBarrier does not wake a Looper parked behind the barrier it removed. */
    BARRIER_REMOVAL_WITHOUT_WAKE(Detection.CONFORMANCE, "NoLostWakeup",
            "NoLostWakeup: the sync messages behind a removed barrier "
            + "wait until something else wakes the Looper",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void wakeIfAsleep(long mask) {
                if (mask != (ASLEEP | BLOCKED)) { // BUG: the barrier removal's wake is skipped
                    super.wakeIfAsleep(mask);
                }
            }
        }),

    /** removeSyncBarrier wakes a Looper parked behind the barrier only if it parked with no deadline. */
    REMOVAL_WAKE_SKIPS_TIMED_PARK(Detection.CONFORMANCE, "NoLostWakeup",
            "NoLostWakeup: behind the barrier with an async message due later, "
            + "the Looper sleeps until that message's time past the sync messages the removal freed (the held-out "
            + "spec audit's S21; TLC MC_REMOVAL_WAKE_SKIPS_TIMED_PARK)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void wakeIfAsleep(long mask) {
                // BUG: a timed park "wakes by itself", so the barrier removal leaves it to its deadline
                if (mask != (ASLEEP | BLOCKED) || FieldAccess.lvWaitWord(this) >>> 2 >= MAX_DEADLINE) {
                    super.wakeIfAsleep(mask);
                }
            }
        }),

    /** quit does not wake a Looper that sleeps: it tears down only when something else wakes it. */
    QUIT_WITHOUT_WAKE(Detection.CONFORMANCE, "QuitTerminates",
            "QuitTerminates: a Looper asleep without deadline never sees the quit",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void wakeIfAsleep(long mask) {
                if (mask != ASLEEP) { // BUG: the quit's wake is skipped
                    super.wakeIfAsleep(mask);
                }
            }
        }),

    /** quitSafely reads the clock once, before its first read of {@code top} (upstream edge case 5). */
    QUIT_TIME_BEFORE_TOP(Detection.CONFORMANCE, "Refinement",
            "Refinement (quitSafely): a post that reads a later clock and pushes "
            + "before the sentinel returns true and is then dropped (ClockAndFaultsTest scripts the clock)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void quitQueue(boolean safe) {
                Message sentinel = newQuitSentinel(safe);
                sentinel.when = clock.uptimeMillis(); // BUG: pushes may still land below the sentinel after this
                if (push(sentinel)) { // pushed as a message is: its time is not read again
                    wakeIfAsleep(ASLEEP);
                }
            }
        }),

    /** A remover leaves the payload of what it removed in place until the Looper drains the freelist. */
    REMOVAL_KEEPS_PAYLOAD(Detection.CONFORMANCE, "PayloadReleased",
            "PayloadReleased: behind a sleeping Looper, a removed message keeps "
            + "its obj reachable (ClockAndFaultsTest, with the garbage collector); Lincheck's validation sees it",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void releasePayload(Message m) {
                // BUG: obj, callback and target stay reachable from the stack
            }
        }),

    /**
     * A removal's selection lets its predicate's exception out: the removal takes nothing, though the contract is
     * that a throwing message counts as "no match" and the removal completes before the throw is rethrown.
     */
    REMOVAL_ABORTS_ON_THROW(Detection.CONFORMANCE, "Refinement",
            "Refinement (a removal whose equals throws): the messages it "
            + "matched before the throw stay in the queue (ThrowingUserCodeTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            Selection newSelection(Predicate<Message> p) {
                return new Selection(p) {
                    @Override
                    boolean ask(Message m) {
                        return predicate.test(m); // BUG: a throw ends the selection, and the removal with it
                    }
                };
            }
        }),

    /**
     * The design before user code was confined to its caller: the descriptor keeps the removal's predicate, and
     * whoever asks whether it covers a message - the Looper for its heap heads and the quit's drop, any thread
     * resolving a reservation, queries, the remover's own walk - runs the predicate again.
     */
    LOOPER_ASKS_PREDICATE(Detection.CONFORMANCE, "UserCodeOnCaller, NoLostMessage",
            "UserCodeOnCaller, NoLostMessage: an equals that answers yes on the "
            + "Looper after no on the remover loses the message (UserCodeTest); an equals that takes a lock the "
            + "remover holds blocks the Looper (UserCodeTest's deadlock)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            private final java.util.Map<Message, Predicate<Message>> predicates =
                    java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

            @Override
            void pushDescriptor(Message d, Selection s) {
                predicates.put(d, s.predicate); // BUG: user code travels with the descriptor
                super.pushDescriptor(d, s);
            }

            @Override
            boolean covers(Message o, Message m) {
                Predicate<Message> p = isRemoval(o) && m.ticket < o.ticket ? predicates.get(o) : null;
                if (p == null) {
                    return super.covers(o, m);
                }
                try {
                    return p.test(m); // BUG: asked again, on whichever thread asks
                } catch (Throwable t) {
                    return false;
                }
            }
        }),

    /** The Looper parks with the interrupt status set: LockSupport.park returns at once, and the Looper spins. */
    PARK_KEEPS_INTERRUPT(Detection.CONFORMANCE, "",
            "Interrupts are ignored, never spun on: an interrupted idle Looper "
            + "burns a core (ClockAndFaultsTest measures its CPU time while idle)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void park(long deadline) {
                // BUG: no clearInterrupt(): park returns at once while the interrupt status is set
                if (deadline >= MAX_DEADLINE) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, Math.max(0, deadline - clock.uptimeMillis()) * 1_000_000L);
                }
            }
        }),

    /**
     * The queue remembers that its Looper was interrupted and never forgets: every later return from next() raises
     * the interrupt again, even after a handler cleared it (a pending flag that is set and never reset).
     */
    INTERRUPT_STICKS(Detection.CONFORMANCE, "",
            "Interrupts are user code's once handed back: a handler that cleared "
            + "the status sees it again at a later dispatch (ClockAndFaultsTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            private boolean everInterrupted;

            @Override
            Message nextIgnoringInterrupts() {
                everInterrupted |= Thread.currentThread().isInterrupted();
                Message m = super.nextIgnoringInterrupts();
                everInterrupted |= Thread.currentThread().isInterrupted();
                if (everInterrupted) {
                    Thread.currentThread().interrupt(); // BUG: raised again although user code cleared it
                }
                return m;
            }

            @Override
            void sleep(long deadline, Message barrier) {
                everInterrupted |= Thread.currentThread().isInterrupted();
                super.sleep(deadline, barrier);
            }
        }),

    /** Idle handlers run while an interrupt the Looper's wait cleared is still held back for next()'s return. */
    IDLE_HANDLERS_MISS_INTERRUPT(Detection.CONFORMANCE, "",
            "Interrupts are user code's: an idle handler run after the "
            + "Looper was interrupted while blocked behind a barrier does not see it (ClockAndFaultsTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void runIdleHandlers() {
                runEachIdleHandler(); // BUG: the interrupt parkUntil cleared is not set again first
            }
        }),

    /** A walk asks its predicate about the messages that predicate posted itself: the design before 2026-11-26. */
    ASKS_ABOUT_OWN_POSTS(Detection.CONFORMANCE, "",
            "A removal or query whose predicate posts whenever it is asked never "
            + "returns: each post moves top, and the walk asks about it too (UserCodeTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean postedWithin(Walk w, Message m) {
                return false; // BUG: the walk's own posts are asked about like any other thread's
            }
        }),

    /** Removal tombstones message by message with no descriptor: the design before removal became atomic. */
    BULK_REMOVAL_PER_MESSAGE(Detection.MODEL_CHECKER, "Refinement",
            "Refinement (atomic removal): off the Looper a removal "
            + "matching several messages interleaves with deliveries, and it takes messages pushed after a "
            + "concurrent removal saw the first one gone (Lincheck)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            int removeMatching(Predicate<Message> p) {
                // BUG: each message is taken by its own CAS; nothing orders the whole removal
                Message[] chain = new Message[2];
                int[] count = {0};
                traverse(m -> {
                    if (p.test(m) && isLive(m) && DeliQueueTesting.markRemoved(m)) {
                        m.nextFree = chain[0];
                        chain[1] = chain[1] == null ? m : chain[1];
                        chain[0] = m;
                        count[0]++;
                    }
                    return false;
                });
                if (chain[0] != null) {
                    pushFreelist(chain[0], chain[1], count[0]);
                }
                return count[0];
            }
        }),

    /** The Looper delivers with one REMOVED CAS, without reserving: a removal pushed after its sweep is ignored. */
    UNRESERVED_DELIVERY(Detection.MODEL_CHECKER, "Refinement",
            "Refinement (atomic removal): a removal pushed between the "
            + "Looper's sweep and its CAS covers the message, which is delivered anyway (Lincheck)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean claimForDelivery(Message m) {
                // BUG: no reservation, no look at top since the sweep
                for (int f = FieldAccess.lvFlags(m); (f & Message.FLAG_REMOVED) == 0; f = FieldAccess.lvFlags(m)) {
                    if (FieldAccess.casFlags(m, f, f | Message.FLAG_REMOVED | Message.FLAG_DELIVERED)) {
                        return true;
                    }
                }
                return false;
            }
        }),

    /**
     * The Looper's half of the wait word's Dekker pair one step weaker: ASLEEP published with a release store and
     * {@code top} and {@code freelist} re-read with acquire loads, instead of volatile accesses.
     */
    SLEEP_RELEASE_ACQUIRE(Detection.MODEL_CHECKER, "NoLostWakeup",
            "NoLostWakeup (memory ordering): the re-check may read top and "
            + "freelist before the ASLEEP store is visible (x86-64's store buffer does it), while the producer reads "
            + "the old wait word after its CAS: neither side sees the other and the Looper parks past the push "
            + "(jcstress SleepVsPush, SleepVsFreelist); checkers of sequentially consistent executions cannot see it",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void publishAsleep(long word) {
                FieldAccess.soWaitWord(this, word); // BUG: release, not volatile
            }

            @Override
            Message recheckTop() {
                return FieldAccess.laTop(this); // BUG: an acquire load, which may pass the release store above
            }

            @Override
            Message recheckFreelist() {
                return WeakModes.laFreelist(this); // BUG: likewise
            }
        }),

    /** A traversal (a query's, or a removal's selection) without the load fence before each re-read of {@code top}. */
    TRAVERSE_WITHOUT_FENCE(Detection.MODEL_CHECKER, "Refinement",
            "Refinement (hasMessages' false answer, memory ordering): a payload "
            + "read as cleared by a removal may be performed after the next read of top, which then still shows no "
            + "descriptor, and the false answer has no linearization point. Only a weak machine (arm64) can reorder "
            + "the two loads, and only rarely (the removal must fit between them): jcstress HasMessagesVsRemoval",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void fenceBeforeRecheck() {
                // BUG: no FieldAccess.loadFence() before the next read of top
            }
        }),

    /**
     * A reservation is resolved for the newest owner that covers the message instead of the earliest: the first
     * one met walking down from {@code top}.
     */
    RESOLVE_TAKES_LATEST_OWNER(Detection.SCRIPTED, "RemovalReturnsItsSet, Refinement",
            "RemovalReturnsItsSet, Refinement: two owners (a removal, then a "
            + "second removal or the quit) pushed while the Looper holds a reservation on a message both cover; the "
            + "first removal linearized while the message was queued, yet the later owner gets it and the first "
            + "removal returns without it (RemovalQuitRacesTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            Message ownerSinceClaim(Message m) {
                long floor = m.claimTop == null ? 0 : m.claimTop.ticket;
                for (Message n = FieldAccess.lvTop(this); n != null && n.ticket > floor; n = FieldAccess.lpNext(n)) {
                    if (isOwnerNode(n) && covers(n, m)) {
                        return n; // BUG: the first owner met walking down is the newest, not the earliest
                    }
                }
                return null;
            }
        }),

    /** A removal descriptor pushed above a quitting {@code top} does not carry the QUITTING flag on. */
    DESCRIPTOR_FORGETS_QUIT(Detection.CONFORMANCE, "NoPushAfterQuit",
            "NoPushAfterQuit: after quitSafely, a removal that takes "
            + "something pushes a descriptor that is not quitting, and a post on it is accepted after the quit "
            + "(RemovalQuitRacesTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean carriesQuit(Message t) {
                return false; // BUG: no FLAG_QUITTING, whatever t is
            }
        }),

    /** Only the Looper's drop honours the quit: for every other owner test the quit sentinel covers nothing. */
    QUIT_OWNS_NOTHING(Detection.CONFORMANCE, "Refinement",
            "Refinement: after quitSafely a removal takes, and a query finds, a "
            + "message the quit dropped; a reservation resolved after quit() delivers a message the quit doomed "
            + "(RemovalQuitRacesTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean covers(Message o, Message m) {
                return !isQuitSentinel(o) && super.covers(o, m); // BUG: the quit owns what it drops from its push
            }
        }),

    /** removeSyncBarrier returns once its removal ran, whether or not that removal took the barrier. */
    BARRIER_REMOVED_TWICE(Detection.MODEL_CHECKER, "Refinement",
            "Refinement (removeSyncBarrier): two threads removing the same "
            + "token both find the barrier before either removes it, and both return normally; one of them must throw "
            + "(the token was removed). Sequentially identical to DeliQueue: only a checker of interleavings sees it",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            public void removeSyncBarrier(int token) {
                Message barrier = firstBarrier(token);
                if (barrier == null) {
                    throw new IllegalStateException("The specified message queue synchronization "
                            + " barrier token has not been posted or has already been removed.");
                }
                removeMatching(m -> m == barrier); // BUG: its count is not checked: another removal may have won
                wakeIfAsleep(ASLEEP | BLOCKED);
            }
        }),

    /** Removers wake a sleeping Looper only when the freelist's size is exactly the wake size. */
    FREELIST_WAKE_AT_EXACT_SIZE(Detection.STRUCTURE, "",
            "Removals behind a sleeping Looper pile up when each hands over "
            + "a chain whose length steps over the wake size: removals of two messages (three nodes each) reach 63 "
            + "then 66 and never wake the Looper (DeliQueueStructureTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean handOverWakes(int size, int nodes) {
                return size == FREELIST_WAKE_SIZE; // BUG: a chain can step over it
            }
        }),

    /** Removals never mark their descriptor finished: walks pass every tombstone and descriptor one by one. */
    REMOVALS_NEVER_FINISH(Detection.STRUCTURE, "",
            "A debounce behind a busy Looper (one tombstone and one descriptor "
            + "per event, none unlinked until the Looper returns) makes every walk step over all of them: the "
            + "events' cost grows quadratically (DeliQueueStructureTest measures the walk; bench/ DebounceBench)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void finish(Message d) {
                // BUG: never finished: no walk may jump over the dead run below d
            }
        }),

    /** The dead run below a finished removal takes the quit sentinel for a dead node (it carries REMOVED too). */
    SKIP_OVER_QUIT_SENTINEL(Detection.CONFORMANCE, "Refinement",
            "Refinement: after quitSafely and a removal, walks jump over the "
            + "sentinel that owns what the quit dropped, and a query finds a dropped message (RemovalAfterQuitTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean isDeadMessage(int flags) {
                // BUG: the quit sentinel is REMOVED, but it is an owner, not dead
                return (flags & Message.FLAG_REMOVED) != 0 && (flags & Message.FLAG_REMOVAL) == 0;
            }
        }),

    /** A removal's collect ends below its newest verdict instead of its oldest. */
    COLLECT_STOPS_AT_NEWEST(Detection.CONFORMANCE, "RemovalReturnsItsSet",
            "RemovalReturnsItsSet: a removal that matched two messages takes "
            + "the one posted last and returns without the other, which its descriptor still owns, so the Looper "
            + "never delivers it either (MessageQueueConformanceTest, Lincheck; TLC MC_COLLECT_STOPS_AT_NEWEST)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            long oldestVerdict(Message descriptor) {
                long[] verdicts = verdictsOf(descriptor);
                return verdicts[verdicts.length - 1]; // BUG: the newest: the verdicts are ascending
            }
        }),

    /** A finished removal publishes FINISHED before it writes where its dead run ends. */
    SKIP_PUBLISHED_AFTER_FINISH(Detection.MODEL_CHECKER, "TraversalComplete",
            "TraversalComplete: a walk that reads FINISHED between the "
            + "two writes jumps to a skip still null and ends, missing every live message below: a query answers "
            + "false, a removal takes nothing (an interleaving inside the remover's finish: Lincheck, jcstress)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void finish(Message d) {
                int f = FieldAccess.lvFlags(d);
                FieldAccess.casFlags(d, f, f | Message.FLAG_FINISHED);
                d.skip = endOfDeadRun(d); // BUG: written after the CAS that should publish it
            }
        }),

    /** A negative {@code when} sorts as front of the queue: messages at one negative time come out LIFO. */
    NEGATIVE_WHEN_AT_FRONT(Detection.CONFORMANCE, "DeliveryOrder",
            "DeliveryOrder: three messages at one negative uptime come out "
            + "newest first; only when 0 is the front of the queue (MessageQueueConformanceTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            long insertSeqOf(Message m) {
                return m.when <= 0 ? -m.ticket : m.ticket; // BUG: <= where only 0 means front of the queue
            }
        }),

    /** A queue whose head is a barrier due exactly now counts as idle. */
    IDLE_BEHIND_DUE_BARRIER(Detection.CONFORMANCE, "",
            "Idle handlers run only when nothing is due: with the clock "
            + "standing at a barrier's time, the idle handlers run while the barrier blocks the queue "
            + "(HandlerLooperTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean isIdleAt(long now) {
                Message sync = syncHeap.peek();
                Message async = asyncHeap.peek();
                // BUG: >= where a head due exactly now is not idle
                return (sync == null || sync.when >= now) && (async == null || async.when >= now);
            }
        }),

    /** Of the owner nodes that cover a message, the latest (highest ticket) is taken for the earliest. */
    EARLIEST_OWNER_IS_LATEST(Detection.SCRIPTED, "RemovalReturnsItsSet, ExactlyOnce",
            "RemovalReturnsItsSet, ExactlyOnce: two removals cover one "
            + "message and the Looper sweeps both descriptors before either collects; it tombstones the message for "
            + "the second, which skips it because the first covers it, and the first skips it because the second "
            + "took it: both return 0 and the message is gone (ScriptedInterleavingTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            Message earliestOwner(List<Message> owners, Message m) {
                Message owner = null;
                for (Message o : owners) {
                    if ((owner == null || o.ticket > owner.ticket) && covers(o, m)) { // BUG: > picks the latest
                        owner = o;
                    }
                }
                return owner;
            }
        }),

    /** The Looper's drop at quit takes every message the quit dooms, even one a removal pushed earlier owns. */
    QUIT_DROP_OVERRIDES_REMOVAL(Detection.SCRIPTED, "RemovalReturnsItsSet, Refinement",
            "RemovalReturnsItsSet, Refinement: a removal pushed before "
            + "quit() took a message, and the Looper sweeps both before the remover collects; the drop at quit "
            + "tombstones the message for the quit and the removal returns 0 (ScriptedInterleavingTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            Message ownerAtQuit(Message m) {
                return quitSentinel; // BUG: no pending removal pushed before the quit is asked
            }
        }),

    /** A query counts a reserved message as gone without resolving the reservation. */
    QUERY_SKIPS_RESERVATION(Detection.SCRIPTED, "Refinement",
            "Refinement (hasMessages): while the Looper holds a reservation, a "
            + "query answers false, and then the same thread's removal takes the message (the delivery is refused): "
            + "the message was absent, then removed (ScriptedInterleavingTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean isLive(Message m) {
                // BUG: RESERVED is not gone until resolved; the query must resolve it first
                return (FieldAccess.lvFlags(m) & (Message.FLAG_REMOVED | Message.FLAG_RESERVED)) == 0;
            }
        }),

    /** A remover's collect ignores the earlier owner nodes it walks past: it takes what it reaches first. */
    REMOVAL_IGNORES_OWNER(Detection.SCRIPTED, "RemovalReturnsItsSet",
            "RemovalReturnsItsSet: two removals cover one message and the later "
            + "collects first: it takes the message the earlier one's push took, and the earlier returns without it "
            + "(ScriptedInterleavingTest; the spec's twin is MC_REMOVAL_IGNORES_OWNER)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean leftBefore(Message m, Message descriptor, List<Message> passed) {
                return super.leftBefore(m, descriptor, null); // BUG: the owner nodes passed are forgotten
            }
        }),

    /** The Looper's claim takes the {@code top} it reads now as its floor, not the {@code top} it swept. */
    CLAIM_FLOOR_AT_TOP(Detection.SCRIPTED, "RemovalReturnsItsSet",
            "RemovalReturnsItsSet: a removal pushed between the Looper's sweep and its "
            + "claim is below the floor, so the resolution delivers a message that removal took at its push "
            + "(ScriptedInterleavingTest). Each call's result stays linearizable (the delivery then linearizes at the "
            + "claim), so only a check of the protocol's steps sees it",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            Message claimFloor() {
                return FieldAccess.lvTop(this); // BUG: the floor must be what the Looper swept
            }
        }),

    /** A finished removal's dead run passes a reserved message, as if it had already left. */
    SKIP_OVER_RESERVATION(Detection.SCRIPTED, "SkipsPassOnlyGone",
            "SkipsPassOnlyGone: a removal finishing while the Looper holds a "
            + "reservation below it records a skip past the reserved message, which has not left the queue until "
            + "it is resolved (ScriptedInterleavingTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean isDeadMessage(int flags) {
                return super.isDeadMessage(flags) || (flags & Message.FLAG_RESERVED) != 0; // BUG: not gone yet
            }
        }),

    /** postSyncBarrier reads the next token, then writes it back incremented: two posts at once share a token. */
    BARRIER_TOKEN_READ_THEN_WRITE(Detection.MODEL_CHECKER, "Refinement",
            "Refinement (each barrier its own token): two threads posting "
            + "barriers at once both read the counter before either writes it, and one poster's removeSyncBarrier "
            + "may remove the other's barrier, releasing what that one must still hold back. The window is a few "
            + "instructions (jcstress BarrierTokens, JPF BarrierTokens; a held-out audit's bug)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            int takeBarrierToken() {
                int token = nextBarrierToken.get();
                nextBarrierToken.set(token + 1); // BUG: a read, then a write: not one atomic increment
                return token;
            }
        }),

    /** What quit() drops keeps its payload, target and callback. */
    QUIT_DROP_KEEPS_PAYLOAD(Detection.CONFORMANCE, "",
            "What quit drops is given back, its payload cleared (not an obligation "
            + "of the spec, whose PayloadReleased is about removals): a dropped message keeps user objects reachable "
            + "(MessageQueueConformanceTest; a held-out audit's bug)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void retireDropped(Message m) {
                // BUG: obj, target and callback stay reachable from the message the application may hold
            }
        }),

    /**
     * The Looper stores the wait word, then the barrier it sleeps behind: a producer that reads the new word may
     * read the barrier of an earlier sleep.
     */
    SLEEP_BARRIER_AFTER_ASLEEP(Detection.MODEL_CHECKER, "NoLostWakeup",
            "NoLostWakeup (memory ordering): a producer that reads the "
            + "ASLEEP|BLOCKED word of a sleep behind one barrier may read the barrier of the sleep before, which "
            + "holds back its message where this one does not, and leave the Looper asleep; the re-check misses the "
            + "push only if its read of top passes the barrier's store (x86-64's store buffer does it). "
            + "Sequentially consistent checkers cannot see it: jcstress SleepVsPush (a held-out audit's bug)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void publishSleep(Message barrier, long word) {
                publishAsleep(word);
                FieldAccess.soSleepBarrier(this, barrier); // BUG: after the word it must be read with
            }
        }),

    /** Teardown sets its tag by a read of the refcount, then a store: not one CAS. */
    TEARDOWN_TAG_READ_THEN_WRITE(Detection.MODEL_CHECKER, "NoUseAfterTeardown, QuitTerminates",
            "NoUseAfterTeardown, QuitTerminates: a reference a waker takes "
            + "between teardown's read and its store is wiped out, and teardown frees the resource under it; one "
            + "dropped between them comes back, and teardown waits for ever. The window is a few instructions "
            + "(jcstress RefcountVsTeardown, JPF QuitVsWaker; a held-out audit's bug)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            long tagTeardown() {
                long c = FieldAccess.loWakeRefs(this);
                wakeRefs = c | TEARDOWN; // BUG: a read, then a store: a waker's CAS in between is lost
                return c;
            }
        }),

    /** A claim lost to the quit leaves the message linked, its payload in place. */
    CLAIM_LEAVES_QUIT_DROP(Detection.CONFORMANCE, "GoneNodesUnlinkedAtRest",
            "GoneNodesUnlinkedAtRest: a quit() pushed between the Looper's sweep and its claim owns the message the "
            + "claim chose, which has left its heap; the drop at the next sweep does not meet it, so it stays linked "
            + "with its payload for good (ConformanceStressTest's quit race, which checks the stack at rest; a "
            + "held-out audit's bug)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void dropIfQuitOwns(Message m) {
                // BUG: neither unlinked nor retired
            }
        }),

    /** The enqueue's IN_USE claim reads the flags, then stores them with IN_USE: not one CAS (upstream's check). */
    CLAIM_CHECK_THEN_SET(Detection.MODEL_CHECKER, "ExactlyOnce",
            "ExactlyOnce: two threads enqueuing the same message both read it free before either stores IN_USE, "
            + "both claims pass and the message is pushed twice (linked to itself). The window is a few "
            + "instructions: the conformance suite's same-message race finds it only sometimes under load "
            + "(jcstress SameMessageEnqueue; a held-out audit's G16)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void claimForEnqueue(Message msg, int extraFlags) {
                int f = FieldAccess.lvFlags(msg);
                if ((f & Message.FLAG_IN_USE) != 0) {
                    throw new IllegalStateException(msg + " This message is already in use.");
                }
                // BUG: a read, then a store: a racing claim between the two passes as well
                msg.flags = f | Message.FLAG_IN_USE | extraFlags;
            }
        }),

    /**
     * A query remembers only the last owner node it passed: a match that a descriptor passed earlier owns counts
     * as queued once the walk has passed another owner (the spec's MC_QUERY_REMEMBERS_LAST_OWNER, the held-out
     * spec audit's S61).
     */
    QUERY_REMEMBERS_LAST_OWNER(Detection.SCRIPTED, "HasMessagesLinearizable",
            "HasMessagesLinearizable: a query that starts after two removals pushed their descriptors, the first "
            + "pushed covering another message, walks past both before either collects and answers true for the "
            + "message the second one's removal took at its push (ScriptedInterleavingTest). Through the API alone "
            + "the answer overlaps a removal that has not returned, so a history cannot show it",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void notePassedOwner(Walk w, Message owner) {
                if (w instanceof Selection) {
                    super.notePassedOwner(w, owner);
                } else {
                    w.owners = new ArrayList<>(List.of(owner)); // BUG: the owners passed before are forgotten
                }
            }
        }),

    /**
     * A removal's collect ends below the least of its verdicts not yet REMOVED: an older verdict the Looper
     * tombstoned for it is left below the floor (the spec's MC_FLOOR_FROM_UNREMOVED_VERDICTS, the held-out spec
     * audit's S56).
     */
    FLOOR_FROM_UNREMOVED_VERDICTS(Detection.SCRIPTED, "RemovalReturnsItsSet",
            "RemovalReturnsItsSet: a removal selects an older and a newer message; the Looper, at its next poll, "
            + "tombstones the older for it (the head of its heap) and leaves the newer; the collect then stops "
            + "above the older, returns 1 for the 2 it took and never hands the older back to the Looper "
            + "(ScriptedInterleavingTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            long oldestVerdict(Message descriptor) {
                long oldest = super.oldestVerdict(descriptor);
                long floor = 0;
                for (Message n = FieldAccess.lpNext(descriptor); n != null && n.ticket >= oldest;
                        n = FieldAccess.lpNext(n)) {
                    if (!isOwnerNode(n) && covers(descriptor, n) && !isRemoved(n)) {
                        floor = n.ticket; // BUG: what the Looper tombstoned for this removal is not counted
                    }
                }
                return floor;
            }
        }),

    /**
     * The Looper looks for dead heads in the sync heap alone: an async message that a swept removal owns is taken
     * for live and delivered (the spec's MC_DEAD_HEAD_SYNC_ONLY).
     */
    DEAD_HEAD_SYNC_ONLY(Detection.SCRIPTED, "DeliveryOrder, RemovalReturnsItsSet",
            "DeliveryOrder, RemovalReturnsItsSet: a removal of an async message pushes its descriptor and pauses "
            + "before its collect; the Looper sweeps the descriptor and delivers the message it owns, and the "
            + "removal returns 0 (ScriptedInterleavingTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            Message liveHead(MessageHeap heap) {
                return heap == asyncHeap ? heap.peek() : super.liveHead(heap); // BUG: async heads taken for live
            }
        }),

    /**
     * A dead barrier at the head of the sync heap is tombstoned but left in the heap: the Looper's search for a live
     * head meets it again, for ever, and spins (the spec's MC_DEAD_BARRIER_STAYS_IN_HEAP, the held-out spec audit's
     * S20).
     */
    DEAD_BARRIER_STAYS_IN_HEAP(Detection.SCRIPTED, "EventualDelivery",
            "EventualDelivery: a barrier ahead of a due message; a removal of the barrier pushes its descriptor and "
            + "pauses before its collect; the Looper's poll sweeps the descriptor, tombstones the barrier for it and "
            + "spins on it, so the message behind it is never delivered (ScriptedInterleavingTest, in a JVM of its "
            + "own killed at a time limit; Lincheck's barrierRemovedUnderThePoll reports the hung Looper)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            void dropDeadHead(MessageHeap heap, Message h) {
                if (!h.isBarrier()) {
                    super.dropDeadHead(heap, h); // BUG: a dead barrier stays at the head
                }
            }
        }),

    /**
     * A query's re-read of {@code top} that finds an owner node there ends the walk without walking the new
     * segment, as if only a removal or a quit had come in (the spec's MC_RECHECK_TRUSTS_OWNER_ON_TOP, the held-out
     * spec audit's S53).
     */
    RECHECK_TRUSTS_OWNER_ON_TOP(Detection.SCRIPTED, "HasMessagesLinearizable",
            "HasMessagesLinearizable: while a query walks past x (what 1), another thread posts y (what 1) and a "
            + "third removes x; the re-read finds the removal's descriptor on top, above y, and the query answers "
            + "false though a what-1 message was queued at every instant of the call (ScriptedInterleavingTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean walkedAll(Walk w, Message t) {
                // BUG: an owner node on top may lie above a new match
                return super.walkedAll(w, t) || w.seen != null && !(w instanceof Selection) && isOwnerNode(t);
            }
        }),

    /**
     * A query answers false at the first match it finds REMOVED when it reads the flags again, though an older
     * match may still be queued below (the spec's MC_QUERY_FALSE_AT_REMOVED_MATCH, the spec audit's S43).
     */
    QUERY_FALSE_AT_REMOVED_MATCH(Detection.SCRIPTED, "HasMessagesLinearizable",
            "HasMessagesLinearizable: a and b (what 1) are queued; while the query's predicate runs on b, another "
            + "thread removes b; the query answers false though a was queued at every instant of the call "
            + "(ScriptedInterleavingTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean hasMatching(Predicate<Message> p) {
                boolean[] gaveUp = {false};
                return super.hasMatching(m -> {
                    if (gaveUp[0] || !p.test(m)) {
                        return false;
                    }
                    gaveUp[0] = isRemoved(m); // BUG: a removed match ends the search: no later message matches
                    return !gaveUp[0];
                });
            }
        }),

    /**
     * A removal's selection skips what a passed quit sentinel dooms, but asks its predicate about what a passed
     * descriptor owns (the spec's MC_SELECT_ASKS_ABOUT_OWNED, the spec audit's S42).
     */
    SELECT_ASKS_ABOUT_OWNED(Detection.SCRIPTED, "UserCodeOnCaller",
            "UserCodeOnCaller: a removal pushes its descriptor over a and pauses before it collects; a second removal's "
            + "key is asked about a, which left the queue at the first one's push (ScriptedInterleavingTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean takenByPassedOwner(Walk w, Message m) {
                if (!(w instanceof Selection)) {
                    return super.takenByPassedOwner(w, m);
                }
                // BUG: only the quit counts: what an earlier removal took at its push is asked about again
                return w.owners != null && w.owners.stream().anyMatch(o -> isQuitSentinel(o) && covers(o, m));
            }
        }),

    /** quit() drops every message but keeps the barriers (the spec's MC_QUIT_KEEPS_BARRIERS, the audit's S16). */
    QUIT_KEEPS_BARRIERS(Detection.CONFORMANCE, "Refinement",
            "Refinement (quit drops everything): a barrier posted before quit() is still there after it, so "
            + "removeSyncBarrier takes it instead of refusing a token that is gone (MessageQueueConformanceTest)",
            (quitAllowed, clock) -> new DeliQueue(quitAllowed, clock) {
            @Override
            boolean droppedByQuit(Message sentinel, Message m) {
                return quitsSafely(sentinel) ? m.when > sentinel.when : !m.isBarrier(); // BUG: barriers stay
            }
        });

    /** Access modes that only the memory-ordering mutants use (FieldAccess holds the ones DeliQueue uses). */
    static final class WeakModes {
        private static final VarHandle FREELIST;

        static {
            try {
                FREELIST = MethodHandles.lookup().findVarHandle(DeliQueue.class, "freelist", Message.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private WeakModes() {
        }

        /** Acquire load of {@code freelist}: one step weaker than FieldAccess.lvFreelist. */
        static Message laFreelist(DeliQueue q) {
            return (Message) FREELIST.getAcquire(q);
        }
    }

    /** Which kind of checker is expected to catch a mutant. */
    public enum Detection {
        /** The conformance suite (including its bounded stress test) fails on it. */
        CONFORMANCE,
        /** A test that scripts the interleaving step by step on one thread shows the bug every time. */
        SCRIPTED,
        /** Needs a checker that controls the schedule or the memory model (Lincheck, jcstress, JPF, TLC). */
        MODEL_CHECKER,
        /** Only DeliQueue's structure shows it (what stays linked on the stack): DeliQueueStructureTest. */
        STRUCTURE
    }

    /** Who catches it. */
    public final Detection detection;
    /**
     * The spec's obligations it violates, by name, comma-separated (the obligation trace reads them from this file
     * and lists each mutant under them in docs/obligations.md); empty for a defined behaviour the spec does not
     * model (interrupts, idle handlers, user code's re-entry, how much stays linked or walked).
     */
    public final String violates;
    /** The obligation it breaks and why it is caught (or why only a model checker can). */
    public final String reason;
    private final MessageQueue.Factory factory;

    Mutant(Detection detection, String violates, String reason, MessageQueue.Factory factory) {
        this.detection = detection;
        this.violates = violates;
        this.reason = reason;
        this.factory = factory;
    }

    @Override
    public MessageQueue create(boolean quitAllowed, Clock clock) {
        return factory.create(quitAllowed, clock);
    }
}
