---------- MODULE MC_QUIT_WAKE_SKIPS_TIMED_PARK ----------
(* Negative control (manifest.json: TLC must report NoLostWakeup violated).
   quit() wakes the Looper only if it sleeps with no deadline (a timed park "wakes by itself"): a Looper parked
   until a delayed message's time sleeps on past the quit until then, an hour for a postDelayed an hour away,
   before it drops and tears down (held-out spec audit S29). *)
EXTENDS MCQuitTime

MWantsWake(t, w) ==
  IF t \in Msgs
  THEN /\ w.asleep /\ when[t] < w.deadline
       /\ \/ Kind[t] = "async"
          \/ w.barrier = Nil
          \/ Less(t, w.barrier)
  ELSE IF t = QuitT THEN w.asleep /\ w.deadline = INF
  ELSE w.asleep /\ w.barrier # Nil
=============================================================================
