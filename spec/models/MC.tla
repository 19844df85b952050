-------------------------------- MODULE MC --------------------------------
(* The smallest model, the base of most mutant models: one async message  *)
(* at the front of the queue, one remover matching it, quitSafely, the     *)
(* clock fixed at 0. Async, so that the removal the Looper swept leaves a  *)
(* dead head in the async heap (MC_DEAD_HEAD_SYNC_ONLY): with no barrier   *)
(* an async message is delivered as a sync one, in the same states.        *)
EXTENDS MCWitness, TLC

CONSTANTS m1, r1   \* model values: the message, the remover

MCMsgs == {m1}
MCKind == m1 :> "async"
MCWhen == m1 :> 0
MCTraversers == {r1}
MCOp == r1 :> "remove"
MCPred == r1 :> {m1}
=============================================================================
