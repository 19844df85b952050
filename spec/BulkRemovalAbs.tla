--------------------------- MODULE BulkRemovalAbs ---------------------------
(***************************************************************************)
(* The abstract queue of issue 18, seen from removal: every operation is   *)
(* atomic, and a removal (removeMessages and every variant, from any       *)
(* thread) is ONE step that takes every queued message its predicate       *)
(* matches, as the legacy queue's removal under its lock does.             *)
(* Delivery order, barriers, time and quit are MessageQueueAbs's subject;  *)
(* here the consumer may deliver any queued message.                       *)
(***************************************************************************)
CONSTANTS Msgs,      \* message identities
          Removers,  \* removal calls, one each
          Pred       \* [Removers -> SUBSET Msgs]: what each removal's predicate matches

VARIABLES astatus,   \* [Msgs -> {"new", "queued", "delivered", "removed"}]
          adone,     \* [Removers -> BOOLEAN]: the removal has taken effect
          aremoved   \* [Removers -> SUBSET Msgs]: what it took ({} before)

avars == <<astatus, adone, aremoved>>

ATypeOK == /\ astatus \in [Msgs -> {"new", "queued", "delivered", "removed"}]
           /\ adone \in [Removers -> BOOLEAN]
           /\ \A r \in Removers : aremoved[r] \subseteq Pred[r]

AInit == /\ astatus = [m \in Msgs |-> "new"]
         /\ adone = [r \in Removers |-> FALSE]
         /\ aremoved = [r \in Removers |-> {}]

\* enqueueMessage returning true.
Enqueue(m) == /\ astatus[m] = "new"
              /\ astatus' = [astatus EXCEPT ![m] = "queued"]
              /\ UNCHANGED <<adone, aremoved>>

\* removeMessages(p): one atomic step; it returns the set it took.
RemoveAll(r) == LET took == {m \in Pred[r] : astatus[m] = "queued"} IN
                /\ ~adone[r]
                /\ adone' = [adone EXCEPT ![r] = TRUE]
                /\ aremoved' = [aremoved EXCEPT ![r] = took]
                /\ astatus' = [m \in Msgs |-> IF m \in took THEN "removed" ELSE astatus[m]]

\* The Looper delivers a queued message.
Deliver(m) == /\ astatus[m] = "queued"
              /\ astatus' = [astatus EXCEPT ![m] = "delivered"]
              /\ UNCHANGED <<adone, aremoved>>

ANext == \/ \E m \in Msgs : Enqueue(m) \/ Deliver(m)
         \/ \E r \in Removers : RemoveAll(r)

ASafety == AInit /\ [][ANext]_avars

THEOREM ASafety => []ATypeOK
=============================================================================
