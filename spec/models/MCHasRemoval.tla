---------------------------- MODULE MCHasRemoval ----------------------------
(* A query beside a removal: one front-of-queue sync message, a remover   *)
(* and a hasMessages caller both matching it, the Looper delivering;       *)
(* nobody quits, the clock fixed at 0. The query may walk past the         *)
(* removal's descriptor and must then treat what it covers as gone        *)
(* (before it, no model of DeliQueue.tla had a query and a removal). With  *)
(* a second message TLC had 234,379 distinct states and 44,137 on its      *)
(* queue at depth 24 after two minutes: the slice's MCRemovalHas checks a  *)
(* query beside a removal over two messages.                               *)
EXTENDS MCWitness, TLC

CONSTANTS m1, r1, h1   \* model values: the message, the remover, the asker
HrMsgs == {m1}
HrKind == m1 :> "sync"
HrWhen == m1 :> 0
HrTraversers == {r1, h1}
HrOp == r1 :> "remove" @@ h1 :> "has"
HrPred == r1 :> {m1} @@ h1 :> {m1}
=============================================================================
