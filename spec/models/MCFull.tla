------------------------------- MODULE MCFull -------------------------------
(* The full model, for long runs (make tlc-full) and simulation (SIM):      *)
(* a barrier, a sync and an async message, one remover matching the        *)
(* barrier and the sync message, both quit modes, the clock from 0 to 1.   *)
EXTENDS DeliQueueProperties, TLC

CONSTANTS m1, m2, m3, r1   \* model values: barrier, sync, async; the remover

FullMsgs == {m1, m2, m3}
FullKind == m1 :> "barrier" @@ m2 :> "sync" @@ m3 :> "async"
FullWhen == m1 :> 0 @@ m2 :> 0 @@ m3 :> 1
FullTraversers == {r1}
FullOp == r1 :> "remove"
FullPred == r1 :> {m1, m2}
=============================================================================
