---------- MODULE MC_EDGE3_RECYCLE_DELIVERED ----------
(* Negative control (manifest.json: TLC must report ExactlyOnce violated).
   upstream edge case 3: recycling a delivered message clears REMOVED while a stale traversal can still
   reach it; the remover's CAS then wins on a delivered message. *)
EXTENDS MC

\* Resolve as in DeliQueue, except that a delivered message is recycled at
\* once (Message.recycle() after dispatch): its flags are cleared.
MResolve(m) ==
  /\ reserved' = [reserved EXCEPT ![m] = FALSE]
  /\ IF ResolveOwners(m) # {}
       THEN /\ removed' = [removed EXCEPT ![m] = TRUE]
            /\ removedBy' = [removedBy EXCEPT ![m] = Earliest(ResolveOwners(m))]
            /\ UNCHANGED <<delivered, dcount>>
       ELSE /\ dcount' = [dcount EXCEPT ![m] = @ + 1]
            /\ UNCHANGED <<removed, delivered, removedBy>>
=============================================================================
