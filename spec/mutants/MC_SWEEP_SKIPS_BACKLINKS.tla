---------- MODULE MC_SWEEP_SKIPS_BACKLINKS ----------
(* Negative control (manifest.json: TLC must report BackLinksConsistent violated).
   impl mutant SWEEP_SKIPS_BACKLINKS: the sweep does not write n.prev. *)
EXTENDS MC

MLinkBack(n, m) == prev
=============================================================================
