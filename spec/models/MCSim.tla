------------------------------- MODULE MCSim -------------------------------
(* Simulation of the full model (make tlc-sim: TLC -simulate num=N        *)
(* -depth 200): random behaviours of MCFull's constants, every safety     *)
(* obligation checked on each.                                             *)
EXTENDS MCFull
=============================================================================
