---------- MODULE MC_QUIT_KEEPS_BARRIERS ----------
(* Negative control (manifest.json: TLC must report Refinement violated).
   quit() drops every message with a target but not the barriers (a barrier has none): the barrier stays
   queued after quit() and the Looper tears down with it still in its heap (held-out spec audit S16). *)
EXTENDS MCBarrierQuit

MDroppedByQuit(m) == (qmode = "quit" /\ Kind[m] # "barrier") \/ when[m] > when[Quit]
=============================================================================
