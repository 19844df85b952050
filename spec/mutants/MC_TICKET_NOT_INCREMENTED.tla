---------- MODULE MC_TICKET_NOT_INCREMENTED ----------
(* Negative control (manifest.json: TLC must report TraversalSafe violated).
   push copies top's ticket instead of adding one: tickets no longer fall strictly along next, so a
   traversal's floor test can stop early or a walk fail to end. *)
EXTENDS MCNoQuit

MPushReadTop(m) ==
  /\ pc[m] = "push"
  /\ IF Quitting(top)
       THEN /\ pc' = [pc EXCEPT ![m] = "failed"]
            /\ UNCHANGED <<next, ticket, when>>
       ELSE /\ next' = [next EXCEPT ![m] = top]
            /\ ticket' = [ticket EXCEPT ![m] = TicketOf(top)]
            /\ when' = IF Kind[m] = "barrier" THEN [when EXCEPT ![m] = now] ELSE when
            /\ pc' = [pc EXCEPT ![m] = "pushCas"]
  /\ UNCHANGED <<top, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>
=============================================================================
