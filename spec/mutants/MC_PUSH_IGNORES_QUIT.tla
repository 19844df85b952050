---------- MODULE MC_PUSH_IGNORES_QUIT ----------
(* Negative control (manifest.json: TLC must report NoPushAfterQuit violated).
   push does not test for the quit sentinel on top: a post after quit succeeds and is never delivered. *)
EXTENDS MC

MPushReadTop(m) ==
  /\ pc[m] = "push"
  /\ next' = [next EXCEPT ![m] = top]
  /\ ticket' = [ticket EXCEPT ![m] = TicketOf(top) + 1]
  /\ when' = IF Kind[m] = "barrier" THEN [when EXCEPT ![m] = now] ELSE when
  /\ pc' = [pc EXCEPT ![m] = "pushCas"]
  /\ UNCHANGED <<top, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>
=============================================================================
