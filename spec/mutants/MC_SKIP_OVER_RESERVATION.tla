---------- MODULE MC_SKIP_OVER_RESERVATION ----------
(* Negative control (manifest.json: TLC must report SkipsPassOnlyGone violated). impl mutant
   SKIP_OVER_RESERVATION: a finishing removal's dead run counts a message the Looper holds reserved as gone,
   and records a skip past it. The message has not left the queue until its reservation is resolved, so a walk
   that jumps that skip never meets it. *)
EXTENDS MCRemovalOverlap

MGone(n) == Gone(n) \/ (n \in Msgs /\ reserved[n])
RECURSIVE MFirstNotGone(_, _)
MFirstNotGone(n, k) == IF n = Nil \/ k = 0 \/ ~MGone(n) THEN n ELSE MFirstNotGone(next[n], k - 1)
MDeadRunEnds(t) == {MFirstNotGone(next[t], Cardinality(Nodes))}
=============================================================================
