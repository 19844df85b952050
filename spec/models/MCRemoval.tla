------------------------------ MODULE MCRemoval ------------------------------
(* Atomic bulk removal (DeliQueueRemoval): two messages, two removals      *)
(* (r1 matches both, r2 only m2) racing each other, the producers and the  *)
(* Looper's reserved delivery.                                             *)
EXTENDS MCRemovalWitness, TLC

CONSTANTS m1, m2, r1, r2   \* model values: the messages, the removals

RmMsgs == {m1, m2}
RmRemovers == {r1, r2}
RmPred == r1 :> {m1, m2} @@ r2 :> {m2}
RmHPred == [h \in {} |-> {}]   \* no hasMessages caller
=============================================================================
