---------- MODULE MC_HAS_IGNORES_DESCRIPTORS ----------
(* Negative control (manifest.json: TLC must report HasAnswersAtomically violated). hasMessages' traversal
   does not consult the owner nodes it passes: it answers true for a message a removal took at its descriptor's
   push and has not tombstoned yet (the per-message design's hasMessages against a bulk removal). *)
EXTENDS MCRemovalHas

MVisit(h) ==
  /\ pc[h] = "hVisit"
  /\ LET c == H[h].cur IN
       IF c = Nil \/ ticket[c] <= H[h].floor
         THEN pc' = [pc EXCEPT ![h] = "hRecheck"] /\ UNCHANGED H
       ELSE IF c \in Owners
         THEN H' = [H EXCEPT ![h].cur = next[c]] /\ UNCHANGED pc   \* passed, not remembered
       ELSE IF c \in HPred[h]
         THEN pc' = [pc EXCEPT ![h] = "hTest"] /\ UNCHANGED H
         ELSE H' = [H EXCEPT ![h].cur = next[c]] /\ UNCHANGED pc
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, L, C, took>>
=============================================================================
