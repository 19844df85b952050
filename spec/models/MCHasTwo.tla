------------------------------- MODULE MCHasTwo -------------------------------
(* hasMessages over two matches: one asker matching m1 and m2 (both sync,  *)
(* due at 0), started once both producers have returned, the Looper        *)
(* delivering them, nobody quits. Every other query model gives its query  *)
(* one match, and with one match "the match I met is REMOVED" does mean    *)
(* "nothing is queued": here a false answer given at a removed match while *)
(* the other is queued fails HasMessagesLinearizable                       *)
(* (MC_QUERY_FALSE_AT_REMOVED_MATCH).                                      *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, h1   \* model values: the messages, the asker

H2Msgs == {m1, m2}
H2Kind == m1 :> "sync" @@ m2 :> "sync"
H2When == m1 :> 0 @@ m2 :> 0
H2Traversers == {h1}
H2Op == h1 :> "has"
H2Pred == h1 :> {m1, m2}
=============================================================================
