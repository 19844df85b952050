---------- MODULE MC_DELIVER_WITHOUT_REMOVED_CAS ----------
(* Negative control (manifest.json: TLC must report ExactlyOnce violated).
   impl mutant DELIVER_WITHOUT_REMOVED_CAS: the Looper checks REMOVED, then sets REMOVED | DELIVERED with a plain
   write (no CAS, no reservation): a remover that tombstones the message in between wins it too. *)
EXTENDS MC

\* claimForDelivery checks REMOVED ...
MClaim ==
  /\ L.pc = "claim"
  /\ L' = IF ~removed[L.target] THEN [L EXCEPT !.pc = "resolve"] ELSE [L EXCEPT !.target = Nil, !.pc = "take"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>

\* ... then sets REMOVED | DELIVERED with a plain write, whatever happened in between, and delivers.
MSetDelivered ==
  /\ L.pc = "resolve"
  /\ LET c == L.target IN
       /\ removed' = [removed EXCEPT ![c] = TRUE] /\ delivered' = [delivered EXCEPT ![c] = TRUE]
       /\ dcount' = [dcount EXCEPT ![c] = @ + 1]
  /\ L' = [L EXCEPT !.uret = "loop", !.pc = "unlink"]
  /\ UNCHANGED <<stackVars, freelist, reserved, removedBy, claimTop, wakeVars, now, looperFieldVars, threadVars,
                 lastPost, took, evals>>
=============================================================================
