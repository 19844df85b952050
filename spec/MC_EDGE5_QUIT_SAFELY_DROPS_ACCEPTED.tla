---------- MODULE MC_EDGE5_QUIT_SAFELY_DROPS_ACCEPTED ----------
(* Negative control. upstream edge case 5: under quitSafely a post returns true and never runs; here the sweep handles quit as soon as it meets the sentinel and never sweeps what was pushed before it. *)
EXTENDS MC

\* the sweep stops at the sentinel
MSweepStopsAt(n) ==
  n = Quit
=============================================================================
