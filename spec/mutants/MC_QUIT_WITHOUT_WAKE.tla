---------- MODULE MC_QUIT_WITHOUT_WAKE ----------
(* Negative control (manifest.json: TLC must report QuitTerminates violated).
   impl mutant QUIT_WITHOUT_WAKE: quit pushes its sentinel and returns without signalIfEarlier, so a Looper
   asleep without deadline never sees the quit. On MCInterrupt, where an interrupt may end that sleep: no
   fairness makes one come, so the liveness there does not rest on interrupts. *)
EXTENDS MCInterrupt

MQuitCasTop ==
  /\ pc[QuitT] = "quitCas"
  /\ IF top = next[Quit]
       THEN top' = Quit /\ pc' = [pc EXCEPT ![QuitT] = "done"]
       ELSE pc' = [pc EXCEPT ![QuitT] = "quit"] /\ UNCHANGED top
  /\ UNCHANGED <<next, ticket, when, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>
=============================================================================
