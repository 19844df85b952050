---------- MODULE MC_EDGE2_SENTINEL_TOMBSTONED ----------
(* Negative control. upstream edge case 2: a barrier-token-0 removal tombstones the quit sentinel; the sweep then never sees quit and the Looper never tears down. *)
EXTENDS MC

\* removeSyncBarrier(0) matches the sentinel (target null, arg1 0)
MMatches(n) ==
  n \in Matching \/ n = Quit

\* the sentinel is pushed without REMOVED
MSentinelBornRemoved ==
  FALSE

\* the sweep skips REMOVED nodes before it tests for the sentinel
MSweepNotesQuit(n) ==
  n = Quit /\ ~removed[n]

\* traverse offers the sentinel to the visitor (no isQuitSentinel test first)
MTraverseNotesQuit(n) ==
  FALSE
=============================================================================
