-------------------------- MODULE DeliQueueProperties --------------------------
(***************************************************************************)
(* What DeliQueue (the protocol, module DeliQueue) must satisfy: its       *)
(* obligations, invariants and properties, each under a \* obligation:     *)
(* comment whose definition name is the ID code and checkers cite (TypeOK, *)
(* the type invariant, stays with the variables in DeliQueue); the         *)
(* refinement mappings onto MessageQueueAbs and BulkRemovalAbs; the        *)
(* witnesses of each obligation (module Witness); the THEOREMs, checked on *)
(* bounded models by TLC and not proved. The models (spec/models) extend   *)
(* this module through MCWitness; trace validation through TraceDeliQueue. *)
(***************************************************************************)
EXTENDS DeliQueue

(* Obligations (docs/design.md). *)

\* An API promise: a consequence of Refinement (each abstract message has one
\* status, and Deliver, RemoveAll and Drop each take only a queued one),
\* checked directly too, so that a counterexample names it.
\* obligation: no message is delivered twice; none is both delivered and removed (or dropped)
ExactlyOnce == \A m \in Msgs : /\ dcount[m] <= 1
                               /\ dcount[m] = 1 => m \notin Counted \cup Dropped
                               /\ m \in Dropped => m \notin Counted

\* Pending messages stay reachable from top; at teardown a message that is
\* neither delivered, removed nor dropped must be one the Looper held in its
\* heap and abandoned (blocked behind a barrier, or a barrier).
\* obligation: every pushed message is delivered, removed, dropped by quit, or pending and reachable from top
NoLostMessage == \A m \in Msgs : Pushed(m) /\ ~removed[m] =>
                    /\ m \in Linked
                    /\ L.pc = "exit" => m \in heap

\* The messages the Looper has seen (its last read of top is at or above them).
Swept(m) == Pushed(m) /\ ticket[m] <= TicketOf(L.top)
\* Owned by a removal the Looper has swept: it treats m as gone.
SweptRemovalOwns(m) == OwnerOf(m) \in Removers /\ ticket[OwnerOf(m)] <= TicketOf(L.top)
\* A barrier the Looper honours: seen, not owned by a removal it has swept
\* (one pushed since its sweep it learns of later), and not tombstoned or still
\* in its heap: a removal that tombstones the barrier while the Looper chooses
\* past it (an async message) is learned of at the Looper's next sweep or when
\* it meets the dead head (MessageQueueAbs: aretiring).
Blocking(b) == Swept(b) /\ (~removed[b] \/ b \in heap) /\ ~SweptRemovalOwns(b)
Unblocked(m) == /\ Swept(m) /\ ~removed[m] /\ OwnerOf(m) \notin Removers /\ m \notin Barriers
                /\ ~(Kind[m] = "sync" /\ \E b \in Barriers : Blocking(b) /\ Less(b, m))
\* Each delivered message is the least (when, insertSeq) among due, swept,
\* unblocked messages (an action property, checked at the delivery step).
\* An API promise: a consequence of Refinement (MessageQueueAbs!InOrder),
\* checked directly too.
\* obligation: each delivered message is the least (when, insertSeq) among due, swept, unblocked messages
DeliveryOrder == [][\A m \in Msgs : dcount'[m] > dcount[m] =>
                      /\ Unblocked(m) /\ when[m] <= now
                      /\ \A x \in Msgs \ {m} : Unblocked(x) => Less(m, x)]_vars

\* A RESERVED (claimed) message is out of the heap and not yet REMOVED: the
\* CAS that resolves it, to a delivery or to an owner, clears RESERVED, else
\* a remover's collect and a query wait on it for ever.
\* obligation: a message is in a heap only if swept and linked; a live swept message is in a heap; a reserved one is live
HeapStackConsistent ==
  /\ \A m \in heap : /\ m \in Linked /\ ticket[m] <= TicketOf(L.top) /\ ~reserved[m]
                     /\ removed[m] => m \in Won          \* REMOVED in a heap: a removal's, not yet drained
  /\ \A m \in Msgs : /\ Pushed(m) /\ ~removed[m] /\ ~reserved[m] /\ SweptNode(m)
                     /\ ~(L.pc = "claim" /\ L.target = m)             \* out of the heap, about to be claimed
                     => m \in heap
  /\ \A m \in Msgs : reserved[m] => ~removed[m]                       \* resolving clears RESERVED

