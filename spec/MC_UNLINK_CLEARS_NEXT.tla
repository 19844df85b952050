---------- MODULE MC_UNLINK_CLEARS_NEXT ----------
(* Negative control. impl mutant UNLINK_CLEARS_NEXT: splice clears the unlinked message's next; a remover standing on it stops early and misses a live match. *)
EXTENDS MC2

\* splice clears m.next
MNextAfterUnlink(n) ==
  Nil
=============================================================================
