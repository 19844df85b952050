---------------------------- MODULE MCRemovalQuit ----------------------------
(* A removal against quit(): one front-of-queue sync message, one removal  *)
(* matching it, quit() (it drops everything it owns): who owns the message *)
(* is decided by whose node was pushed first, the descriptor or the        *)
(* sentinel. The clock fixed at 0. Safety only. MC with quit() instead of  *)
(* quitSafely, which BulkRemovalAbs (AtomicRemoval) does not have. With a  *)
(* second message (the slice's model) it is too large for CI time.         *)
EXTENDS MCWitness, TLC

CONSTANTS m1, r1   \* model values: the message, the removal

RqMsgs == {m1}
RqKind == m1 :> "sync"
RqWhen == m1 :> 0
RqTraversers == {r1}
RqOp == r1 :> "remove"
RqPred == r1 :> {m1}
=============================================================================
