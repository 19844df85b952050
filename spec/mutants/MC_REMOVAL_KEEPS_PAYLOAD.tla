---------- MODULE MC_REMOVAL_KEEPS_PAYLOAD ----------
(* Negative control (manifest.json: TLC must report PayloadReleased violated).
   impl mutant REMOVAL_KEEPS_PAYLOAD: the remover hands its tombstones to the Looper with their payload
   still in place. *)
EXTENDS MC

MReleasePayload(t) == T
=============================================================================
