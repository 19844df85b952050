----------------------------- MODULE MCWitness -----------------------------
(* What the CI models of DeliQueue.tla extend: the spec and the            *)
(* report of its witnesses (module Witness), which their .cfg             *)
(* names as  INVARIANTS StateWitnessReport.                                *)
EXTENDS DeliQueue, Witness

StateWitnessReport == Report(StateWitnesses)
=============================================================================
