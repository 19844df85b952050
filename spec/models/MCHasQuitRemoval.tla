--------------------------- MODULE MCHasQuitRemoval ---------------------------
(* A query that passes two owner nodes: m1 sync, due at 0; quitSafely      *)
(* (which keeps m1, so its sentinel does not cover m1) once m1 is pushed; *)
(* then a removal of m1, whose descriptor lands above the sentinel; then a *)
(* query for m1, started once that descriptor is pushed, walks past the    *)
(* descriptor, then the sentinel, then m1, which the descriptor owns; the *)
(* Looper starts once the query has. A query that remembers only the last *)
(* owner it passed answers true (MC_QUERY_REMEMBERS_LAST_OWNER).           *)
EXTENDS MCWitness, TLC

CONSTANTS m1, r1, h1   \* model values: the message, the remover, the asker

QrMsgs == {m1}
QrKind == m1 :> "sync"
QrWhen == m1 :> 0
QrTraversers == {r1, h1}
QrOp == r1 :> "remove" @@ h1 :> "has"
QrPred == r1 :> {m1} @@ h1 :> {m1}

\* CONSTRAINT: quitSafely is called once the producer has pushed.
QuitAfterPosts == pc[QuitT] # "quit" => \A m \in Msgs : Pushed(m)
\* CONSTRAINT: the removal and the query start once the sentinel is pushed.
TraversersAfterQuit == \A t \in Traversers : pc[t] # "tStart" => QuitPushed
\* CONSTRAINT: the query starts once the removal's descriptor is pushed.
QueryAfterDescriptor == pc[h1] # "tStart" => DescPushed(r1)
\* CONSTRAINT: the Looper starts once the query has.
LooperAfterQuery == L # LooperInit => pc[h1] # "tStart"
=============================================================================
