---------------------------- MODULE MCRemovalHas ----------------------------
(* hasMessages against atomic bulk removal (DeliQueueRemoval): two         *)
(* messages, a removal matching m1, a hasMessages caller matching m1, the  *)
(* producers and the Looper's reserved delivery; nobody quits.             *)
EXTENDS MCRemovalWitness, TLC

CONSTANTS m1, m2, r1, h1   \* model values: the messages, the removal, the asker

RhMsgs == {m1, m2}
RhRemovers == {r1}
RhPred == r1 :> {m1}
RhAskers == {h1}
RhHPred == h1 :> {m1}
=============================================================================
