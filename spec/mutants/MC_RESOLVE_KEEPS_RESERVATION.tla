---------- MODULE MC_RESOLVE_KEEPS_RESERVATION ----------
(* Negative control (manifest.json: TLC must report HeapStackConsistent violated).
   Resolve hands a reserved message to an owner (REMOVED, removedBy) but leaves RESERVED set (only the
   delivery branch clears it): the remover's takeFor and a query wait on it for ever (no call returns; no safety
   obligation read RESERVED outside the heap). HeapStackConsistent: a reserved message is live. The held-out
   spec audit's S34. *)
EXTENDS MCRemovers

MResolve(m) ==
  /\ removed' = [removed EXCEPT ![m] = TRUE]
  /\ IF ResolveOwners(m) # {}
       THEN /\ removedBy' = [removedBy EXCEPT ![m] = Earliest(ResolveOwners(m))]
            /\ UNCHANGED <<delivered, dcount, reserved>>
       ELSE /\ delivered' = [delivered EXCEPT ![m] = TRUE]
            /\ dcount' = [dcount EXCEPT ![m] = @ + 1]
            /\ reserved' = [reserved EXCEPT ![m] = FALSE]
            /\ UNCHANGED removedBy
=============================================================================
