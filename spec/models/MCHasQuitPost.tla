----------------------------- MODULE MCHasQuitPost -----------------------------
(* A query whose re-read of top finds an owner node above a match pushed   *)
(* during its walk: m1 and m2 sync, due at 0, an asker matching m1 only, a *)
(* removal of m2 that starts once both posts have returned and the query  *)
(* has started, quitSafely (which keeps m1) once the removal has returned, *)
(* the Looper once the sentinel is pushed. The query may start while only  *)
(* m2 is queued; m1, then the removal's descriptor, then the sentinel come *)
(* in during its walk, so its re-read may find either owner node on top    *)
(* and must walk the new segment to find m1 (MC_RECHECK_TRUSTS_OWNER_ON_TOP, *)
(* which without the quit is caught through the descriptor alone).         *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, r1, h1   \* model values: the messages, the remover, the asker

HqMsgs == {m1, m2}
HqKind == m1 :> "sync" @@ m2 :> "sync"
HqWhen == m1 :> 0 @@ m2 :> 0
HqTraversers == {r1, h1}
HqOp == r1 :> "remove" @@ h1 :> "has"
HqPred == r1 :> {m2} @@ h1 :> {m1}

\* CONSTRAINT: quitSafely is called once both producers have pushed and the
\* removal has returned.
QuitAfterPosts == pc[QuitT] # "quit" => (\A m \in Msgs : Pushed(m)) /\ pc[r1] = "done"
\* CONSTRAINT: the removal starts once both producers have pushed.
RemoverAfterPosts == pc[r1] # "tStart" => \A m \in Msgs : Pushed(m)
\* CONSTRAINT: the removal starts once the query has.
QueryFirst == pc[r1] # "tStart" => pc[h1] # "tStart"
\* CONSTRAINT: the Looper starts once the sentinel is pushed.
LooperAfterQuit == L # LooperInit => QuitPushed
=============================================================================
