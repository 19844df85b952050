-------------------------- MODULE MCRemovalOverlap --------------------------
(* MCRemoval cut to fit make test: the two removals with overlapping       *)
(* predicates over two messages (r1 matches m1 and m2, r2 only m2) start   *)
(* once both producers have returned, and the Looper once a removal has    *)
(* pushed its descriptor (or returned). What is left is the race this      *)
(* model is for: whose descriptor owns m2, two collects and two finishes   *)
(* over one stack, the Looper unlinking under both walks and reserving a   *)
(* message the second removal is about to cover. Pushes racing a removal   *)
(* are MCRemovers', MCRemovalQuit's and MCHasRemoval's; MCRemoval (make    *)
(* tlc-full) keeps every interleaving.                                     *)
EXTENDS MCRemoval

\* CONSTRAINT: the Looper starts only once some removal pushed its descriptor or returned.
LooperAfterADescriptor == L # LooperInit => \E r \in Removers : DescPushed(r) \/ pc[r] = "done"
=============================================================================
