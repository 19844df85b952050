---------- MODULE MC_DROP_IGNORES_REMOVAL ----------
(* Negative control (manifest.json: TLC must report AtomicRemoval violated). The Looper's drop on quit takes
   every message the quit dooms for the sentinel, also one an earlier removal owns (its descriptor below the
   sentinel, swept and pending): the message the removal took at its push is dropped by the later quit (the
   fix "quit drop respects removals pushed before it", at the protocol level). *)
EXTENDS MCRemovalQuit

MDropOnQuitAt(m) ==
  /\ L.pc = "dropOnQuit"
  /\ LET D == {x \in heap : DroppedByQuit(x) /\ ~removed[x]} IN
       IF ~L.quitSeen \/ L.quitDropped \/ D = {}
         THEN /\ m = Nil
              /\ L' = [L EXCEPT !.quitDropped = L.quitSeen, !.pc = "deliver"]
              /\ UNCHANGED <<removed, removedBy, heap>>
         ELSE LET owner == Quit IN   \* mutant: every doomed message for the quit, also one a removal owns
              /\ m \in D
              /\ heap' = heap \ {m}
              /\ removed' = [removed EXCEPT ![m] = TRUE]
              /\ removedBy' = [removedBy EXCEPT ![m] = owner]
              /\ IF owner = Quit
                   THEN L' = [L EXCEPT !.target = m, !.uret = "dropOnQuit", !.pc = "unlink"]
                   ELSE UNCHANGED L
  /\ UNCHANGED <<stackVars, freelist, reserved, delivered, claimTop, wakeVars, now, prev, swept, deferred, pending,
                 threadVars, ghostVars>>
=============================================================================
