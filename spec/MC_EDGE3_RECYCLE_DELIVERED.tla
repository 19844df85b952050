---------- MODULE MC_EDGE3_RECYCLE_DELIVERED ----------
(* Negative control (models.manifest: TLC must report ExactlyOnce violated).
   upstream edge case 3: recycling a delivered message clears REMOVED while a stale traversal can still
   reach it; the remover's CAS then wins on a delivered message. *)
EXTENDS MC

MDeliver ==
  /\ L.pc = "deliver"
  /\ LET c == FirstDeliverable(heap) IN
       IF IsDue(c)
         THEN /\ heap' = heap \ {c}
              /\ IF claimForDelivery(c)
                   THEN IF QuitOwns(c)
                          THEN /\ removed' = [removed EXCEPT ![c] = TRUE]
                               /\ dropped' = dropped \cup {c}
                               /\ L' = [L EXCEPT !.target = c, !.uret = "take", !.pc = "unlink"]
                               /\ UNCHANGED dcount
                          ELSE /\ removed' = [removed EXCEPT ![c] = FALSE]   \* Message.recycle() after dispatch
                               /\ dcount' = [dcount EXCEPT ![c] = @ + 1]
                               /\ L' = [L EXCEPT !.target = c, !.uret = "loop", !.pc = "unlink"]
                               /\ UNCHANGED dropped
                   ELSE /\ L' = [L EXCEPT !.pc = "take"]
                        /\ UNCHANGED <<removed, dcount, dropped>>
         ELSE /\ L' = [L EXCEPT !.dl = IF c = Nil THEN INF ELSE when[c],
                                !.bar = BlockingBarrier(heap),
                                !.pc = IF L.quitSeen THEN "teardown" ELSE "sleep"]
              /\ UNCHANGED <<heap, removed, dcount, dropped>>
  /\ UNCHANGED <<top, next, ticket, when, freelist>> /\ UNCHANGED <<wakeVars, now>>
  /\ UNCHANGED <<prev, swept, deferred>> /\ UNCHANGED <<threadVars, lastPost>>
=============================================================================
