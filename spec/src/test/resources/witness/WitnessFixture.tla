--------------------------- MODULE WitnessFixture ---------------------------
(* The negative control of the witness check (TlcWitnessTest): a counter   *)
(* that climbs from 0 or 1 to 3. Bounded     's witness atTwo is reached,  *)
(* atTen never: the check must name atTen.                                 *)
EXTENDS Naturals, Witness
VARIABLE x
Init == x \in {0, 1}
Next == x < 3 /\ x' = x + 1
Bounded == x <= 3
Climbs == [][x' = x + 1]_x

Lazily(P) == [holds \in {TRUE} |-> P]
StateWitnesses == [Bounded |-> [atTwo |-> Lazily(x = 2), atTen |-> Lazily(x = 10)],
                   Climbs |-> [atThree |-> Lazily(x = 3)]]
StateWitnessReport == Report(StateWitnesses)
=============================================================================
