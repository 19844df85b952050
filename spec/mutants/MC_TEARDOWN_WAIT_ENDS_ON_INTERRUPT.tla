---------- MODULE MC_TEARDOWN_WAIT_ENDS_ON_INTERRUPT ----------
(* Negative control (manifest.json: TLC must report NoUseAfterTeardown violated).
   impl mutant TEARDOWN_WAIT_ENDS_ON_INTERRUPT: a park of teardown's wait that returns early (an interrupt of
   the Looper) ends the wait, and the resource is freed under a waker's reference. *)
EXTENDS MCInterrupt

MTeardownPark ==
  /\ L.pc = "tdPark"
  /\ \/ permit /\ permit' = FALSE /\ L' = [L EXCEPT !.pc = "tdCheck"]
     \/ ParkReturnsEarly /\ UNCHANGED permit /\ L' = [L EXCEPT !.pc = "free", !.early = TRUE]
  /\ UNCHANGED <<sharedVars, waitWord, wakeRefs, resource, now, looperFieldVars, threadVars, ghostVars>>
=============================================================================
