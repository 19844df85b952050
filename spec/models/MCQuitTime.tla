----------------------------- MODULE MCQuitTime -----------------------------
(* quitSafely's time against a post: one sync message due at 1, posted     *)
(* while the clock may tick (inside quit too), no traverser. Liveness with *)
(* the clock moving: the Looper parks until 1, and quitSafely            *)
(* drops the message (quit at 0) or keeps it for delivery (quit at 1).     *)
EXTENDS MCWitness, TLC

CONSTANTS m1   \* model value: the message

QtMsgs == {m1}
QtKind == m1 :> "sync"
QtWhen == m1 :> 1
QtTraversers == {}
QtOp == [t \in {} |-> "remove"]
QtPred == [t \in {} |-> {}]
=============================================================================
