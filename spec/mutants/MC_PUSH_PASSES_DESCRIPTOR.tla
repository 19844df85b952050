---------- MODULE MC_PUSH_PASSES_DESCRIPTOR ----------
(* Negative control (manifest.json: TLC must report NoPushAfterQuit violated). A push refuses only the quit
   sentinel itself at top, not a removal descriptor pushed above it (quitting too): a message posted after quit()
   and after a removal that followed it is accepted (a held-out audit's bug, 2026-11-27; impl's twin is
   DESCRIPTOR_FORGETS_QUIT, which forgets the flag on the descriptor instead). *)
EXTENDS MCRemovalQuitPost

MQuitting(n) == n # Nil /\ QuitPushed /\ n = Quit
=============================================================================
