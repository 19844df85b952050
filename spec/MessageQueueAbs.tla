-------------------------- MODULE MessageQueueAbs --------------------------
(***************************************************************************)
(* The abstract message queue: what android.os.MessageQueue promises, with *)
(* every operation atomic. DeliQueue.tla refines it (see Refinement there).*)
(*                                                                         *)
(* A message goes new -> queued (enqueue) or new -> rejected (enqueue after *)
(* quit), then queued -> delivered | removed | dropped. A removal          *)
(* (removeMessages and every variant, removeSyncBarrier, from any thread)  *)
(* is ONE step that takes every queued message its predicate matches, as   *)
(* the legacy queue's removal under its lock does; for a                 *)
(* predicate that answers afresh at each call (Fickle), the queued         *)
(* messages of some set its answers made. The consumer (the *)
(* Looper) acts on its own view of the queue, which is the precise form of *)
(* the guarantee a lock-free queue can give:                               *)
(*   - aseen: the messages enqueued before its last look at the queue      *)
(*     (Observe); delivery order is among those.                           *)
(*   - alooked: the clock value of its last look at the clock; due-ness    *)
(*     is judged against it (alooked <= now).                              *)
(* quitSafely's "future" is judged against aqtime, the quit's clock       *)
(* reading, taken after every accepted post (alastpost <= aqtime <= now):  *)
(* what is due after it is dropped, the rest is kept (delivered unless a   *)
(* barrier holds it back). So a post with no delay that returned true is   *)
(* never dropped by quitSafely.                                            *)
(*   - aretiring: removed barriers that it has not yet acknowledged; they  *)
(*     keep blocking until it does (Retire, or as it looks: Observe). A    *)
(*     barrier removal takes effect at once, but the Looper learns of it   *)
(*     later.                                                              *)
(* After a quit, what it dooms is gone for removals: a removal takes only  *)
(* what the consumer will not drop.                                        *)
(* Order is (when, seq) lexicographic, seq being -seq for when = 0 (front  *)
(* of queue, LIFO); a barrier holds back every sync message after it.      *)
(***************************************************************************)
EXTENDS Integers

CONSTANTS Msgs,    \* message identities
          Kind,    \* [Msgs -> {"sync", "async", "barrier"}]
          MaxTime, \* the clock runs over 0..MaxTime
          Modes,   \* the quit modes a model allows: subset of {"quit", "quitSafely"}
          Removals, \* removal calls, one step each
          RPred,   \* [Removals -> SUBSET Msgs]: what each removal's predicate matches
          Fickle   \* removals whose predicate answers afresh at each call (a user equals that is not a function
                   \* of the payload): such a removal takes the queued messages of some subset of RPred[r]

VARIABLES astatus,   \* [Msgs -> {"new","queued","rejected","delivered","removed","dropped"}]
          awhen,     \* [Msgs -> 0..MaxTime]: the message's due time, fixed at enqueue
          aseq,      \* [Msgs -> Nat]: enqueue order (0 before enqueue)
          aclock,    \* the last sequence number handed out
          aseen,     \* messages enqueued before the consumer's last look
          alooked,   \* the consumer's last clock reading
          alastpost, \* the clock at the last accepted post
          aqtime,    \* quitSafely's clock reading (sentinel.when); 0 before it, and for quit()
          aretiring, \* removed barriers the consumer still honours
          aquit,     \* quit() or quitSafely() has taken effect
          amode,     \* the quit mode the model's quitter uses
          aclosed,   \* the consumer has found nothing deliverable after quit
          aterm,     \* the consumer has torn down
          adone,     \* [Removals -> BOOLEAN]: the removal has taken effect
          atook,     \* [Removals -> SUBSET Msgs]: what it took ({} before): what it returns
          now        \* the clock

avars == <<astatus, awhen, aseq, aclock, aseen, alooked, alastpost, aqtime, aretiring, aquit, amode, aclosed, aterm,
          adone, atook, now>>

Queued == {m \in Msgs : astatus[m] = "queued"}
Enqueued == {m \in Msgs : astatus[m] \notin {"new", "rejected"}}
Barriers == {m \in Msgs : Kind[m] = "barrier"}

ASeq(m) == IF awhen[m] = 0 THEN -aseq[m] ELSE aseq[m]
Before(x, y) == \/ awhen[x] < awhen[y]
                \/ awhen[x] = awhen[y] /\ ASeq(x) < ASeq(y)

\* The time due-ness is judged against: the consumer's clock reading, and once
\* a quit has taken effect at least the quit's time (what quitSafely keeps is
\* due by then, and the clock has passed it).
LookedAt == IF aquit /\ aqtime > alooked THEN aqtime ELSE alooked

