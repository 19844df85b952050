---------- MODULE MC_CLAIM_FLOOR_AT_TOP ----------
(* Negative control (manifest.json: TLC must report RemovalReturnsItsSet violated). impl mutant
   CLAIM_FLOOR_AT_TOP: the Looper's claim records as its floor the top it reads at the claim, not the one it
   swept. A removal whose descriptor was pushed between the sweep and the claim lies at or below that floor, so
   the resolution does not see it: the message is delivered, and the removal, which linearized at its push,
   returns without it. *)
EXTENDS MCRemovers

MClaim ==
  /\ L.pc = "claim"
  /\ LET c == L.target IN
       IF claimForDelivery(c)
         THEN /\ reserved' = [reserved EXCEPT ![c] = TRUE]
              /\ claimTop' = [claimTop EXCEPT ![c] = TicketOf(top)]
              /\ L' = [L EXCEPT !.pc = "resolve"]
         ELSE /\ L' = [L EXCEPT !.target = Nil, !.pc = "take"]
              /\ UNCHANGED <<reserved, claimTop>>
  /\ UNCHANGED <<stackVars, freelist, removed, delivered, removedBy, wakeVars, now, looperFieldVars, threadVars,
                 ghostVars>>
=============================================================================
