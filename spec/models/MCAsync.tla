------------------------------- MODULE MCAsync -------------------------------
(* A barrier with quitSafely: a barrier and an async message due at 1 (it  *)
(* passes the barrier; its producer decides the wake against the Looper's  *)
(* deadline), quitSafely (it keeps the barrier, posted at the             *)
(* clock, and keeps or drops the async message by the quit's clock        *)
(* reading; at teardown the barrier is still in the heap), no traverser,  *)
(* the clock from 0 to 1.                                                  *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2   \* model values: the barrier, the async message

AsyMsgs == {m1, m2}
AsyKind == m1 :> "barrier" @@ m2 :> "async"
AsyWhen == m1 :> 0 @@ m2 :> 1
AsyTraversers == {}
AsyOp == [t \in {} |-> "remove"]
AsyPred == [t \in {} |-> {}]
=============================================================================
