---------- MODULE MC_QUERY_REMEMBERS_LAST_OWNER ----------
(* Negative control (manifest.json: TLC must report HasMessagesLinearizable violated).
   hasMessages remembers only the last owner node it passed, not all of them: a match a descriptor it passed
   earlier owns counts as live once the walk has passed another owner node (MCHasQuitRemoval: the descriptor,
   then the sentinel). The held-out spec audit's S61. *)
EXTENDS MCHasQuitRemoval

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
         THEN /\ T' = [T EXCEPT ![t].passed = IF Op[t] = "has" THEN {m} ELSE @ \cup {m}]
              /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
       ELSE IF Op[t] = "remove"
         THEN /\ pc' = [pc EXCEPT ![t] = IF removed[m] \/ Covered(t, m) THEN "tAdvance" ELSE "tAsk"]
              /\ UNCHANGED T
       ELSE /\ \E to \in IF PayloadCleared(m) THEN {"tTest", "tAdvance"}
                         ELSE IF m \in Pred[t] /\ ~Covered(t, m)
                           THEN IF removed[m] THEN {"tTest", "tAdvance"} ELSE {"tTest"}
                         ELSE {"tAdvance"} :
                 pc' = [pc EXCEPT ![t] = to]
            /\ UNCHANGED T
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>
=============================================================================
