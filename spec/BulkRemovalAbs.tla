--------------------------- MODULE BulkRemovalAbs ---------------------------
(***************************************************************************)
(* The abstract queue, seen from removal: every operation is             *)
(* atomic, and a removal (removeMessages and every variant, from any       *)
(* thread) is ONE step that takes every queued message its predicate       *)
(* matches, as the legacy queue's removal under its lock does.             *)
(* quit() is one step too: every queued message is dropped and later     *)
(* posts are rejected. Delivery order, barriers, time and quitSafely are   *)
(* MessageQueueAbs's subject; here the consumer may deliver any queued     *)
(* message.                                                                *)
(***************************************************************************)
CONSTANTS Msgs,      \* message identities
          Removers,  \* removal calls, one each
          Pred       \* [Removers -> SUBSET Msgs]: what each removal's predicate matches

VARIABLES astatus,   \* [Msgs -> {"new", "queued", "delivered", "removed", "dropped", "rejected"}]
          aquit,     \* quit() has taken effect
          adone,     \* [Removers -> BOOLEAN]: the removal has taken effect
          aremoved   \* [Removers -> SUBSET Msgs]: what it took ({} before)

avars == <<astatus, aquit, adone, aremoved>>

ATypeOK == /\ astatus \in [Msgs -> {"new", "queued", "delivered", "removed", "dropped", "rejected"}]
           /\ aquit \in BOOLEAN
           /\ adone \in [Removers -> BOOLEAN]
           /\ \A r \in Removers : aremoved[r] \subseteq Pred[r]

AInit == /\ astatus = [m \in Msgs |-> "new"] /\ aquit = FALSE
         /\ adone = [r \in Removers |-> FALSE]
         /\ aremoved = [r \in Removers |-> {}]

\* enqueueMessage returning true.
Enqueue(m) == /\ astatus[m] = "new" /\ ~aquit
              /\ astatus' = [astatus EXCEPT ![m] = "queued"]
              /\ UNCHANGED <<aquit, adone, aremoved>>

\* enqueueMessage returning false after quit.
Reject(m) == /\ astatus[m] = "new" /\ aquit
             /\ astatus' = [astatus EXCEPT ![m] = "rejected"]
             /\ UNCHANGED <<aquit, adone, aremoved>>

\* quit(): every queued message is dropped, at once.
Quit == /\ ~aquit
        /\ aquit' = TRUE
        /\ astatus' = [m \in Msgs |-> IF astatus[m] = "queued" THEN "dropped" ELSE astatus[m]]
        /\ UNCHANGED <<adone, aremoved>>

\* removeMessages(p): one atomic step; it returns the set it took.
RemoveAll(r) == LET took == {m \in Pred[r] : astatus[m] = "queued"} IN
                /\ ~adone[r]
                /\ adone' = [adone EXCEPT ![r] = TRUE]
                /\ aremoved' = [aremoved EXCEPT ![r] = took]
                /\ astatus' = [m \in Msgs |-> IF m \in took THEN "removed" ELSE astatus[m]]
                /\ UNCHANGED aquit

\* The Looper delivers a queued message.
Deliver(m) == /\ astatus[m] = "queued"
              /\ astatus' = [astatus EXCEPT ![m] = "delivered"]
              /\ UNCHANGED <<aquit, adone, aremoved>>

ANext == \/ \E m \in Msgs : Enqueue(m) \/ Reject(m) \/ Deliver(m)
         \/ \E r \in Removers : RemoveAll(r)
         \/ Quit

\* The stutter first, as in MessageQueueAbs!ASafety: cheaper for TLC, equivalent.
ASafety == AInit /\ [][UNCHANGED avars \/ ANext]_avars

THEOREM ASafety => []ATypeOK
=============================================================================
