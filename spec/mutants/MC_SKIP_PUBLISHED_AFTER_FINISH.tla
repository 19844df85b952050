------- MODULE MC_SKIP_PUBLISHED_AFTER_FINISH -------
(* Negative control (manifest.json: TLC must report SkipsPassOnlyGone violated).
   impl mutant SKIP_PUBLISHED_AFTER_FINISH: a finishing removal CASes FINISHED in first and writes its skip
   after, in a step of its own: in between, a walk that reads FINISHED jumps to the skip's old value, null. *)
EXTENDS MC

MCollectFinish(t) ==
  \/ /\ pc[t] = "rFinish" /\ ~T[t].finished
     /\ T' = [T EXCEPT ![t].finished = TRUE]       \* skip still Nil
     /\ UNCHANGED pc
     /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, looperVars, qmode, verdict, ghostVars>>
  \/ /\ pc[t] = "rFinish" /\ T[t].finished
     /\ \E s \in DeadRunEnds(t) : T' = [T EXCEPT ![t].skip = s]
     /\ pc' = [pc EXCEPT ![t] = "rFree"]
     /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, looperVars, qmode, verdict, ghostVars>>
=============================================================================
