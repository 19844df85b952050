-------------------------------- MODULE MCHas --------------------------------
(* hasMessages against the Looper and quit: one front-of-queue sync        *)
(* message, an asker (hasMessages) matching it, quit (drops it unless      *)
(* delivered), the clock fixed at 0.                                       *)
EXTENDS MCWitness, TLC

CONSTANTS m1, h1   \* model values: the message, the asker

HasMsgs == {m1}
HasKind == m1 :> "sync"
HasWhen == m1 :> 0
HasTraversers == {h1}
HasOp == h1 :> "has"
HasPred == h1 :> {m1}
=============================================================================
