---------- MODULE MC_COLLECT_STOPS_AT_NEWEST ----------
(* Negative control (manifest.json: TLC must report RemovalReturnsItsSet violated). collect ends below its
   newest verdict instead of its oldest (the floor taken from the wrong end of the ascending verdict tickets): a
   removal that matched two messages takes the one pushed last and returns without the other, which its
   descriptor still owns. One message per removal cannot show it: MCRemovalOverlap's r1 matches two. *)
EXTENDS MCRemovalOverlap

MVerdictFloor(t) == IF verdict[t] = {} THEN 0
                    ELSE CHOOSE k \in {ticket[v] : v \in verdict[t]} : \A v \in verdict[t] : k >= ticket[v]
=============================================================================
