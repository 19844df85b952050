---------- MODULE MC_SINGLE_PASS_TRAVERSAL ----------
(* Negative control (models.manifest: TLC must report TraversalComplete violated).
   impl mutant SINGLE_PASS_TRAVERSAL: removeMatching walks once from one read of top and misses a match
   pushed meanwhile. *)
EXTENDS MCNoQuit

CONSTANTS r1   \* model value: a remover matching both messages
SpTraversers == {r1}
SpOp == r1 :> "remove"
SpPred == r1 :> {m1, m2}

MRecheck(t) ==
  /\ pc[t] = "tRecheck"
  /\ pc' = [pc EXCEPT ![t] = AfterTraverse(t)] /\ T' = [T EXCEPT ![t] = Returned(t)]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>
=============================================================================
