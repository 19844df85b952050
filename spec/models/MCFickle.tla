------------------------------ MODULE MCFickle ------------------------------
(* A removal whose predicate answers afresh at each call (a user equals    *)
(* that is not a function of the payload: Fickle) over a front-of-queue   *)
(* sync message, racing the Looper's delivery and a quit (drops            *)
(* everything the removal does not take), the clock fixed at 0. Whatever   *)
(* the predicate answers, it is asked at most once per message, on the     *)
(* remover's thread, inside its call, and every other thread (the Looper's *)
(* liveHead and dropOnQuit, resolve) follows the verdicts the descriptor   *)
(* carries (UserCodeOnCaller), so the message is neither lost nor taken    *)
(* twice, and the removal is one atomic step over the set its answers made *)
(* (RefinementSafety). Safety only. The same with two messages and no quit *)
(* (the predicate saying yes to one and no to the other) passes too, but   *)
(* takes 1,044,360 distinct states (depth 79, 167 s): too long for CI.     *)
EXTENDS MCWitness, TLC

CONSTANTS m1, r1   \* model values: the message, the remover

FiMsgs == {m1}
FiKind == m1 :> "sync"
FiWhen == m1 :> 0
FiTraversers == {r1}
FiOp == r1 :> "remove"
FiPred == r1 :> {m1}    \* unused for a Fickle remover but by TypeOK's bound on seen
FiFickle == {r1}
=============================================================================
