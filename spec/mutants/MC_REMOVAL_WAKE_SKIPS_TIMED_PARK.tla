---------- MODULE MC_REMOVAL_WAKE_SKIPS_TIMED_PARK ----------
(* Negative control (manifest.json: TLC must report NoLostWakeup violated).
   removeSyncBarrier wakes the Looper asleep behind a barrier only if it parks with no deadline (a timed park
   "wakes by itself"): behind the barrier with an async message due later, the Looper sleeps until that
   message's time past the sync message the removed barrier held back, due now (held-out spec audit S21). *)
EXTENDS MCBarrierAsync

MWantsWake(t, w) ==
  IF t \in Msgs
  THEN /\ w.asleep /\ when[t] < w.deadline
       /\ \/ Kind[t] = "async"
          \/ w.barrier = Nil
          \/ Less(t, w.barrier)
  ELSE IF t = QuitT THEN w.asleep
  ELSE w.asleep /\ w.barrier # Nil /\ w.deadline = INF
=============================================================================