\* Barriers the consumer honours, and the messages it may deliver now.
Blockers == {b \in aseen : b \in Barriers /\ (astatus[b] = "queued" \/ b \in aretiring)}
Unblocked == {m \in aseen \cap Queued :
                 /\ m \notin Barriers
                 /\ ~(Kind[m] = "sync" /\ \E b \in Blockers : Before(b, m))}
\* m is the least unblocked message and due at the consumer's clock reading.
InOrder(m) == /\ m \in Unblocked
              /\ awhen[m] <= LookedAt
              /\ \A x \in Unblocked \ {m} : Before(m, x)

ATypeOK == /\ astatus \in [Msgs -> {"new", "queued", "rejected", "delivered", "removed", "dropped"}]
           /\ awhen \in [Msgs -> 0..MaxTime]
           /\ aseq \in [Msgs -> Nat] /\ aclock \in Nat
           /\ aseen \subseteq Msgs /\ aretiring \subseteq Barriers
           /\ alooked \in 0..MaxTime /\ now \in 0..MaxTime /\ alooked <= now
           /\ alastpost \in 0..MaxTime /\ alastpost <= now
           /\ aqtime \in 0..MaxTime /\ aqtime <= now
           /\ aquit \in BOOLEAN /\ amode \in Modes /\ aclosed \in BOOLEAN /\ aterm \in BOOLEAN
           /\ adone \in [Removals -> BOOLEAN] /\ \A r \in Removals : atook[r] \subseteq RPred[r]

AInit == /\ astatus = [m \in Msgs |-> "new"]
         /\ awhen \in [Msgs -> 0..MaxTime]
         /\ aseq = [m \in Msgs |-> 0]
         /\ aclock = 0
         /\ aseen = {} /\ alooked = 0 /\ alastpost = 0 /\ aqtime = 0 /\ aretiring = {}
         /\ aquit = FALSE /\ amode \in Modes /\ aclosed = FALSE /\ aterm = FALSE
         /\ adone = [r \in Removals |-> FALSE] /\ atook = [r \in Removals |-> {}]
         /\ now = 0

