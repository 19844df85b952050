------------------------ MODULE MCThreeProducersQuit ------------------------
(* Three producers racing quit(): MCThreeProducers with a quitter. The     *)
(* sentinel's CAS competes with three pushes on one top, so the quit can  *)
(* land between any two of them: two pushes accepted and the third        *)
(* refused (witness acceptedAcceptedRefused, NoPushAfterQuit), a refused  *)
(* push that first lost its CAS to another producer, three wakers beside  *)
(* the Looper's teardown, and the drop at quit over messages the Looper   *)
(* has and has not swept. The clock fixed at 0. Safety and               *)
(* RefinementSafety. Unconstrained, the model had more than 1.3 million   *)
(* states at depth 35 after 11 minutes with one worker; the Looper's      *)
(* start is held back as below, which keeps it within CI time, and        *)
(* MCThreeProducers has the Looper sweeping beside three pushes.          *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, m3   \* model values: the messages

TqMsgs == {m1, m2, m3}
TqKind == m1 :> "sync" @@ m2 :> "sync" @@ m3 :> "sync"
TqWhen == m1 :> 0 @@ m2 :> 0 @@ m3 :> 0
TqTraversers == {}
TqOp == [t \in {} |-> "remove"]
TqPred == [t \in {} |-> {}]

\* CONSTRAINT: the Looper starts once every producer has returned (so the
\* quit races the Looper's deliveries), or once the sentinel is pushed (so
\* the Looper's drop and teardown race the producers still pushing).
LooperAfterReturnsOrQuit == L # LooperInit => ProducersReturnedOrRefused \/ QuitPushed
=============================================================================
