------------------------- MODULE MCRemovalQuitSafely -------------------------
(* A removal after quitSafely over a message the quit keeps (m1, due at 0) *)
(* and one it drops if it quits at 0 (m2, due at 1); the removal matches   *)
(* both, the clock runs 0..1. Cut to what the model is for by three        *)
(* CONSTRAINTs: the quit comes once both messages are pushed, the removal  *)
(* once the sentinel is, and the Looper once the removal pushed its        *)
(* descriptor or returned, so that the removal meets both messages on the  *)
(* stack before the Looper sweeps: it must take m1 and leave m2 to the     *)
(* sentinel that owns it. A removal racing the quit is MCRemovalQuit's;   *)
(* quitSafely against delivery is MC's and MCAsync's. Safety only          *)
(* (AtomicRemoval has no quitSafely: Refinement covers it).               *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, r1   \* model values: the messages, the removal

QsMsgs == {m1, m2}
QsKind == m1 :> "sync" @@ m2 :> "sync"
QsWhen == m1 :> 0 @@ m2 :> 1
QsTraversers == {r1}
QsOp == r1 :> "remove"
QsPred == r1 :> {m1, m2}

\* CONSTRAINT: the quitter starts only once every message is pushed.
QuitAfterPosts == pc[QuitT] # "quit" => \A m \in Msgs : Pushed(m)
\* CONSTRAINT: a traverser starts only once the sentinel is pushed.
TraversersAfterQuit == \A t \in Traversers : pc[t] # "tStart" => QuitPushed
\* CONSTRAINT: the Looper starts only once every removal pushed its descriptor or returned.
LooperAfterDescriptors == L # LooperInit => \A r \in Removers : DescPushed(r) \/ pc[r] = "done"
=============================================================================
