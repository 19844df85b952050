-------------------------- MODULE MCThreeProducers --------------------------
(* Three producers at once: three front-of-queue sync messages posted     *)
(* together to one Looper, nobody quits, the clock fixed at 0. Every other *)
(* model has at most two producers, and with two a push that lost its CAS  *)
(* retries on a top nobody else is pushing to. Here two producers can beat *)
(* a third in turn (a loss on a retry), three CASes can wait on one top,   *)
(* PushLockFree's antecedent holds with three pushes pending, and the      *)
(* Looper's sweep can walk three unswept nodes, back-linking the middle    *)
(* one. Safety, RefinementSafety and PushLockFree; EventualDelivery and    *)
(* full Refinement too took 6 min 48 s with one worker (236,656 states,    *)
(* depth 77): MCNoQuit checks them with two producers.                     *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, m3   \* model values: the messages

TpMsgs == {m1, m2, m3}
TpKind == m1 :> "sync" @@ m2 :> "sync" @@ m3 :> "sync"
TpWhen == m1 :> 0 @@ m2 :> 0 @@ m3 :> 0
TpTraversers == {}
TpOp == [t \in {} |-> "remove"]
TpPred == [t \in {} |-> {}]
=============================================================================
