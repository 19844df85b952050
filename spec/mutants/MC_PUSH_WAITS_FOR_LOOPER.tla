---------- MODULE MC_PUSH_WAITS_FOR_LOOPER ----------
(* Negative control (manifest.json: TLC must report PushLockFree violated).
   push waits for the Looper to be awake (a blocking handshake instead of one CAS): a Looper asleep
   with nothing to do blocks every producer. *)
EXTENDS MCNoQuit

MPushReadTop(m) ==
  /\ pc[m] = "push"
  /\ ~waitWord.asleep
  /\ IF Quitting(top)
       THEN /\ pc' = [pc EXCEPT ![m] = "failed"]
            /\ UNCHANGED <<next, ticket, when>>
       ELSE /\ next' = [next EXCEPT ![m] = top]
            /\ ticket' = [ticket EXCEPT ![m] = TicketOf(top) + 1]
            /\ when' = IF Kind[m] = "barrier" THEN [when EXCEPT ![m] = now] ELSE when
            /\ pc' = [pc EXCEPT ![m] = "pushCas"]
  /\ UNCHANGED <<top, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>
=============================================================================
