---------------------------- MODULE MCBarrierAsync ----------------------------
(* A barrier (m1), a front-of-queue sync message it may hold back (m2), an  *)
(* async message due at 1 that it does not (m3), and removeSyncBarrier (r1); *)
(* no quit, the clock from 0 to 1. Behind the barrier the Looper chooses    *)
(* the async message or parks until its time, while the removal tombstones  *)
(* the barrier and wakes it: the barrier it still honours is retiring       *)
(* (MessageQueueAbs). The Looper and the remover start once every producer  *)
(* has returned.                                                           *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, m3, r1   \* model values: the barrier, the sync message, the async message, the remover

BaMsgs == {m1, m2, m3}
BaKind == m1 :> "barrier" @@ m2 :> "sync" @@ m3 :> "async"
BaWhen == m1 :> 0 @@ m2 :> 0 @@ m3 :> 1
BaTraversers == {r1}
BaOp == r1 :> "remove"
BaPred == r1 :> {m1}
=============================================================================
