------------------------------- MODULE MCDist -------------------------------
(* The CI model MC for TLC's distributed mode (spec/bin/tlc-dist.sh):     *)
(* MC's constants; MCDist.cfg is MC.cfg less its liveness properties.     *)
EXTENDS MC
=============================================================================
