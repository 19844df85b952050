---------- MODULE MC_SINGLE_PASS_TRAVERSAL ----------
(* Negative control (manifest.json: TLC must report HasMessagesLinearizable violated).
   impl mutant SINGLE_PASS_TRAVERSAL: hasMessages walks once from one read of top: a match delivered
   under its cursor while another is pushed above it yields false, though a match was pending
   throughout. *)
EXTENDS MCNoQuit

CONSTANTS h1   \* model value: a hasMessages caller matching both messages
SpTraversers == {h1}
SpOp == h1 :> "has"
SpPred == h1 :> {m1, m2}

MRecheck(t) ==
  /\ pc[t] = "tRecheck"
  /\ pc' = [pc EXCEPT ![t] = "done"] /\ T' = [T EXCEPT ![t] = Returned(t)]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>
=============================================================================
