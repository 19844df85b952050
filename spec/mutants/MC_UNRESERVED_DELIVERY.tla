---------- MODULE MC_UNRESERVED_DELIVERY ----------
(* Negative control (manifest.json: TLC must report AtomicRemoval violated). impl mutant UNRESERVED_DELIVERY:
   the Looper delivers what its last sweep shows with one CAS, live -> REMOVED | DELIVERED, without reserving and
   resolving against top: a removal whose descriptor was pushed after that sweep had already taken the message. *)
EXTENDS MCRemoval

MReserve ==
  /\ L.pc = "claim"
  /\ IF Deliverable = {}
       THEN L' = [L EXCEPT !.pc = "sweep"] /\ UNCHANGED flags
       ELSE \E m \in Deliverable :
              /\ flags' = [flags EXCEPT ![m] = "delivered"]   \* delivered from the sweep's view
              /\ L' = [L EXCEPT !.pc = "sweep"]
  /\ UNCHANGED <<top, next, ticket, removedBy, claimTop, pc, C, H, took>>
=============================================================================
