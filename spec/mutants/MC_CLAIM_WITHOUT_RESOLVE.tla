---------- MODULE MC_CLAIM_WITHOUT_RESOLVE ----------
(* Negative control (manifest.json: TLC must report RemovalReturnsItsSet violated). impl mutant
   UNRESERVED_DELIVERY in the whole protocol: the Looper's claim is one CAS, live -> REMOVED | DELIVERED,
   without reserving and resolving against top: a removal whose descriptor was pushed after the Looper's
   sweep had already taken the message, which is delivered anyway and which that removal cannot return.
   (MC_UNRESERVED_DELIVERY is the same bug in the removal slice.) *)
EXTENDS MCRemovers

MClaim ==
  /\ L.pc = "claim"
  /\ LET c == L.target IN
       IF claimForDelivery(c)
         THEN /\ removed' = [removed EXCEPT ![c] = TRUE] /\ delivered' = [delivered EXCEPT ![c] = TRUE]
              /\ dcount' = [dcount EXCEPT ![c] = @ + 1]
              /\ L' = [L EXCEPT !.uret = "loop", !.pc = "unlink"]
         ELSE /\ L' = [L EXCEPT !.target = Nil, !.pc = "take"]
              /\ UNCHANGED <<removed, delivered, dcount>>
  /\ UNCHANGED <<stackVars, freelist, reserved, removedBy, claimTop, wakeVars, now, looperFieldVars, threadVars,
                 lastPost, took, evals>>
=============================================================================
