---------- MODULE MC_RECHECK_TRUSTS_OWNER_ON_TOP ----------
(* Negative control (manifest.json: TLC must report HasMessagesLinearizable violated).
   hasMessages' re-read of top, finding an owner node (descriptor or sentinel) on top, takes it that only a
   removal or a quit came in and answers false without walking the new segment, where a match pushed during
   its walk lies (MCHasQuitPost: m1 under the quitSafely sentinel or under the descriptor of a removal of m2;
   with no quit, the descriptor alone shows it). The held-out spec audit's S53. *)
EXTENDS MCHasQuitPost

MRecheck(t) ==
  /\ pc[t] = "tRecheck"
  /\ IF top = T[t].top \/ (Op[t] = "has" /\ top \in Owners)
       THEN pc' = [pc EXCEPT ![t] = "done"] /\ T' = [T EXCEPT ![t] = Returned(t)]
       ELSE /\ T' = [T EXCEPT ![t].floor = TicketOf(T[t].top), ![t].top = top, ![t].cur = top,
                              ![t].seen = Seen(t)]
            /\ pc' = [pc EXCEPT ![t] = "tVisit"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>
=============================================================================
