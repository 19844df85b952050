---------- MODULE MC_FLOOR_FROM_UNREMOVED_VERDICTS ----------
(* Negative control (manifest.json: TLC must report RemovalReturnsItsSet violated).
   collect's floor is the least ticket among its verdicts not yet REMOVED (re-read as it walks): a lower
   verdict the Looper tombstoned for this removal lies below the floor while a higher one is still unremoved,
   and the removal returns one message fewer than it took. Needs the Looper to take the older message first
   (MCRemovalOverlap's m2 async). The held-out spec audit's S56. *)
EXTENDS MCRemovalOverlap

MVerdictFloor(t) == LET V == {v \in verdict[t] : ~removed[v]} IN
                    IF V = {} THEN 0 ELSE CHOOSE k \in {ticket[v] : v \in V} : \A v \in V : k <= ticket[v]
=============================================================================
