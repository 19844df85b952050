---------- MODULE MC_QUIT_TIME_BEFORE_TOP ----------
(* Negative control (manifest.json: TLC must report Refinement violated).
   A defect an earlier review found (impl mutant QUIT_TIME_BEFORE_TOP): quitQueue reads the clock once, before it
   reads top; a post that reads a later clock and pushes first returns true, and quitSafely then drops
   it as due after the quit. *)
EXTENDS MCQuitTime

MQuitPushed == pc[QuitT] \notin {"quit", "quitTop", "quitCas", "never"}

\* sentinel.when = clock.uptimeMillis(), once, before the CAS loop
MQuit_readClock ==
  /\ pc[QuitT] = "quit"
  /\ when' = [when EXCEPT ![Quit] = now]
  /\ pc' = [pc EXCEPT ![QuitT] = "quitTop"]
  /\ UNCHANGED <<top, next, ticket, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>

MQuit_readTop ==
  /\ pc[QuitT] = "quitTop"
  /\ next' = [next EXCEPT ![Quit] = top]
  /\ ticket' = [ticket EXCEPT ![Quit] = TicketOf(top) + 1]
  /\ pc' = [pc EXCEPT ![QuitT] = "quitCas"]
  /\ UNCHANGED <<top, when, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>

MQuit_casTop ==
  /\ pc[QuitT] = "quitCas"
  /\ IF top = next[Quit]
       THEN top' = Quit /\ pc' = [pc EXCEPT ![QuitT] = "signal"]
       ELSE pc' = [pc EXCEPT ![QuitT] = "quitTop"] /\ UNCHANGED top
  /\ UNCHANGED <<next, ticket, when, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>

MQuit == MQuit_readClock \/ MQuit_readTop \/ MQuit_casTop
=============================================================================
