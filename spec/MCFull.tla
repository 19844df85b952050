------------------------------- MODULE MCFull -------------------------------
(* The full model, for long runs (make tlc-full) and simulation (SIM.cfg): *)
(* a barrier, a sync and an async message, the remover matching the        *)
(* barrier and the sync message, both quit modes, clock 0..1.             *)
EXTENDS DeliQueue, TLC

CONSTANTS m1, m2, m3   \* model values: barrier, sync, async

FullMsgs == {m1, m2, m3}
FullKind == m1 :> "barrier" @@ m2 :> "sync" @@ m3 :> "async"
FullWhen == m1 :> 0 @@ m2 :> 0 @@ m3 :> 1
=============================================================================
