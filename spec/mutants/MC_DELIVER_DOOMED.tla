------------------------- MODULE MC_DELIVER_DOOMED -------------------------
(* Negative control of MessageQueueAbs!Deliver (manifest.json:           *)
(* TLC must report Refinement violated). The Looper never drops what the   *)
(* quit dooms: its dropOnQuit goes straight on to deliver, so after quit() *)
(* it delivers the message that quit() doomed. Before Deliver required     *)
(* that the quit has not doomed the message, this protocol refined the     *)
(* abstract queue.                                                          *)
EXTENDS MCHas

MDropOnQuit ==
  /\ L.pc = "dropOnQuit"
  /\ L' = [L EXCEPT !.quitDropped = L.quitSeen, !.pc = "deliver"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>
=============================================================================
