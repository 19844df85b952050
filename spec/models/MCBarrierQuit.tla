---------------------------- MODULE MCBarrierQuit ----------------------------
(* A barrier with a quit: a barrier and a front-of-queue sync message it  *)
(* may hold back (posted after it), quit() or quitSafely(), no traverser,  *)
(* the clock fixed at 0. The Looper parks behind the barrier with no       *)
(* deadline; the quit must wake it. quit() drops the barrier with the      *)
(* rest; after quitSafely what the barrier held back is still in its heap  *)
(* at teardown (kept, never delivered). Liveness is checked with a park    *)
(* behind a barrier.                                                       *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2   \* model values: the barrier, the sync message
BqMsgs == {m1, m2}
BqKind == m1 :> "barrier" @@ m2 :> "sync"
BqWhen == m1 :> 0 @@ m2 :> 0
BqTraversers == {}
BqOp == [t \in {} |-> "remove"]
BqPred == [t \in {} |-> {}]
=============================================================================
