----------------------------- MODULE MCWitness -----------------------------
(* What the CI models of DeliQueue.tla extend: the spec and the            *)
(* report of its witnesses (issue 28, module Witness), which their .cfg    *)
(* names as  INVARIANTS StateWitnessReport.                                *)
EXTENDS DeliQueue, Witness

StateWitnessReport == Report(StateWitnesses)
=============================================================================
