---------------------------- MODULE MCRemovalQuit ----------------------------
(* Atomic bulk removal against quit (DeliQueueRemoval): two messages, one  *)
(* removal matching m1, quit() (drops everything it owns); who owns a      *)
(* message is decided by whose node was pushed first.                      *)
EXTENDS MCRemovalWitness, TLC

CONSTANTS m1, m2, r1   \* model values: the messages, the removal

RqMsgs == {m1, m2}
RqRemovers == {r1}
RqPred == r1 :> {m1}
RqHPred == [h \in {} |-> {}]   \* no hasMessages caller
=============================================================================
