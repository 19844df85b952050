---------- MODULE MC_QUERY_REMEMBERS_LAST_DESCRIPTOR ----------
(* Negative control (manifest.json: TLC must report HasMessagesLinearizable violated).
   hasMessages remembers only the last removal's descriptor it passed (the quit sentinel apart): a match the
   descriptor it passed first owns counts as live once the walk has passed a second descriptor (MCHasRemovers:
   m1's owner, then m2's). MC_QUERY_REMEMBERS_LAST_OWNER forgets every owner but the last, which a descriptor and
   the sentinel show; this one forgets only descriptors, which two descriptors show (the audit's S61, as the
   spec audit left it open). *)
EXTENDS MCHasRemovers

MTraverseVisit(t) ==
  /\ pc[t] = "tVisit"
  /\ LET m == T[t].cur IN
       IF m = Nil \/ ticket[m] <= T[t].floor
         THEN /\ pc' = [pc EXCEPT ![t] = IF Op[t] = "remove" /\ verdict[t] # {} THEN "dCas" ELSE "tRecheck"]
              /\ UNCHANGED T
       ELSE IF m \in Removers /\ T[m].finished
         THEN \/ T' = [T EXCEPT ![t].jump = TRUE] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
              \/ PassFinishedAsOwner /\ T' = [T EXCEPT ![t].passed = IF Op[t] = "has" THEN (@ \ Removers) \cup {m}
                                                                                  ELSE @ \cup {m}]
                                     /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
       ELSE IF m \in Owners
         THEN /\ T' = [T EXCEPT ![t].passed = IF Op[t] = "has" /\ m \in Removers THEN (@ \ Removers) \cup {m}
                                                                         ELSE @ \cup {m}]
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
