---------- MODULE MC_SINGLE_PASS_TRAVERSAL ----------
(* Negative control. impl mutant SINGLE_PASS_TRAVERSAL: removeMatching walks once from one read of top; not linearizable. *)
EXTENDS MC2

\* one pass from one read of top
MRepeatUntilStable ==
  FALSE
=============================================================================
