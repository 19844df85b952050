-------------------------- MODULE MCRemovalQuitPost --------------------------
(* MCRemovalQuit with a second producer: m2, which the removal does not    *)
(* match, may be posted after quit() and after the removal's descriptor    *)
(* lands above the sentinel, so a push can meet a quitting descriptor at   *)
(* top (NoPushAfterQuit beyond the sentinel itself: MC_PUSH_PASSES_        *)
(* DESCRIPTOR). The Looper starts once every producer has returned, which  *)
(* keeps the model within CI time. Safety only, the clock fixed at 0.      *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, r1   \* model values: the messages, the removal

RpMsgs == {m1, m2}
RpKind == m1 :> "sync" @@ m2 :> "sync"
RpWhen == m1 :> 0 @@ m2 :> 0
RpTraversers == {r1}
RpOp == r1 :> "remove"
RpPred == r1 :> {m1}
=============================================================================
