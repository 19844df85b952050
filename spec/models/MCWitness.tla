----------------------------- MODULE MCWitness -----------------------------
(* What most models of DeliQueue.tla extend: the spec, its obligations    *)
(* (DeliQueueProperties) and the                                          *)
(* report of its witnesses (module Witness), which a CI model's .cfg      *)
(* names as  INVARIANTS StateWitnessReport.                                *)
EXTENDS DeliQueueProperties, Witness

StateWitnessReport == Report(StateWitnesses)

\* For the models cut to fit make test (CONSTRAINTs that hold a thread back
\* until the posts are in): every producer has returned.
ProducersReturned == \A m \in Msgs : pc[m] = "done"
\* CONSTRAINT: a traverser starts only once every producer has returned.
TraversersAfterPosts == \A t \in Traversers : pc[t] # "tStart" => ProducersReturned
\* Every producer has returned, its push accepted or refused.
ProducersReturnedOrRefused == \A m \in Msgs : pc[m] \in {"done", "failed"}
\* CONSTRAINT: the Looper starts only once every producer has returned.
LooperAfterReturns == L # LooperInit => ProducersReturnedOrRefused
=============================================================================
