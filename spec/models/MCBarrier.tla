------------------------------ MODULE MCBarrier ------------------------------
(* A barrier and a front-of-queue sync message, both possibly posted at     *)
(* uptime 0 (the message then sorts before the barrier if posted after it), *)
(* a remover of the barrier (removeSyncBarrier and its wake), no quit,     *)
(* the clock from 0 to 1.                                                   *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, r1   \* model values: the barrier, the sync message, the remover

BarMsgs == {m1, m2}
BarKind == m1 :> "barrier" @@ m2 :> "sync"
BarWhen == m1 :> 0 @@ m2 :> 0
BarTraversers == {r1}
BarOp == r1 :> "remove"
BarPred == r1 :> {m1}
=============================================================================
