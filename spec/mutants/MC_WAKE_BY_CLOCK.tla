---------- MODULE MC_WAKE_BY_CLOCK ----------
(* Negative control (manifest.json: TLC must report NoLostWakeup violated).
   A defect an earlier review found (impl mutant WAKE_BY_CLOCK): a producer decides "held back by the barrier" from
   when >= now instead of the protocol order; at uptime 0 a message that sorts before the barrier (both
   when 0: front of queue) never wakes the Looper. *)
EXTENDS MCBarrier

MWantsWake(t, w) ==
  IF t \in Msgs
  THEN /\ w.asleep /\ when[t] < w.deadline
       /\ \/ Kind[t] = "async"
          \/ w.barrier = Nil
          \/ ~(when[t] >= now)   \* signalIfEarlier's old shortcut
  ELSE IF t = QuitT THEN w.asleep
  ELSE w.asleep /\ w.barrier # Nil
=============================================================================
