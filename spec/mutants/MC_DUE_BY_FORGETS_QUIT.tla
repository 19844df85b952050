---------- MODULE MC_DUE_BY_FORGETS_QUIT ----------
(* Negative control (manifest.json: TLC must report Refinement violated). Once the sweep has met the quitSafely
   sentinel, the Looper judges what is due by its own clock reading alone, not by the quit's time when that is
   later: a reading taken before a lost claim and a second sweep leaves m2, which the quit at 1 kept, not due, and
   the Looper tears down over it. A held-out audit of the spec seeded this bug (S10); no CI model reaches it. *)
EXTENDS MCQuitSafelyClock

MDueBy == L.now
=============================================================================
