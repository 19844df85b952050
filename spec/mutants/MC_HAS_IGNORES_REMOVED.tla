---------- MODULE MC_HAS_IGNORES_REMOVED ----------
(* Negative control (manifest.json: TLC must report HasMessagesLinearizable violated).
   hasMessages' visitor does not test REMOVED: it answers true for a message already delivered or
   dropped. *)
EXTENDS MCHas

MIsRemoved(t) ==
  /\ pc[t] = "tTest" /\ Op[t] = "has"
  /\ T' = [T EXCEPT ![t] = [Returned(t) EXCEPT !.found = TRUE]] /\ pc' = [pc EXCEPT ![t] = "done"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>
=============================================================================
