---------- MODULE MC_DEAD_RUN_NEEDS_AN_END ----------
(* Negative control (manifest.json: TLC must report CallsReturn violated).
   DeliQueue.endOfDeadRun looks for the first node below the descriptor that is not Gone and never takes null
   for an end: a removal whose descriptor has only Gone nodes below it (the message it took, then the bottom of
   the stack) finds no skip to record, and its finish waits for ever. No state is wrong, and the other threads
   go on: only a call that never returns shows it. *)
EXTENDS MC

MDeadRunEnds(t) == {FirstNotGone(next[t], Cardinality(Nodes))} \ {Nil}
=============================================================================
