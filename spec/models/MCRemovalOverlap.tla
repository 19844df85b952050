-------------------------- MODULE MCRemovalOverlap --------------------------
(* MCRemoval cut to fit make test: the two removals with overlapping       *)
(* predicates over two messages (r1 matches m1 and m2, r2 only m2) start   *)
(* once both messages are pushed, and the Looper once both removals have   *)
(* pushed their descriptors (or returned). What is left is the race this   *)
(* model is for: whose descriptor owns m2, two takes and two finishes over *)
(* one stack, the Looper unlinking under both walks. Pushes racing a       *)
(* removal and the Looper's reservation racing one are MCRemovers',        *)
(* MCRemovalQuit's and MCHasRemoval's; MCRemoval (make tlc-full) keeps     *)
(* every interleaving.                                                     *)
EXTENDS MCRemoval

\* CONSTRAINT: a traverser starts only once every message is pushed.
TraversersAfterPosts == \A t \in Traversers : pc[t] # "tStart" => \A m \in Msgs : Pushed(m)
\* CONSTRAINT: the Looper starts only once every removal pushed its descriptor or returned.
LooperAfterDescriptors == L # LooperInit => \A r \in Removers : DescPushed(r) \/ pc[r] = "done"
=============================================================================
