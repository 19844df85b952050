---------- MODULE MC_UNRESERVED_DELIVERY ----------
(* Negative control (manifest.json: TLC must report AtomicRemoval violated). impl mutant UNRESERVED_DELIVERY:
   the Looper delivers what its last sweep shows with one CAS, live -> REMOVED | DELIVERED, without reserving and
   resolving against top: a removal whose descriptor was pushed after that sweep had already taken the message.
   The same seeded bug as MC_CLAIM_WITHOUT_RESOLVE (its MClaim), caught here by the atomic view of removal
   (BulkRemovalAbs) rather than by what the removal returns. *)
EXTENDS MC_CLAIM_WITHOUT_RESOLVE
=============================================================================
