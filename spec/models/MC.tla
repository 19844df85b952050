-------------------------------- MODULE MC --------------------------------
(* The smallest model, the base of most mutant models: one sync message at *)
(* the front of the queue, one remover matching it, quitSafely, the clock  *)
(* fixed at 0.                                                              *)
EXTENDS MCWitness, TLC

CONSTANTS m1, r1   \* model values: the message, the remover

MCMsgs == {m1}
MCKind == m1 :> "sync"
MCWhen == m1 :> 0
MCTraversers == {r1}
MCOp == r1 :> "remove"
MCPred == r1 :> {m1}
=============================================================================
