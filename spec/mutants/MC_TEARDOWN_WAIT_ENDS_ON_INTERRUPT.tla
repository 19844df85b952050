---------- MODULE MC_TEARDOWN_WAIT_ENDS_ON_INTERRUPT ----------
(* Negative control (manifest.json: TLC must report NoUseAfterTeardown violated).
   impl mutant TEARDOWN_WAIT_ENDS_ON_INTERRUPT: an interrupt that ends a park of teardown's wait ends the wait,
   and the resource is freed under a waker's reference. *)
EXTENDS MCInterrupt

MParkUntilEarly ==
  /\ ParkReturnsEarly
  /\ L.pc \in {"park", "tdPark"}
  /\ ~permit
  /\ L' = [L EXCEPT !.pc = IF L.pc = "park" THEN "awake" ELSE "free", !.early = TRUE]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>
=============================================================================
