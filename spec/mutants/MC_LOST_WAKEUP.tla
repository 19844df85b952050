---------- MODULE MC_LOST_WAKEUP ----------
(* Negative control (manifest.json: TLC must report NoLostWakeup violated).
   impl mutant LOST_WAKEUP: the Looper parks without re-reading top after publishing ASLEEP. *)
EXTENDS MC

MRecheckTop ==
  /\ L.pc = "recheckTop"
  /\ L' = [L EXCEPT !.pc = "recheckFree"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>
=============================================================================
