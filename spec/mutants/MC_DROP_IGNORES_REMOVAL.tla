---------- MODULE MC_DROP_IGNORES_REMOVAL ----------
(* Negative control (manifest.json: TLC must report AtomicRemoval violated). The Looper's drop on quit takes
   every live message the sentinel covers, also one an earlier removal owns (its descriptor below the sentinel):
   the message the removal took at its push is dropped by the later quit (main's fix a7e425a "quit drop respects
   removals pushed before it", at the protocol level). *)
EXTENDS MCRemovalQuit

MDroppable == {m \in Msgs : /\ Pushed(m) /\ ticket[m] <= L.swept /\ flags[m] = "live"
                            /\ Quit \in SweptOwners(m)}
=============================================================================
