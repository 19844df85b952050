-------------------------- MODULE MCQuitSafelyClock --------------------------
(* quitSafely while the clock moves, beside a removal of a due message:   *)
(* m1 due at 0, which the removal matches, and m2 due at 1, which a quit  *)
(* at 1 keeps. The Looper can read the clock (0), lose its claim of m1 to *)
(* the removal, and sweep again, meeting the sentinel of a quit taken at  *)
(* 1 with its clock read from before: what the quit keeps is due by the  *)
(* quit's time, not by that reading (DueBy), or the Looper tears down    *)
(* over m2. Cut by three CONSTRAINTs: the quit comes once both messages   *)
(* are pushed, at time 1 (a quit at 0 is MCRemovalQuitSafely's), and the  *)
(* removal once the sentinel is. Safety and RefinementSafety. Too large   *)
(* for make test (figures in manifest.json): make tlc-full runs it, and   *)
(* make test runs its mutant, which TLC stops at the first violation.     *)
EXTENDS MCWitness, TLC

CONSTANTS m1, m2, r1   \* model values: the messages, the removal

QcMsgs == {m1, m2}
QcKind == m1 :> "sync" @@ m2 :> "sync"
QcWhen == m1 :> 0 @@ m2 :> 1
QcTraversers == {r1}
QcOp == r1 :> "remove"
QcPred == r1 :> {m1}

\* CONSTRAINT: the quitter starts only once every message is pushed.
QuitAfterPosts == pc[QuitT] # "quit" => \A m \in Msgs : Pushed(m)
\* CONSTRAINT: the quit reads the clock at 1.
QuitAtOne == QuitPushed => when[Quit] = 1
\* CONSTRAINT: a traverser starts only once the sentinel is pushed.
TraversersAfterQuit == \A t \in Traversers : pc[t] # "tStart" => QuitPushed
=============================================================================
