---------- MODULE MC_LOST_WAKEUP ----------
(* Negative control. impl mutant LOST_WAKEUP: the Looper parks without re-reading top after publishing ASLEEP. *)
EXTENDS MC

\* sleep does not re-read top
MSleepRechecksTop ==
  FALSE
=============================================================================
