-------------------------- MODULE MCRemovalOverlap --------------------------
(* MCRemoval cut to fit make test: the two removals with overlapping       *)
(* predicates over two messages (r1 matches m1 and m2, r2 only m2) start   *)
(* once both producers have returned, and the Looper once a removal has    *)
(* pushed its descriptor (or returned). What is left is the race this      *)
(* model is for: whose descriptor owns m2, two collects and two finishes   *)
(* over one stack, the Looper unlinking under both walks and reserving a   *)
(* message the second removal is about to cover. Pushes racing a removal   *)
(* are MCRemovers', MCRemovalQuit's and MCHasRemoval's; MCRemoval (make    *)
(* tlc-full) keeps every interleaving. m2 is asynchronous: the Looper     *)
(* looks at the sync heap first, so it can tombstone the older m1 for a    *)
(* pending removal while m2, above it and owned by the other removal, is   *)
(* still in the async heap: a collect whose lower verdict another thread   *)
(* tombstoned for it (MC_FLOOR_FROM_UNREMOVED_VERDICTS).                   *)
EXTENDS MCRemoval

RoKind == m1 :> "sync" @@ m2 :> "async"

\* CONSTRAINT: the Looper starts only once some removal pushed its descriptor or returned.
LooperAfterADescriptor == L # LooperInit => \E r \in Removers : DescPushed(r) \/ pc[r] = "done"
=============================================================================
