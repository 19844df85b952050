----------------------------- MODULE MCWitness -----------------------------
(* What the CI models of DeliQueue.tla extend: the spec, its obligations  *)
(* (DeliQueueProperties) and the                                          *)
(* report of its witnesses (module Witness), which their .cfg             *)
(* names as  INVARIANTS StateWitnessReport.                                *)
EXTENDS DeliQueueProperties, Witness

StateWitnessReport == Report(StateWitnesses)
=============================================================================
