----------------------------- MODULE MCRemovers -----------------------------
(* Two removers racing each other and the Looper for one front-of-queue    *)
(* sync message (both match it: exactly one REMOVED CAS may win), no quit, *)
(* the clock fixed at 0. The removers are interchangeable: symmetry      *)
(* (safety only, so no liveness here).                                    *)
EXTENDS MCWitness, TLC

CONSTANTS m1, r1, r2   \* model values: the message, the removers

RemMsgs == {m1}
RemKind == m1 :> "sync"
RemWhen == m1 :> 0
RemTraversers == {r1, r2}
RemOp == r1 :> "remove" @@ r2 :> "remove"
RemPred == r1 :> {m1} @@ r2 :> {m1}
RemSymmetry == Permutations({r1, r2})
=============================================================================
