---------- MODULE MC_QUERY_FALSE_AT_REMOVED_MATCH ----------
(* Negative control (manifest.json: TLC must report HasMessagesLinearizable violated).
   hasMessages' visitor answers false as soon as a match it meets is REMOVED instead of walking on: false
   while the other match is queued. Needs two matches (MCHasTwo) and a false answer checked wherever it is
   given. The held-out spec audit's S43. *)
EXTENDS MCHasTwo

MIsRemoved(t) ==
  /\ pc[t] = "tTest"
  /\ ~reserved[T[t].cur]
  /\ IF ~removed[T[t].cur]
       THEN /\ T' = [T EXCEPT ![t] = [Returned(t) EXCEPT !.found = TRUE]]
            /\ pc' = [pc EXCEPT ![t] = "done"]
       ELSE /\ T' = [T EXCEPT ![t] = Returned(t)]
            /\ pc' = [pc EXCEPT ![t] = "done"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>
=============================================================================