\* obligation: for every swept linked node m with m.next = n: n.prev = m
BackLinksConsistent == \A m \in Linked : SweptNode(m) /\ next[m] # Nil => prev[next[m]] = m

\* obligation: a cursor only visits published nodes, and tickets strictly decrease along next (walks end)
TraversalSafe == /\ \A t \in Traversers : T[t].cur = Nil \/ Published(T[t].cur)
                 /\ \A n \in Nodes : Published(n) /\ next[n] # Nil =>
                        Published(next[n]) /\ ticket[next[n]] < ticket[n]

\* A finished descriptor's skip passes only nodes that have left the queue
\* for good, whatever happened since its removal finished: so a walk that
\* jumps there misses no message in the queue and no owner it needs.
\* obligation: a finished removal's skip passes only gone nodes (removed messages, finished descriptors), for good
SkipsPassOnlyGone == \A r \in Removers : T[r].finished => ValidSkip(r, T[r].skip)

\* The Looper rests: every other thread has returned and the Looper parks
\* with no permit, so that only its deadline, if it has one, wakes it.
AtRest == /\ L.pc = "park" /\ ~permit
          /\ \A t \in Threads : pc[t] \in {"done", "failed", "never"}
\* What has left the queue leaves the stack: when the Looper rests, a gone
\* node still linked is one handed to it and not yet drained (on the
\* freelist), or the unlink it defers (the newest node while it is top).
\* A node the drain skipped would stay linked for good, walked by every
\* later removal and query: the stack would grow with each removal.
\* obligation: when the Looper rests, every gone node still linked is on the freelist or is the deferred unlink
GoneNodesUnlinkedAtRest == AtRest => \A n \in Linked : Gone(n) => n = deferred \/ n \in Range(freelist)

Collected(t) == pc[t] \in {"rFinish", "rFree", "signal", "wake", "wSignal", "wRelease", "done"}
\* What collect guarantees: its walk down from the descriptor tombstones (or
\* finds tombstoned for it) every message its removal took; nothing it took
\* is left in the queue when the walk ends.
\* obligation: a removal leaves no message it took in the queue when its walk ends
TraversalComplete == [][\A t \in Removers : ~Collected(t) /\ Collected(t)' =>
                          \A m \in took[t] : removed[m] /\ ~delivered[m] /\ removedBy[m] = t]_vars

