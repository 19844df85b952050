---------- MODULE MC_PENDING_OWNER_IS_LATEST ----------
(* Negative control (manifest.json: TLC must report RemovalReturnsItsSet violated). Of the pending removals that
   cover a message, the Looper takes the latest for its owner instead of the earliest (impl mutant
   EARLIEST_OWNER_IS_LATEST): when it sweeps both removers' descriptors before either collects, it tombstones the
   message for the second removal, which must not count it (the first covers it), and the first, whose push took
   it, cannot count it either. *)
EXTENDS MCRemovers

MPendingOwner(m) == LET O == {r \in pending : Covers(r, m)} IN
                      IF O = {} THEN Nil ELSE CHOOSE o \in O : \A x \in O : ticket[o] >= ticket[x]
=============================================================================
