-------------------------------- MODULE MC2 --------------------------------
(* Two messages, for the mutants that need one message to overtake        *)
(* another: m1 (older) sync due at 1, m2 (newer) sync front of queue; the *)
(* remover matches both; quit; clock 0..1. Also the base of MCFull.       *)
EXTENDS DeliQueue, TLC

CONSTANTS m1, m2   \* model values: the messages

MC2Msgs == {m1, m2}
MC2Kind == m1 :> "sync" @@ m2 :> "sync"
MC2When == m1 :> 1 @@ m2 :> 0
=============================================================================