\* enqueueMessage / postSyncBarrier returning true. awhen may be set here
\* (a barrier's when is the clock at posting).
Enqueue(m) == /\ astatus[m] = "new" /\ ~aquit
              /\ astatus' = [astatus EXCEPT ![m] = "queued"]
              /\ aseq' = [aseq EXCEPT ![m] = aclock + 1]
              /\ aclock' = aclock + 1
              /\ awhen' \in [Msgs -> 0..MaxTime]
              /\ \A x \in Msgs \ {m} : awhen'[x] = awhen[x]
              /\ alastpost' = now
              /\ UNCHANGED <<aseen, alooked, aqtime, aretiring, aquit, amode, aclosed, aterm, adone, atook, now>>

\* enqueueMessage returning false after quit.
Reject(m) == /\ astatus[m] = "new" /\ aquit
             /\ astatus' = [astatus EXCEPT ![m] = "rejected"]
             /\ UNCHANGED <<awhen, aseq, aclock, aseen, alooked, alastpost, aqtime, aretiring, aquit, amode, aclosed, aterm, adone, atook, now>>

\* quit() drops everything; quitSafely() what is due after the quit's clock
\* reading (aqtime).
Doomed(m) == amode = "quit" \/ awhen[m] > aqtime

\* removeMessages(p) / removeSyncBarrier: one atomic step; it returns the set
\* it took. A removed barrier the consumer has seen keeps blocking until it
\* retires it. A Fickle removal's predicate matches no fixed set: it takes
\* the queued messages of some set S its answers made, still in one step.
RemoveAll(r) ==
  /\ ~adone[r]
  /\ adone' = [adone EXCEPT ![r] = TRUE]
  /\ \E S \in (IF r \in Fickle THEN SUBSET RPred[r] ELSE {RPred[r]}) :
    LET took == {m \in S : astatus[m] = "queued" /\ ~(aquit /\ Doomed(m))} IN
    /\ atook' = [atook EXCEPT ![r] = took]
    /\ astatus' = [m \in Msgs |-> IF m \in took THEN "removed" ELSE astatus[m]]
    /\ aclock' \in {aclock, aclock + 1}          \* a descriptor takes a ticket; one that takes nothing pushes none
    /\ aretiring' = aretiring \cup (took \cap Barriers \cap aseen)
    /\ UNCHANGED <<awhen, aseq, aseen, alooked, alastpost, aqtime, aquit, amode, aclosed, aterm, now>>

Retire(b) == /\ b \in aretiring
             /\ aretiring' = aretiring \ {b}
             /\ UNCHANGED <<astatus, awhen, aseq, aclock, aseen, alooked, alastpost, aqtime, aquit, amode, aclosed, aterm, adone, atook, now>>

\* The consumer looks at the queue (and, when looking = TRUE, at the clock).
\* It may acknowledge removed barriers as it looks.
Observe(looking) ==
    /\ aseen' = Enqueued
    /\ alooked' = IF looking THEN now ELSE alooked
    /\ aretiring' \subseteq aretiring
    /\ UNCHANGED <<astatus, awhen, aseq, aclock, alastpost, aqtime, aquit, amode, aclosed, aterm, adone, atook, now>>

\* Only what the quit has not doomed: after quit() nothing is delivered, after
\* quitSafely() only what is due by its clock reading (before the witnesses, a
\* protocol delivering a doomed message refined this queue).
Deliver(m) == /\ ~aclosed /\ InOrder(m) /\ ~(aquit /\ Doomed(m))
              /\ astatus' = [astatus EXCEPT ![m] = "delivered"]
              /\ UNCHANGED <<awhen, aseq, aclock, aseen, alooked, alastpost, aqtime, aretiring, aquit, amode, aclosed, aterm, adone, atook, now>>

\* quit() / quitSafely() takes effect; aqtime is quitSafely's clock reading,
\* taken after every accepted post and at or before this instant. quit()
\* dooms everything and reads no clock: aqtime stays 0.
Quit == /\ ~aquit
        /\ aquit' = TRUE /\ aclock' = aclock + 1   \* the sentinel takes a ticket
        /\ aqtime' \in IF amode = "quitSafely" THEN alastpost..now ELSE {0}
        /\ UNCHANGED <<astatus, awhen, aseq, aseen, alooked, alastpost, aretiring, amode, aclosed, aterm, adone, atook, now>>

\* quitSafely's survivors are abandoned at teardown.
Drop(m) == /\ aquit /\ astatus[m] = "queued"
           /\ Doomed(m)
           /\ astatus' = [astatus EXCEPT ![m] = "dropped"]
           /\ UNCHANGED <<awhen, aseq, aclock, aseen, alooked, alastpost, aqtime, aretiring, aquit, amode, aclosed, aterm, adone, atook, now>>

\* After quit, once the consumer has seen everything and nothing is due.
Close == /\ aquit /\ ~aclosed
         /\ Enqueued \subseteq aseen
         /\ \A m \in Unblocked : awhen[m] > LookedAt
         /\ \A m \in Queued : ~Doomed(m)   \* what the quit dooms is dropped first
         /\ aclosed' = TRUE
         /\ UNCHANGED <<astatus, awhen, aseq, aclock, aseen, alooked, alastpost, aqtime, aretiring, aquit, amode, aterm, adone, atook, now>>

Terminate == /\ aclosed /\ ~aterm
             /\ aterm' = TRUE
             /\ UNCHANGED <<astatus, awhen, aseq, aclock, aseen, alooked, alastpost, aqtime, aretiring, aquit, amode, aclosed, adone, atook, now>>

Tick == /\ now < MaxTime
        /\ now' = now + 1
        /\ UNCHANGED <<astatus, awhen, aseq, aclock, aseen, alooked, alastpost, aqtime, aretiring, aquit, amode, aclosed, aterm, adone, atook>>

ANext == \/ \E m \in Msgs : Enqueue(m) \/ Reject(m) \/ Deliver(m) \/ Drop(m)
         \/ \E r \in Removals : RemoveAll(r)
         \/ \E b \in Barriers : Retire(b)
         \/ Observe(TRUE) \/ Observe(FALSE)
         \/ Quit \/ Close \/ Terminate \/ Tick

\* The consumer's steps that make progress. Weak fairness on them is what the
\* Looper, scheduled fairly, gives: a message it may deliver is delivered,
\* what a quit dooms is dropped, and after quit it closes and terminates.
Consumer == \/ \E m \in Msgs : Deliver(m) \/ Drop(m)
            \/ Close \/ Terminate

\* [ANext]_avars with the stutter first: TLC evaluates [A]_v as A, then
\* v' = v, and most steps of an implementation checked against this module
\* leave the abstract state as it is (a third less time on MCBarrier).
ASafety == AInit /\ [][UNCHANGED avars \/ ANext]_avars
ASpec == ASafety /\ WF_avars(Consumer)

THEOREM ASpec => []ATypeOK
=============================================================================
