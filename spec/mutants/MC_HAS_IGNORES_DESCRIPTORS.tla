---------- MODULE MC_HAS_IGNORES_DESCRIPTORS ----------
(* Negative control (manifest.json: TLC must report HasAnswersAtomically violated). hasMessages' traversal
   does not consult the owner nodes it passes: it answers true for a message a removal took at its descriptor's
   push and has not tombstoned yet (the per-message design's hasMessages against a bulk removal). *)
EXTENDS MCHasRemoval

MCovered(t, m) == IF Op[t] = "has" THEN FALSE ELSE \E o \in T[t].passed : Covers(o, m)
=============================================================================
