---------- MODULE MC_DRAIN_SKIPS_NEWEST ----------
(* Negative control (manifest.json: TLC must report GoneNodesUnlinkedAtRest violated).
   drainFreelist takes the freelist but drains the chain from its second node: the chain's head (the first
   message the last removal handed over, or its descriptor if it took none) is never unlinked and stays on
   the stack for good. A held-out audit of the spec seeded this bug (S12); it broke no obligation until
   GoneNodesUnlinkedAtRest bounded what stays linked. *)
EXTENDS MCRemovers

MDrainExchange ==
  /\ L.pc = "drain"
  /\ freelist' = <<>>
  /\ L' = IF freelist = <<>> THEN [L EXCEPT !.pc = "dropOnQuit"]
          ELSE [L EXCEPT !.chain = Tail(freelist), !.ret = "drainNode", !.pc = "sweep"]
  /\ UNCHANGED <<stackVars, flagVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>
=============================================================================
