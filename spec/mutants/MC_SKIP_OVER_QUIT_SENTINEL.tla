--------- MODULE MC_SKIP_OVER_QUIT_SENTINEL ---------
(* Negative control (manifest.json: TLC must report SkipsPassOnlyGone violated).
   impl mutant SKIP_OVER_QUIT_SENTINEL: a finishing removal takes the quit sentinel, which is born REMOVED like
   a descriptor, for a gone node, and records a skip past it: walks that jump there no longer meet the owner of
   what the quit drops. *)
EXTENDS MC

GoneOrQuit(n) == Gone(n) \/ n = Quit
MDeadRunEnds(t) == {s \in Nodes \cup {Nil} :
                      /\ s # Nil => Published(s) /\ ticket[s] < ticket[t]
                      /\ \A n \in Nodes : Published(n) /\ TicketOf(s) < ticket[n] /\ ticket[n] < ticket[t]
                                          => GoneOrQuit(n)}
=============================================================================
