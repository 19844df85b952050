---------- MODULE MC_DELIVER_WITHOUT_REMOVED_CAS ----------
(* Negative control (models.manifest: TLC must report ExactlyOnce violated).
   impl mutant DELIVER_WITHOUT_REMOVED_CAS: the Looper delivers without the REMOVED CAS, so a message a
   remover won is delivered too. *)
EXTENDS MC

MClaimForDelivery(c) == TRUE
=============================================================================
