------------------------------ MODULE MCRivals ------------------------------
(* Messages of different whens, sync against async, competing for         *)
(* delivery with the clock moving: a sync message due at 1 and an async    *)
(* message at the front of the queue, nobody quits, no traverser, the      *)
(* clock from 0 to 1 (before these models, the only rivals were two      *)
(* front-of-queue sync messages). Safety only: with EventualDelivery,      *)
(* PushLockFree and full Refinement it took four times as long; MCQuitTime *)
(* checks liveness with the clock moving.                                  *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2   \* model values: the sync message due at 1, the async front-of-queue message
RvMsgs == {m1, m2}
RvKind == m1 :> "sync" @@ m2 :> "async"
RvWhen == m1 :> 1 @@ m2 :> 0
RvTraversers == {}
RvOp == [t \in {} |-> "remove"]
RvPred == [t \in {} |-> {}]
=============================================================================
