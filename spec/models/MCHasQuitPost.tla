----------------------------- MODULE MCHasQuitPost -----------------------------
(* A query whose re-read of top finds an owner node above a match pushed   *)
(* during its walk: m1 and m2 sync, due at 0, an asker matching m1 only,   *)
(* quitSafely (which keeps m1) once both posts have returned, the Looper   *)
(* once the sentinel is pushed. The query may start while only m2 is       *)
(* queued; m1 and then the sentinel come in during its walk, so its re-read *)
(* finds the sentinel on top and must walk the new segment to find m1      *)
(* (MC_RECHECK_TRUSTS_OWNER_ON_TOP).                                       *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, h1   \* model values: the messages, the asker

HqMsgs == {m1, m2}
HqKind == m1 :> "sync" @@ m2 :> "sync"
HqWhen == m1 :> 0 @@ m2 :> 0
HqTraversers == {h1}
HqOp == h1 :> "has"
HqPred == h1 :> {m1}

\* CONSTRAINT: quitSafely is called once both producers have pushed.
QuitAfterPosts == pc[QuitT] # "quit" => \A m \in Msgs : Pushed(m)
\* CONSTRAINT: the Looper starts once the sentinel is pushed.
LooperAfterQuit == L # LooperInit => QuitPushed
=============================================================================
