---------------------------- MODULE MCRemovalHas ----------------------------
(* hasMessages against a removal: two front-of-queue sync messages, a      *)
(* removal matching m1, a hasMessages caller matching m1, the producers    *)
(* and the Looper's reserved delivery; nobody quits, the clock fixed at 0. *)
(* Safety only.                                                            *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, r1, h1   \* model values: the messages, the removal, the asker

RhMsgs == {m1, m2}
RhKind == m1 :> "sync" @@ m2 :> "sync"
RhWhen == m1 :> 0 @@ m2 :> 0
RhTraversers == {r1, h1}
RhOp == r1 :> "remove" @@ h1 :> "has"
RhPred == r1 :> {m1} @@ h1 :> {m1}
=============================================================================
