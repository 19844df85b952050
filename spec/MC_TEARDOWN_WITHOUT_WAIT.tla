---------- MODULE MC_TEARDOWN_WITHOUT_WAIT ----------
(* Negative control. impl mutant TEARDOWN_WITHOUT_WAIT: teardown frees the wake resource without waiting for the wakers' count to drain. *)
EXTENDS MC

\* teardown frees at once
MTeardownWaits ==
  FALSE
=============================================================================
