------------------------- MODULE MCRemovalHasPosted -------------------------
(* MCRemovalHas cut to fit make test: a hasMessages caller and a removal,  *)
(* both matching m1, over two front-of-queue sync messages, start once     *)
(* both producers have returned, and so does the Looper. What is left is   *)
(* the query's walk beside the removal's descriptor and the Looper's       *)
(* delivery over a stack of two messages. Pushes racing a query are        *)
(* MCHas's and MCHasRemoval's; MCRemovalHas (make tlc-full) keeps every    *)
(* interleaving.                                                           *)
EXTENDS MCRemovalHas

\* CONSTRAINT: the Looper starts only once every producer has returned.
LooperAfterPosts == L # LooperInit => ProducersReturned
=============================================================================
