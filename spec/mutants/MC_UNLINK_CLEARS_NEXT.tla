---------- MODULE MC_UNLINK_CLEARS_NEXT ----------
(* Negative control (manifest.json: TLC must report TraversalComplete violated).
   impl mutant UNLINK_CLEARS_NEXT: splice clears the unlinked message's next; a remover standing on it
   stops early and misses a live match (here the barrier below the delivered message, under the quit
   sentinel). *)
EXTENDS MCBarrier

MSplice ==
  /\ L.pc = "splice"
  /\ LET m == L.target
         p == prev[m]
         n == next[m] IN
       /\ next' = [next EXCEPT ![p] = n, ![m] = Nil]
       /\ prev' = IF n # Nil THEN [prev EXCEPT ![m] = Nil, ![n] = p] ELSE [prev EXCEPT ![m] = Nil]
  /\ L' = [L EXCEPT !.pc = L.uret, !.uret = "loop", !.target = Nil]
  /\ UNCHANGED <<top, ticket, when, freelist, flagVars, wakeVars, now, swept, heap, deferred, pending, threadVars,
                 ghostVars>>
=============================================================================
