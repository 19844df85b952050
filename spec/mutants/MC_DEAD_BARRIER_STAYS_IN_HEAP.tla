---------- MODULE MC_DEAD_BARRIER_STAYS_IN_HEAP ----------
(* Negative control (manifest.json: TLC must report EventualDelivery violated).
   liveHead tombstones a dead barrier at the sync heap's head for its owner but leaves it in the heap: the
   Looper meets the same dead head again and again and never delivers what the barrier held back (held-out
   spec audit S20). *)
EXTENDS MCBarrierAsync

MLiveHead ==
  /\ L.pc = "deliver"
  /\ DeadHead # Nil
  /\ LET h == DeadHead IN
       /\ heap' = IF h \in Barriers THEN heap ELSE heap \ {h}
       /\ IF ~removed[h]
            THEN /\ removed' = [removed EXCEPT ![h] = TRUE]
                 /\ removedBy' = [removedBy EXCEPT ![h] = PendingOwner(h)]
            ELSE UNCHANGED <<removed, removedBy>>
  /\ UNCHANGED <<stackVars, freelist, reserved, delivered, claimTop, wakeVars, now, prev, swept, deferred, pending,
                 L, threadVars, ghostVars>>
=============================================================================
