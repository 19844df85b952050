---------- MODULE MC_NON_ATOMIC_PUSH ----------
(* Negative control (manifest.json: TLC must report NoLostMessage violated).
   impl mutant NON_ATOMIC_PUSH: push writes top without a CAS; of two concurrent pushes one is lost. *)
EXTENDS MCNoQuit

MPushCasTop(m) ==
  /\ pc[m] = "pushCas"
  /\ top' = m   \* a plain write: no compare with the value read
  /\ pc' = [pc EXCEPT ![m] = IF Kind[m] = "barrier" THEN "done" ELSE "signal"]
  /\ lastPost' = now
  /\ UNCHANGED <<next, ticket, when, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, dcount, took,
                 evals>>
=============================================================================
