------------------------------ MODULE Witness ------------------------------
(***************************************************************************)
(* Reachability witnesses. An obligation P => Q, or one about            *)
(* a step that never happens, passes vacuously in a model that never       *)
(* reaches P. So a spec names, per obligation, the situations that make it *)
(* non-trivial, as state predicates (a step's: the state before it):       *)
(*   StateWitnesses == [obligation |-> [situation |-> Lazily(P)]]          *)
(* where Lazily(P) is P as a function on {TRUE}, which TLC evaluates only  *)
(* when it is applied: Report applies it only until P is first reached.   *)
(* A CI model names Report(StateWitnesses) in its .cfg as                  *)
(*   INVARIANTS StateWitnessReport                                        *)
(* an invariant, so evaluated once per distinct state (a CONSTRAINT is     *)
(* evaluated for every successor generated: 3 times as often, measured),   *)
(* that always holds: it prints the witnesses declared, once, then each    *)
(* witness the first time a state satisfies it, once per TLC worker.       *)
(* Tlc.java reads those lines and fails unless every witness is reached in *)
(* a CI model that checks its obligation. The plural keyword: the          *)
(* obligation trace (obligations/) reads each "INVARIANT X" line of MC.cfg *)
(* as an obligation checked, which the report is not.                      *)
(*                                                                         *)
(* This TLC (2.18) has no POSTCONDITION to report at the end, so each      *)
(* worker keeps the witnesses it has yet to reach in register 1 (TLCSet).  *)
(* TLCGet of a register never set is an error: the register is set when   *)
(* TLC checks the first initial state, in its main thread, where TLCSet    *)
(* sets it for every worker and TLCGet("distinct") is 1 (the one state     *)
(* found); every later state is checked with at least two found           *)
(* (TlcWitnessTest runs this with one and two workers, two initial states).*)
(***************************************************************************)
EXTENDS TLC

LOCAL Declared(W) == UNION {{<<o, w>> : w \in DOMAIN W[o]} : o \in DOMAIN W}
LOCAL PrintEach(tag, S) == \A p \in S : PrintT(<<tag, p[1], p[2]>>)
\* TRUE. Prints the witnesses of W declared (at the first initial state) and
\* each one the first time this worker checks a state that satisfies it.
\* Register 1 holds the witnesses this worker has yet to reach.
Report(W) ==
  LET first == TLCGet("distinct") = 1
      todo == IF first THEN Declared(W) ELSE TLCGet(1)
      new == {p \in todo : W[p[1]][p[2]][TRUE]}
  IN  /\ first => PrintEach("witness declared", todo)
      /\ first \/ new # {} => PrintEach("witness reached", new) /\ TLCSet(1, todo \ new)
=============================================================================
