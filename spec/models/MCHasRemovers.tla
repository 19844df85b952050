----------------------------- MODULE MCHasRemovers -----------------------------
(* A query that passes two removals' descriptors: m1 and m2, sync, due at *)
(* 0; a removal of m2 once both are pushed; a removal of m1 once that     *)
(* descriptor is pushed, so its own lands above it; then a query for m1,  *)
(* started once both descriptors are pushed, walks past m1's owner, then *)
(* m2's, then the messages; the Looper starts once the query has, and the *)
(* removals collect once it has returned, one after the other. A query    *)
(* that remembers only the last descriptor it passed (MC_QUERY_REMEMBERS_ *)
(* LAST_DESCRIPTOR) answers true for m1; MCHasQuitRemoval gives a query a *)
(* descriptor and the quit sentinel to pass.                              *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, r1, r2, h1   \* model values: the messages, the removers, the asker

HdMsgs == {m1, m2}
HdKind == m1 :> "sync" @@ m2 :> "sync"
HdWhen == m1 :> 0 @@ m2 :> 0
HdTraversers == {r1, r2, h1}
HdOp == r1 :> "remove" @@ r2 :> "remove" @@ h1 :> "has"
HdPred == r1 :> {m1} @@ r2 :> {m2} @@ h1 :> {m1}

\* CONSTRAINT: the removals start once both messages are pushed.
RemoversAfterPosts == \A r \in Removers : pc[r] # "tStart" => \A m \in Msgs : Pushed(m)
\* CONSTRAINT: the removal of m1 starts once the removal of m2 has pushed its descriptor.
SecondRemovalAbove == pc[r1] # "tStart" => DescPushed(r2)
\* CONSTRAINT: the query starts once the removal of m1 has pushed its descriptor.
QueryAfterDescriptors == pc[h1] # "tStart" => DescPushed(r1)
\* CONSTRAINT: the Looper starts once the query has.
LooperAfterQuery == L # LooperInit => pc[h1] # "tStart"
\* CONSTRAINT: the removal of m2 collects once the query has returned (its descriptor stays unfinished meanwhile),
\* the removal of m1 once the removal of m2 has returned.
Collecting(r) == pc[r] \notin {"tStart", "tVisit", "tAsk", "tAdvance", "tRecheck", "dCas", "cAdvance"}
CollectAfterQuery == /\ Collecting(r2) => pc[h1] = "done"
                     /\ Collecting(r1) => pc[r2] = "done"
=============================================================================
