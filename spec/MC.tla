-------------------------------- MODULE MC --------------------------------
(* The CI model: two messages (an older sync message due at 1, a newer    *)
(* front-of-queue async message), the remover matching both, the quitter  *)
(* with either mode, clock 0..1. Small enough for every `make test`.      *)
EXTENDS DeliQueue, TLC

CONSTANTS m1, m2   \* model values: the two messages

MCMsgs == {m1, m2}
MCKind == m1 :> "sync" @@ m2 :> "async"
MCWhen == m1 :> 1 @@ m2 :> 0
MCMatching == {m1, m2}
MCModes == {"quit", "quitSafely"}
=============================================================================
