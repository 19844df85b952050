------------------------------ MODULE MCNoQuit ------------------------------
(* Liveness without quit: two front-of-queue sync messages (LIFO), no     *)
(* traverser, nobody quits, the clock fixed at 0. Every push must end and  *)
(* every message must be delivered.                                        *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2   \* model values: the messages

NqMsgs == {m1, m2}
NqKind == m1 :> "sync" @@ m2 :> "sync"
NqWhen == m1 :> 0 @@ m2 :> 0
NqTraversers == {}
NqOp == [t \in {} |-> "remove"]
NqPred == [t \in {} |-> {}]
=============================================================================
