--------------------------- MODULE LeadsToFixture ---------------------------
(* The negative controls of the form DeliQueueProperties.tla checks P ~> Q *)
(* in (TlcLeadsToTest): []<>(~P \/ Q) with the step property that P holds *)
(* until Q. x climbs from 0 to 3 under weak fairness and stops there.     *)
EXTENDS Naturals

VARIABLE x
vars == <<x>>

Init == x = 0
Next == x < 3 /\ x' = x + 1
Spec == Init /\ [][Next]_vars /\ WF_vars(Next)

HoldsUntil(P, Q) == P /\ ~Q => P' \/ Q'   \* as in DeliQueueProperties.tla

\* x >= 1 holds until x = 3, which comes: the pair holds.
Reached == /\ []<>(~(x >= 1) \/ x = 3)
           /\ [][HoldsUntil(x >= 1, x = 3)]_vars
\* x >= 1 holds until x = 4, which never comes: the []<> part fails.
NeverReached == /\ []<>(~(x >= 1) \/ x = 4)
                /\ [][HoldsUntil(x >= 1, x = 4)]_vars
\* x = 1 ~> x = 3 holds, but x = 1 does not hold until x = 3: the step
\* property fails, so a P that is not stable fails the check, never passes it.
NotStable == /\ []<>(~(x = 1) \/ x = 3)
             /\ [][HoldsUntil(x = 1, x = 3)]_vars
=============================================================================
