-------------------------------- MODULE MC --------------------------------
(* The CI model: one sync message (front of queue), the remover matching   *)
(* it, the quitter (quitSafely), the Looper, clock fixed at 0. Every       *)
(* obligation, liveness included; it runs in `mvn -pl spec test`.          *)
EXTENDS DeliQueue, TLC

CONSTANTS m1   \* model value: the message

MCMsgs == {m1}
MCKind == m1 :> "sync"
MCWhen == m1 :> 0
=============================================================================
