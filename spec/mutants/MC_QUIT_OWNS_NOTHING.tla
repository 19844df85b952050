---------- MODULE MC_QUIT_OWNS_NOTHING ----------
(* Negative control (manifest.json: TLC must report Refinement violated). impl mutant QUIT_OWNS_NOTHING: Covers
   ignores the quit sentinel, so only the Looper's drop honours the quit. A removal after quitSafely then asks about
   the message the quit dropped, finds it not covered, and takes it: the abstract queue had dropped it at the
   quit. *)
EXTENDS MCRemovalQuitSafely

MCovers(o, m) == ticket[m] < ticket[o] /\ o # Quit /\ m \in verdict[o]
=============================================================================
