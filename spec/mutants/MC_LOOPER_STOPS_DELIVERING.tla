---------- MODULE MC_LOOPER_STOPS_DELIVERING ----------
(* Negative control (manifest.json: TLC must report EventualDelivery violated).
   the Looper stops delivering after its first delivery (it still sweeps, sleeps and wakes): every
   safety obligation holds, delivery liveness does not. *)
EXTENDS MCNoQuit

MIsDue(c) == c # Nil /\ when[c] <= DueBy /\ \A x \in Msgs : dcount[x] = 0
=============================================================================