\* removeMatching's count is the abstract removal's set: what it tombstoned
\* or found tombstoned for it is exactly what was in the queue and matching
\* at its descriptor's push.
\* An API promise: Refinement maps the removal's set to the ghost took (atook);
\* this direct check ties what the call returns to it.
\* obligation: a removal returns exactly the messages its atomic step took (queued and matching at its descriptor's push)
RemovalReturnsItsSet == \A t \in Removers : Collected(t) => Range(T[t].won) = took[t]

\* The step that ends t's traversal with its last read of top (stable), or
\* with top = null: a query answering false, or a removal returning 0
\* without a descriptor.
EndsTraversal(t) == pc[t] \in {"tStart", "tRecheck"} /\ pc'[t] = "done"
\* Any step by which a query returns (from its visitor too): a false answer
\* is checked wherever it is given, not only at a read of top.
QueryReturns(t) == t \in Askers /\ pc[t] # "done" /\ pc'[t] = "done"
\* What t's predicate stands for at that instant: Pred[t], or for a Fickle
\* remover the set its answers made (its verdicts).
EffPred(t) == IF t \in Fickle /\ Op[t] = "remove" THEN verdict[t] ELSE Pred[t]

\* hasMessages is linearizable against pushes, removals, deliveries and
\* quit: true at the read of top that began the pass in which it found a
\* live match (the match was in the queue then), false at its last, stable
\* read of top (nothing it matches in the queue then). The same holds for
\* the select walk of a removal that finds nothing: it returns 0 at that
\* read, nothing it matches being in the queue then. A false answer is
\* checked at whatever step the query gives it (a visitor that stops at a
\* removed match answers false while another match may be queued).
\* obligation: hasMessages answers as the abstract queue does at an instant of the call; a false answer wherever it is given
HasMessagesLinearizable ==
  [][\A t \in Traversers : /\ pc[t] = "tTest" /\ T'[t].found => T[t].cur \in T[t].seen
                           /\ EndsTraversal(t) \/ QueryReturns(t) => (~T'[t].found => LiveNow(EffPred(t)) = {})]_vars

\* User code (a removal's predicate) runs only on the removing thread, inside
\* its call, at most once per message per removal: no other thread (the
\* Looper, a resolver, a query, another remover) asks it, and no thread asks
\* it after the call has returned.
\* And only about a message still queued at the read of top that began the
\* pass (not one an owner node the walk passed already owns or dooms).
\* obligation: a removal's predicate runs only on its caller's thread, inside the call, at most once per message, only on a message queued at its pass's start
UserCodeOnCaller == \A e \in evals : e.by = e.of /\ e.inCall /\ e.nth = 1 /\ e.queued

\* obligation: a message tombstoned for a remover holds no payload once that removal has returned
PayloadReleased == \A t \in Removers : pc[t] = "done" /\ T[t].won # <<>> => T[t].released

\* obligation: the wake resource is never signalled after it is freed, nor freed while in use
NoUseAfterTeardown == \A t \in Threads : pc[t] \in {"wSignal", "wRelease"} => resource = "live"

\* A wake is on its way: a waker between its push and its wake, or a remover
\* whose removal took a barrier and that has not yet reached its wake.
WakePending == \/ \E t \in Threads : pc[t] \in {"signal", "wake", "wSignal"}
               \/ \E t \in Removers : /\ \E b \in Barriers : OwnerOf(b) = t
                                      /\ DescPushed(t) /\ pc[t] \notin {"done", "wRelease"}
\* A sync message held back by a barrier that no removal has taken: a removed
\* barrier stops blocking at its removal, not when the Looper learns of it.
LiveBlocked(m) == Kind[m] = "sync" /\ \E b \in Barriers : /\ Pushed(b) /\ ~removed[b]
                                                        /\ OwnerOf(b) \notin Removers /\ Less(b, m)
\* A quit the Looper has not met wakes it from any park, timed or not (the
\* spec's timed park may return at any step, so no liveness property tells a
\* quit that waits out the Looper's deadline from one that wakes it).
\* obligation: the Looper never sleeps past a due, unblocked message, nor past a quit it has not met, without a pending wake
NoLostWakeup == L.pc = "park" /\ ~permit =>
                  \/ WakePending
                  \/ /\ \A m \in Msgs : /\ Pushed(m) /\ ~removed[m] /\ OwnerOf(m) \notin Removers
                                        /\ m \notin Barriers /\ ~LiveBlocked(m)
                                        => when[m] >= L.dl
                     /\ ~(QuitPushed /\ ~L.quitSeen)

\* An API promise: a consequence of Refinement (after Quit a post is
\* Rejected), checked directly too.
\* obligation: once the quit sentinel is on top, no push succeeds
NoPushAfterQuit == QuitPushed => \A m \in Msgs : Pushed(m) => ticket[m] < ticket[Quit]

(* The three liveness obligations below are each P ~> Q for a P that holds  *)
(* until Q does: a step that falsifies P makes Q true. For such a P, P ~> Q *)
(* is equivalent to []<>(~P \/ Q): if P held at some point and Q never     *)
(* after, P would hold for ever after it, and ~P \/ Q never. TLC checks    *)
(* []<> on the state graph itself, where ~> needs a tableau graph of about *)
(* four times the states (MC: 142 s with ~>, 67 s so). So each is checked  *)
(* as that pair: the []<> form, and the step property HoldsUntil (a P that *)
(* did not hold until Q would fail the check, not pass it). TLC takes      *)
(* neither temporal operators in a definition with arguments nor [] under  *)
(* \A: hence each obligation spells its pair out. TlcLeadsToTest checks   *)
(* the pair's three verdicts on a small spec.                              *)
HoldsUntil(P, Q) == P /\ ~Q => P' \/ Q'

\* An API promise: Refinement in full implies it (the abstract consumer's weak
\* fairness: doomed messages dropped, then Close and Terminate), checked
\* directly too.
\* obligation: after quit the Looper eventually tears down (weak fairness)
QuitTerminates == /\ []<>(~QuitPushed \/ L.pc = "exit")              \* QuitPushed ~> L.pc = "exit"
                  /\ [][HoldsUntil(QuitPushed, L.pc = "exit")]_vars

Pending == {m \in Msgs : pc[m] \in {"push", "pushCas"}}
\* obligation: some pending push eventually completes (weak fairness)
PushLockFree == \* \A k : Cardinality(Pending) = k ~> Cardinality(Pending) < k
  /\ \A k \in 1..Cardinality(Msgs) : []<>(~(Cardinality(Pending) = k) \/ Cardinality(Pending) < k)
  /\ [][\A k \in 1..Cardinality(Msgs) : HoldsUntil(Cardinality(Pending) = k, Cardinality(Pending) < k)]_vars

ClosedPcs == {"teardown", "tdCheck", "tdPark", "free", "exit"}
DueUnblocked(m) == Pushed(m) /\ ~removed[m] /\ m \notin Barriers /\ when[m] <= now /\ ~LiveBlocked(m)
\* Delivered, removed or dropped (all set REMOVED), held back by a barrier
\* posted since, or the Looper closed after quit.
Settled(m) == removed[m] \/ LiveBlocked(m) \/ L.pc \in ClosedPcs
\* Delivery is live: a due message that no barrier holds back is eventually
\* delivered, removed or dropped (all set REMOVED), unless a barrier posted
\* later holds it back or the Looper has closed after quit (it abandons what
\* is left then; Refinement's Close says when it may).
\* An API promise: Refinement in full implies it over a model's finitely many
\* messages (the abstract consumer's weak fairness), checked directly too.
\* obligation: every due, unblocked, unremoved message is eventually delivered (weak fairness)
EventualDelivery == \* \A m : DueUnblocked(m) ~> Settled(m)
  /\ \A m \in Msgs : []<>(~DueUnblocked(m) \/ Settled(m))
  /\ [][\A m \in Msgs : HoldsUntil(DueUnblocked(m), Settled(m))]_vars

\* Every call off the Looper returns under weak fairness: an enqueue (accepted
\* or refused), the quit, a removal, a query. None waits for another thread to
\* do something: a RESERVED message a removal or a query meets is resolved by
\* that thread (resolve_reserved), and a removal's finish ends its dead run at
\* the first node not Gone or at null. A returned call stays returned, so
\* "eventually always" is "eventually" here, and TLC checks it with no tableau.
\* Not a consequence of Refinement: the abstract queue's removals are single
\* steps with no fairness of their own.
ReturnedPcs == {"done", "failed", "never"}    \* failed: an enqueue refused; never: no quit
\* obligation: every call off the Looper returns: enqueue, quit, removal and query (weak fairness)
CallsReturn == \A t \in Threads : <>[](pc[t] \in ReturnedPcs)

-----------------------------------------------------------------------------
(* Refinement: the mapping onto MessageQueueAbs. Linearization points: the  *)
(* push CAS (Enqueue), the sentinel push (Quit), a descriptor push           *)
(* (RemoveAll: every message the removal takes leaves the queue at once; a   *)
(* removal that found nothing: the last, stable read of top of its select),  *)
(* the resolution of a reservation (Deliver, or Drop when the quit owns the  *)
(* message), a tombstone written for the quit (Drop), the sweep's read of    *)
(* top (Observe; with the clock read at "loop"), a tombstone of a removed    *)
(* barrier the Looper still honoured (Retire), the Looper's decision to tear *)
(* down (Close), the free (Terminate). No prophecy is needed: every          *)
(* linearization point is a step of the thread concerned, because the       *)
(* abstract queue states its guarantee against the consumer's view (what it  *)
(* has seen, its clock reading, the removed barriers it still honours) or    *)
(* against the quit (its clock reading, after every accepted post's).        *)

\* A message the quit owns stays queued (doomed) until it is tombstoned for
\* the quit: Drop is the consumer's step in the abstract queue.
AStatus == [m \in Msgs |->
              IF pc[m] = "failed" THEN "rejected"
              ELSE IF ~Pushed(m) THEN "new"
              ELSE IF delivered[m] THEN "delivered"
              ELSE LET owner == OwnerOf(m) IN
                   IF owner \in Removers THEN "removed"
                   ELSE IF owner = Quit /\ removed[m] THEN "dropped"
                   ELSE "queued"]
AWhen == [m \in Msgs |-> IF Pushed(m) THEN when[m] ELSE IF Kind[m] = "barrier" THEN 0 ELSE When[m]]

Abs == INSTANCE MessageQueueAbs WITH
         astatus <- AStatus,
         awhen <- AWhen,
         aseq <- [m \in Msgs |-> IF Pushed(m) THEN ticket[m] ELSE 0],
         aclock <- TicketOf(top),
         aseen <- {m \in Msgs : Swept(m)},
         alooked <- L.now,
         alastpost <- lastPost,
         aqtime <- IF QuitPushed THEN when[Quit] ELSE 0,
         aretiring <- {b \in Barriers : Blocking(b) /\ OwnerOf(b) \in Removers},
         aquit <- QuitPushed,
         amode <- qmode,
         Modes <- QModes,
         adone <- [t \in Removers |-> DescPushed(t) \/ pc[t] = "done"],
         atook <- [t \in Removers |-> took[t]],
         Removals <- Removers,
         RPred <- [t \in Removers |-> IF t \in Fickle THEN Msgs ELSE Pred[t]],
         Fickle <- Fickle \cap Removers,
         aclosed <- L.pc \in ClosedPcs,
         aterm <- resource = "freed"

\* A removal whose predicate answers as a function of the payload (not Fickle)
\* refines RemoveAll over its predicate's set unchanged: at its descriptor's
\* push it takes LiveNow(verdict[t]), which is LiveNow(Pred[t]) then, since
\* every message of Pred[t] in the queue at that instant was met by its
\* select walk and asked (the walk covered everything below the top it CASes
\* from, and a message skipped as REMOVED or covered by an owner passed has
\* left the queue for good); one that finds nothing returns 0 at a stable
\* read of top where LiveNow(Pred[t]) = {} (HasMessagesLinearizable). A
\* Fickle removal's predicate stands for no fixed set: the abstract removal
\* takes the queued messages of some set, here its verdicts.
\* obligation: every behaviour of DeliQueue is a behaviour of the abstract queue MessageQueueAbs
Refinement == Abs!ASpec
\* Its safety part, for models too large for liveness checking.
RefinementSafety == Abs!ASafety

-----------------------------------------------------------------------------
(* Atomic removal: the mapping onto BulkRemovalAbs, the abstract queue seen *)
(* from removal, where a removal from any thread is ONE step that takes     *)
(* every queued message its predicate matches, and quit() drops every      *)
(* queued message at once. Linearization points as for Refinement; here a  *)
(* message the quit owns is dropped at the sentinel's push. It holds for   *)
(* removals whose predicate is a function of the payload (not Fickle) and  *)
(* for quit(): quitSafely keeps what is due, which BulkRemovalAbs does not *)
(* have (MessageQueueAbs, Refinement, has it). Checked on the models whose *)
(* removals race each other, quit() and a query.                          *)

\* The abstract status, with what the quit owns dropped from its push on.
BStatus == [m \in Msgs |->
              IF pc[m] = "failed" THEN "rejected"
              ELSE IF ~Pushed(m) THEN "new"
              ELSE IF delivered[m] THEN "delivered"
              ELSE IF OwnerOf(m) \in Removers THEN "removed"
              ELSE IF OwnerOf(m) = Quit THEN "dropped"
              ELSE "queued"]

BulkAbs == INSTANCE BulkRemovalAbs WITH
             Removers <- Removers,
             Pred <- [t \in Removers |-> Pred[t]],
             astatus <- BStatus,
             aquit <- QuitPushed,
             adone <- [t \in Removers |-> DescPushed(t) \/ pc[t] = "done"],
             aremoved <- [t \in Removers |-> took[t]]

\* Every behaviour is one of BulkRemovalAbs: each removal is one atomic step at
\* its descriptor's push (or, for one that found nothing, at the stable read
\* of top that ends its select), and no message it took is delivered or
\* dropped by a later quit.
\* obligation: a removal from any thread is one atomic step at its descriptor's push (refines BulkRemovalAbs)
AtomicRemoval == BulkAbs!ASafety

\* hasMessages against the queue with atomic removal: true at the read of top
\* that began the pass in which it found its match (queued then), false at
\* its last, stable read of top (nothing it matches queued then, a message a
\* removal took at its descriptor's push or the quit owns being gone).
\* obligation: hasMessages answers as the abstract queue with atomic removal does at an instant of the call
HasAnswersAtomically ==
  [][\A t \in Askers : /\ pc[t] = "tTest" /\ T'[t].found => T[t].cur \in T[t].seen
                       /\ EndsTraversal(t) /\ ~T'[t].found => \A m \in Pred[t] : BStatus[m] # "queued"]_vars

-----------------------------------------------------------------------------
(* Witnesses (module Witness): per obligation, the situations            *)
(* that make it non-trivial, as state predicates. Each must be reached in  *)
(* some CI model that checks the obligation (make tlc and make test fail   *)
(* otherwise), so that no obligation passes only because its antecedent    *)
(* never holds.                                                            *)

\* The Looper's next step delivers m: it holds m reserved and no owner node
\* pushed since its sweep covers m. A witness of a delivery step is its
\* state before: the obligations about the step read that state.
Delivering(m) == L.pc = "resolve" /\ L.target = m /\ reserved[m] /\ ResolveOwners(m) = {}
Rival(m, x) == x # m /\ Unblocked(x)
\* A timed park, a park behind a barrier: the clock and barriers at work.
TimedPark == L.pc = "park" /\ L.dl <= MaxTime
BarrierPark == L.pc = "park" /\ L.bar # Nil
\* A live message the Looper holds while it parks (due later or blocked).
ParkedOverMessage == L.pc = "park" /\ \E m \in heap : ~removed[m] /\ m \notin Barriers
\* Three producers' CASes wait on one top: one wins, two must retry.
ThreeOnOneTop == \E a, b, c \in Msgs : /\ Cardinality({a, b, c}) = 3
                                     /\ \A x \in {a, b, c} : pc[x] = "pushCas" /\ next[x] = next[a]
\* The quit landed between pushes: two producers' pushes accepted, a third
\* refused (three producers race the sentinel's CAS).
QuitBetweenPushes == \E a, b, c \in Msgs : /\ Cardinality({a, b, c}) = 3
                                          /\ Pushed(a) /\ Pushed(b) /\ pc[c] = "failed"
\* A quit dooms a message that a removal chose (the two race for it).
DoomedVerdict == \E m \in Msgs, r \in Removers : m \in verdict[r] /\ QuitPushed /\ DroppedByQuit(m)
\* quitSafely kept one message (pushed before it, not doomed) and dropped another.
KeptAndDropped == /\ qmode = "quitSafely" /\ QuitPushed /\ Dropped # {}
                  /\ \E m \in Msgs : Pushed(m) /\ ~DroppedByQuit(m)

\* A removal pushed after quitSafely whose predicate matches a message the
\* quit keeps (among its verdicts) and one the quit dropped (owned by the
\* sentinel: never asked about).
RemovalOverKeptAndDropped ==
  \E r \in Removers, k, d \in Msgs :
     /\ DescPushed(r) /\ QuitPushed /\ ticket[Quit] < ticket[r] /\ {k, d} \subseteq Pred[r]
     /\ k \in verdict[r] /\ ~DroppedByQuit(k) /\ Pushed(d) /\ DroppedByQuit(d)

\* Lazily(P): P as a function on {TRUE}, which TLC evaluates only when it is
\* applied, so that the report (Witness.tla) evaluates a witness in a state
\* only while it has not been reached.
Lazily(P) == [holds \in {TRUE} |-> P]
LinkedOwnerAbove(m) == LET lk == Linked IN m \in lk /\ \E o \in Owners \cap lk : ticket[o] > ticket[m]

StateWitnesses == [
  TypeOK |-> [freelistChain |-> Lazily(Len(freelist) >= 2)],
  DeliveryOrder |-> [
      rivalOfOtherWhen |-> Lazily(\E m, x \in Msgs : Delivering(m) /\ Rival(m, x) /\ when[x] # when[m]),
      syncAgainstAsync |-> Lazily(\E m, x \in Msgs : Delivering(m) /\ Rival(m, x) /\ Kind[x] # Kind[m]),
      pastBarrier |-> Lazily(\E m \in Msgs, b \in Barriers : Delivering(m) /\ Blocking(b))],
  ExactlyOnce |-> [
      delivered |-> Lazily(\E m \in Msgs : dcount[m] = 1),
      takenFromReservation |-> Lazily(\E m \in Counted : claimTop[m] # 0),
      droppedAfterVerdict |-> Lazily(Dropped # {} /\ DoomedVerdict)],
  NoLostMessage |-> [
      threeOnOneTop |-> Lazily(ThreeOnOneTop),
      pendingBelowOwner |-> Lazily(\E m \in Msgs : Pushed(m) /\ ~removed[m] /\ LinkedOwnerAbove(m)),
      abandonedAtExit |-> Lazily(L.pc = "exit" /\ \E m \in Msgs : Pushed(m) /\ ~removed[m])],
  HeapStackConsistent |-> [
      removedInHeap |-> Lazily(\E m \in heap : removed[m]),
      twoInHeap |-> Lazily(Cardinality(heap) >= 2)],
  BackLinksConsistent |-> [spliceBeforeSuccessor |-> Lazily(L.pc = "splice" /\ next[L.target] # Nil)],
  TraversalSafe |-> [
      cursorOnUnlinked |-> Lazily(\E t \in Traversers : T[t].cur \in Nodes /\ T[t].cur \notin Linked)],
  SkipsPassOnlyGone |-> [
      skipPastGone |-> Lazily(\E r \in Removers : T[r].finished /\ \E n \in Nodes :
                                 Published(n) /\ TicketOf(T[r].skip) < ticket[n] /\ ticket[n] < ticket[r]),
      walkJumped |-> Lazily(\E t \in Traversers : T[t].jump)],
  GoneNodesUnlinkedAtRest |-> [
      drainedBeforeRest |-> Lazily(AtRest /\ \E r \in Removers : T[r].finished /\ r \notin Linked),
      goneLinkedAtRest |-> Lazily(AtRest /\ \E n \in Linked : Gone(n))],
  NoUseAfterTeardown |-> [
      wakeDuringTeardown |-> Lazily(wakeRefs.teardown /\ wakeRefs.count > 0),
      earlyReturnBesideWaker |-> Lazily(L.pc = "tdCheck" /\ L.early /\ wakeRefs.count > 0)],
  NoLostWakeup |-> [
      parkedOverMessage |-> Lazily(ParkedOverMessage),
      timedPark |-> Lazily(TimedPark),
      barrierPark |-> Lazily(BarrierPark),
      untimedParkEndedEarly |-> Lazily(L.pc = "awake" /\ L.early /\ L.dl = INF)],
  NoPushAfterQuit |-> [
      pushRefused |-> Lazily(\E m \in Msgs : pc[m] = "failed"),
      acceptedAcceptedRefused |-> Lazily(QuitBetweenPushes)],
  PayloadReleased |-> [removalReturned |-> Lazily(\E t \in Removers : pc[t] = "done" /\ T[t].won # <<>>)],
  RemovalReturnsItsSet |-> [
      tookSome |-> Lazily(\E t \in Removers : Collected(t) /\ took[t] # {}),
      verdictLeftFirst |-> Lazily(\E t \in Removers : Collected(t) /\ took[t] # verdict[t])],
  UserCodeOnCaller |-> [
      asked |-> Lazily(evals # {}),
      verdictBesideLooper |-> Lazily(\E r \in Removers : DescPushed(r) /\ verdict[r] \cap heap # {}),
      fickleNo |-> Lazily(\E e \in evals : e.of \in Fickle /\ e.m \notin verdict[e.of])],
  TraversalComplete |-> [
      tookSome |-> Lazily(\E t \in Removers : Collected(t) /\ took[t] # {}),
      tookFromReservation |-> Lazily(\E t \in Removers : Collected(t) /\ \E m \in took[t] : claimTop[m] # 0)],
  HasMessagesLinearizable |-> [
      queryTrue |-> Lazily(\E t \in Askers : T[t].found),
      queryFalseAfterPost |-> Lazily(\E t \in Askers : pc[t] = "done" /\ ~T[t].found /\ \E m \in Pred[t] : Pushed(m)),
      queryPassedDescriptor |-> Lazily(\E t \in Askers : pc[t] # "done" /\ T[t].passed \cap Removers # {}),
      queryPassedTwoDescriptors |-> Lazily(\E t \in Askers : Cardinality(T[t].passed \cap Removers) >= 2),
      recheckFindsDescriptorOverMatch |-> Lazily(\E t \in Askers : pc[t] = "tRecheck" /\ top \in Removers
                                                   /\ top # T[t].top /\ \E m \in Pred[t] : Pushed(m)
                                                   /\ ticket[m] > TicketOf(T[t].top)),
      removalFoundNothing |-> Lazily(\E t \in Removers : pc[t] = "done" /\ ~DescPushed(t)
                                                         /\ \E m \in Pred[t] : Pushed(m))],
  AtomicRemoval |-> [
      overlappingRemovals |-> Lazily(\E r1, r2 \in Removers : r1 # r2 /\ DescPushed(r1) /\ DescPushed(r2)
                                                              /\ verdict[r1] \cap verdict[r2] # {}),
      removalThenQuit |-> Lazily(\E r \in Removers : took[r] # {} /\ QuitPushed /\ ticket[r] < ticket[Quit]),
      tookTwo |-> Lazily(\E r \in Removers : Cardinality(took[r]) >= 2),
      overlapLost |-> Lazily(\E r1, r2 \in Removers : r1 # r2 /\ took[r1] # {} /\ verdict[r1] \cap took[r2] # {}),
      takenFromReservation |-> Lazily(\E m \in Msgs : removed[m] /\ ~delivered[m] /\ removedBy[m] \in Removers
                                                     /\ claimTop[m] # 0)],
  HasAnswersAtomically |-> [
      answerTrue |-> Lazily(\E t \in Askers : T[t].found),
      answerFalseAfterPost |-> Lazily(\E t \in Askers : pc[t] = "done" /\ ~T[t].found /\ \E m \in Pred[t] : Pushed(m)),
      passedDescriptor |-> Lazily(\E t \in Askers : pc[t] # "done" /\ T[t].passed \cap Removers # {})],
  Refinement |-> [
      keptAndDropped |-> Lazily(KeptAndDropped),
      removalOverKeptAndDropped |-> Lazily(RemovalOverKeptAndDropped),
      deliverAfterQuit |-> Lazily(QuitPushed /\ \E m \in Msgs : Delivering(m)),
      doomedVerdict |-> Lazily(DoomedVerdict),
      retiring |-> Lazily(\E b \in Barriers : Blocking(b) /\ OwnerOf(b) \in Removers),
      retiringTombstone |-> Lazily(\E b \in Barriers, m \in Msgs : Delivering(m) /\ Blocking(b) /\ removed[b]
                                                                   /\ OwnerOf(b) \in Removers)],
  QuitTerminates |-> [
      teardownWaits |-> Lazily(L.pc = "tdPark"),
      timedPark |-> Lazily(TimedPark),
      barrierPark |-> Lazily(BarrierPark),
      dropped |-> Lazily(Dropped # {})],
  PushLockFree |-> [
      pushRetried |-> Lazily(\E m \in Msgs : pc[m] = "push" /\ ticket[m] # 0),
      threePending |-> Lazily(Cardinality(Pending) >= 3),
      timedPark |-> Lazily(TimedPark)],
  EventualDelivery |-> [
      timedPark |-> Lazily(TimedPark),
      barrierPark |-> Lazily(BarrierPark),
      dropped |-> Lazily(Dropped # {})],
  CallsReturn |-> [
      reservationMet |-> Lazily(\E t \in Traversers : pc[t] \in {"cTake", "tTest"} /\ reserved[T[t].cur]),
      deadRunToNull |-> Lazily(\E t \in Removers : pc[t] = "rFinish" /\ DeadRunEnds(t) = {Nil}),
      refusedEnqueue |-> Lazily(\E m \in Msgs : pc[m] = "failed"),
      quitWakes |-> Lazily(pc[QuitT] \in {"wake", "wSignal", "wRelease"})]]

-----------------------------------------------------------------------------
THEOREM Spec => [](TypeOK /\ ExactlyOnce /\ NoLostMessage /\ HeapStackConsistent /\ BackLinksConsistent
                   /\ TraversalSafe /\ NoUseAfterTeardown /\ NoLostWakeup /\ NoPushAfterQuit
                   /\ PayloadReleased /\ RemovalReturnsItsSet /\ UserCodeOnCaller /\ GoneNodesUnlinkedAtRest)
THEOREM Spec => DeliveryOrder /\ TraversalComplete /\ HasMessagesLinearizable
THEOREM Spec => AtomicRemoval /\ HasAnswersAtomically   \* for removals not Fickle, and quit() not quitSafely
THEOREM Spec => QuitTerminates /\ PushLockFree /\ EventualDelivery /\ CallsReturn
THEOREM Spec => Refinement
=============================================================================
