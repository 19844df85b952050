---------- MODULE MC_SELECT_ASKS_ABOUT_OWNED ----------
(* Negative control (manifest.json: TLC must report UserCodeOnCaller violated).
   select skips a message the quit sentinel it passed dooms but asks its predicate about one that a
   descriptor it passed owns: user code runs on a message that was no longer queued when the pass began
   (results stay right). UserCodeOnCaller: only about a message queued at its pass's start. The held-out spec
   audit's S42. *)
EXTENDS MCRemovers

MTraverseVisit(t) ==
  /\ pc[t] = "tVisit"
  /\ LET m == T[t].cur IN
       IF m = Nil \/ ticket[m] <= T[t].floor
         THEN /\ pc' = [pc EXCEPT ![t] = IF Op[t] = "remove" /\ verdict[t] # {} THEN "dCas" ELSE "tRecheck"]
              /\ UNCHANGED T
       ELSE IF m \in Removers /\ T[m].finished
         THEN \/ T' = [T EXCEPT ![t].jump = TRUE] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
              \/ PassFinishedAsOwner /\ T' = [T EXCEPT ![t].passed = @ \cup {m}] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
       ELSE IF m \in Owners
         THEN /\ T' = [T EXCEPT ![t].passed = @ \cup {m}] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
       ELSE IF Op[t] = "remove"
         THEN /\ pc' = [pc EXCEPT ![t] = IF removed[m] \/ (Quit \in T[t].passed /\ Covers(Quit, m))
                                          THEN "tAdvance" ELSE "tAsk"]
              /\ UNCHANGED T
       ELSE /\ \E to \in IF PayloadCleared(m) THEN {"tTest", "tAdvance"}
                         ELSE IF m \in Pred[t] /\ ~Covered(t, m)
                           THEN IF removed[m] THEN {"tTest", "tAdvance"} ELSE {"tTest"}
                         ELSE {"tAdvance"} :
                 pc' = [pc EXCEPT ![t] = to]
            /\ UNCHANGED T
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>
=============================================================================
