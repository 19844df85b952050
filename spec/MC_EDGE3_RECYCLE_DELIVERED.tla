---------- MODULE MC_EDGE3_RECYCLE_DELIVERED ----------
(* Negative control. upstream edge case 3: recycling a delivered message clears REMOVED while a stale traversal can still reach it; the remover's CAS then wins on a delivered message. *)
EXTENDS MC

\* the delivered node is recycled: its flags are cleared
MFlagAfterDelivery ==
  FALSE
=============================================================================
