---------- MODULE MC_DELIVER_WITHOUT_REMOVED_CAS ----------
(* Negative control. impl mutant DELIVER_WITHOUT_REMOVED_CAS: the Looper delivers without the REMOVED CAS, so a message a remover won is delivered too. *)
EXTENDS MC

\* delivery claims without the REMOVED CAS
MClaimWins(c) ==
  TRUE
=============================================================================
