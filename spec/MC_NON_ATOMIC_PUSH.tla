---------- MODULE MC_NON_ATOMIC_PUSH ----------
(* Negative control. impl mutant NON_ATOMIC_PUSH: push sets top without a CAS; a concurrent push (here the sentinel's) is lost. *)
EXTENDS MC

\* push writes top instead of CASing it
MPushCasTop(m) ==
  /\ pc[m] = "pushCas"
  /\ top' = m   \* a plain write: no compare with the value read
  /\ pc' = [pc EXCEPT ![m] = IF Kind[m] = "barrier" THEN "done" ELSE "signal"]
  /\ UNCHANGED <<next, ticket, when, removed, freelist, wakeVars, now, looperVars, pw, qmode, R, dcount, dropped>>
=============================================================================
