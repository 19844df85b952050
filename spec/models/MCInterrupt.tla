---------------------------- MODULE MCInterrupt ----------------------------
(* Interrupts of the Looper: any park may return early, without a permit  *)
(* and before its deadline (ParkReturnsEarly: parkUntil_early), as         *)
(* LockSupport.park does when the Looper is interrupted; no fairness makes *)
(* one come. One sync message due at 0 and quit()                          *)
(* racing its post: the Looper parks with nothing queued (an untimed park  *)
(* an interrupt ends), and its teardown waits while the producer's or the  *)
(* quitter's wake holds a reference, a wait an interrupt must not end.     *)
EXTENDS MCWitness, TLC

CONSTANTS m1   \* model value: the message

ItMsgs == {m1}
ItKind == m1 :> "sync"
ItWhen == m1 :> 0
ItTraversers == {}
ItOp == [t \in {} |-> "remove"]
ItPred == [t \in {} |-> {}]
ItParkReturnsEarly == TRUE
=============================================================================
