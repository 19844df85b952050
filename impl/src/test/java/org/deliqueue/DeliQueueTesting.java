package org.deliqueue;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * What only tests, the seeded mutants and the checker modules (Lincheck, jcstress, JPF) need of {@link DeliQueue}:
 * its structural invariants, whether it tore down, a chosen next barrier token, and the REMOVED CAS on its own.
 * Kept out of the production class, which never calls them; shipped in impl's test-jar with the mutants.
 */
public final class DeliQueueTesting {
    private DeliQueueTesting() {
    }

    /**
     * Checks the structural obligations of {@code q} while no other thread uses it (tests, checkers' validation
     * hooks): TraversalSafe (tickets decrease along {@code next}), BackLinksConsistent, HeapStackConsistent,
     * ExactlyOnce (no reservation outlives its delivery), PayloadReleased (a linked message tombstoned for a
     * removal holds no payload) and GoneNodesUnlinkedAtRest (with no call in flight and the Looper not torn down, a
     * node that has left the queue for good is still linked only while it waits on the freelist for the Looper's
     * drain, or as the unlink the Looper defers while the node is {@code top}).
     *
     * @throws IllegalStateException naming the broken obligation
     */
    public static void checkInvariants(DeliQueue q) {
        Set<Message> linked = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Message> handedOver = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Message f = FieldAccess.lvFreelist(q); f != null; f = f.nextFree) {
            handedOver.add(f);
        }
        boolean belowSwept = false; // swept == null: nothing swept yet
        for (Message m = FieldAccess.laTop(q), up = null; m != null; up = m, m = FieldAccess.lpNext(m)) {
            check(up == null || m.ticket < up.ticket, "TraversalSafe", "ticket does not decrease at " + m);
            belowSwept |= m == q.swept;
            if (belowSwept) {
                check(m.prev == up || (m == q.swept && m.prev == null), "BackLinksConsistent", "prev of " + m);
                check(DeliQueue.isRemoved(m) || m.heapIndex >= 0, "HeapStackConsistent",
                        "live swept message not in a heap: " + m);
            } else {
                check(m.heapIndex < 0, "HeapStackConsistent", "unswept message in a heap: " + m);
            }
            int f = FieldAccess.lvFlags(m);
            check((f & Message.FLAG_RESERVED) == 0, "ExactlyOnce", "a reservation outlived its delivery: " + m);
            if (!DeliQueue.isOwnerNode(m)
                    && (f & (Message.FLAG_REMOVED | Message.FLAG_DELIVERED)) == Message.FLAG_REMOVED
                    && m.removedBy != null && DeliQueue.isRemoval(m.removedBy)) {
                check(m.obj == null && m.callback == null && m.target == null, "PayloadReleased",
                        "a removed message still holds its payload: what=" + m.what + " when=" + m.when);
            }
            boolean gone = DeliQueue.isRemoval(m) ? DeliQueue.isFinished(m)
                    : !DeliQueue.isOwnerNode(m) && DeliQueue.isRemoved(m);
            check(!gone || q.wakeResource.freed || m == q.deferredUnlink || handedOver.contains(m),
                    "GoneNodesUnlinkedAtRest",
                    "a node that left the queue is still linked, neither on the freelist nor deferred: " + m);
            linked.add(m);
        }
        check(q.swept == null || linked.contains(q.swept), "BackLinksConsistent", "swept message is not linked");
        for (int i = 0; i < q.pendingRemovals.size(); i++) {
            Message d = q.pendingRemovals.get(i);
            check(DeliQueue.isRemoval(d) && d.heapIndex == i, "HeapStackConsistent", "pending removal index of " + d);
            check(linked.contains(d), "HeapStackConsistent", "a pending removal is unlinked: " + d);
        }
        for (MessageHeap heap : new MessageHeap[] {q.syncHeap, q.asyncHeap}) {
            Message[] entries = heap.toArray();
            for (int i = 0; i < entries.length; i++) {
                Message m = entries[i];
                check(m.heapIndex == i && q.heapOf(m) == heap, "HeapStackConsistent", "heap index of " + m);
                check(linked.contains(m), "HeapStackConsistent", "heap holds an unlinked message: " + m);
                check(i == 0 || heap.compare(entries[MessageHeap.parent(i)], m) < 0, "DeliveryOrder",
                        "heap order at " + m);
            }
        }
    }

    private static void check(boolean ok, String obligation, String what) {
        if (!ok) {
            throw new IllegalStateException(obligation + " violated: " + what);
        }
    }

    /** Whether the wake resource of {@code q} has been freed (its Looper tore down). */
    public static boolean isTornDown(DeliQueue q) {
        return q.wakeResource.freed;
    }

    /** Sets the next barrier token of {@code q}: two barriers then share a token, as after a wrap-around. */
    public static void setNextBarrierToken(DeliQueue q, int token) {
        q.nextBarrierToken.set(token);
    }

    /** The REMOVED CAS alone, without owner or freelist: true for exactly one caller per message. */
    public static boolean markRemoved(Message m) {
        for (int f = FieldAccess.lvFlags(m); (f & Message.FLAG_REMOVED) == 0; f = FieldAccess.lvFlags(m)) {
            if (FieldAccess.casFlags(m, f, f | Message.FLAG_REMOVED)) {
                return true;
            }
        }
        return false;
    }
}
