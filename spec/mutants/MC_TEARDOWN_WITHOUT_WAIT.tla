---------- MODULE MC_TEARDOWN_WITHOUT_WAIT ----------
(* Negative control (manifest.json: TLC must report NoUseAfterTeardown violated).
   impl mutant TEARDOWN_WITHOUT_WAIT: teardown frees the wake resource without waiting for the wakers'
   count to drain. *)
EXTENDS MC

MTeardownSet ==
  /\ L.pc = "teardown"
  /\ wakeRefs' = [wakeRefs EXCEPT !.teardown = TRUE]
  /\ L' = [L EXCEPT !.pc = "free"]
  /\ UNCHANGED <<sharedVars, waitWord, permit, resource, now, looperFieldVars, threadVars, ghostVars>>
=============================================================================
