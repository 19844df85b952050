-------------------------- MODULE MCRemovalWitness --------------------------
(* What the CI models of DeliQueueRemoval.tla extend: the spec and the     *)
(* report of its witnesses (module Witness), which their .cfg             *)
(* names as  INVARIANTS StateWitnessReport.                                *)
EXTENDS DeliQueueRemoval, Witness

StateWitnessReport == Report(StateWitnesses)
=============================================================================
