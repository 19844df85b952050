---------- MODULE MC_SWEEP_SKIPS_BACKLINKS ----------
(* Negative control. impl mutant SWEEP_SKIPS_BACKLINKS: the sweep does not write n.prev. *)
EXTENDS MC

\* no back-link is written
MLinkBack(n, m) ==
  prev
=============================================================================
