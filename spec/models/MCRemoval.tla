------------------------------ MODULE MCRemoval ------------------------------
(* Two removals with overlapping predicates over two messages: r1 matches   *)
(* m1 and m2, r2 only m2; both front-of-queue sync messages, the removals   *)
(* racing each other, the producers and the Looper's reserved delivery;    *)
(* nobody quits, the clock fixed at 0. Safety only (the removal's          *)
(* obligations, AtomicRemoval among them).                                 *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, r1, r2   \* model values: the messages, the removals

RmMsgs == {m1, m2}
RmKind == m1 :> "sync" @@ m2 :> "sync"
RmWhen == m1 :> 0 @@ m2 :> 0
RmTraversers == {r1, r2}
RmOp == r1 :> "remove" @@ r2 :> "remove"
RmPred == r1 :> {m1, m2} @@ r2 :> {m2}
=============================================================================
