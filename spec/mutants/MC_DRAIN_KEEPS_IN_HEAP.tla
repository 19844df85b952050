---------- MODULE MC_DRAIN_KEEPS_IN_HEAP ----------
(* Negative control (manifest.json: TLC must report HeapStackConsistent violated).
   drainFreelist unlinks a removed message without taking it out of its heap (heapIndex ignored). *)
EXTENDS MC

MDrainNode ==
  /\ L.pc = "drainNode"
  /\ IF L.chain = <<>>
       THEN L' = [L EXCEPT !.pc = "dropOnQuit"] /\ UNCHANGED pending
       ELSE /\ pending' = pending \ {Head(L.chain)}
            /\ L' = [L EXCEPT !.target = Head(L.chain), !.chain = Tail(L.chain),
                              !.uret = "drainNode", !.pc = "unlink"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, prev, swept, heap, deferred, threadVars, ghostVars>>
=============================================================================
