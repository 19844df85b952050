---------- MODULE MC_REMOVAL_IGNORES_OWNER ----------
(* Negative control (manifest.json: TLC must report RemovalReturnsItsSet violated). The remover's walk ignores
   ownership: it tombstones a live match that an earlier descriptor it walked past owns (the per-message removal
   of Android 17, where each removal takes what it reaches first): that removal then returns a message the earlier
   one took. *)
EXTENDS MCRemovers

MLeftBefore(m, t) == removed[m] /\ (delivered[m] \/ removedBy[m] # t)
=============================================================================
