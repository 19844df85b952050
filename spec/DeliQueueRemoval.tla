--------------------------- MODULE DeliQueueRemoval ---------------------------
(***************************************************************************)
(* Atomic bulk removal (issue 18): the removal protocol of                 *)
(* impl/src/main/java/org/deliqueue/DeliQueue.java, as a slice of the      *)
(* protocol: pushes, removal descriptors, the remover's walk (collect,     *)
(* takeFor), and the Looper's reserved delivery (claimForDelivery, then    *)
(* resolve). It refines BulkRemovalAbs, where a removal is one atomic step.*)
(*                                                                         *)
(* A removal pushes a descriptor onto the Treiber stack (pushDescriptor):  *)
(* that push is its linearization point; it takes every message pushed     *)
(* before it, matching its predicate and still in the queue. A descriptor  *)
(* covers the messages below it that it matches; the earliest (lowest      *)
(* ticket) covering descriptor owns a message. Whoever tombstones a        *)
(* message for an owner writes removedBy = owner before the REMOVED CAS.   *)
(* The Looper decides from its last sweep, so it reserves (RESERVED,       *)
(* claimTop = the top it swept) and then resolves: a descriptor pushed     *)
(* since claimTop that covers the message takes it, else it is delivered;  *)
(* the delivery linearizes at that read of top. Anyone meeting a RESERVED  *)
(* message resolves it the same way first.                                 *)
(*                                                                         *)
(* Left to DeliQueue.tla (the per-message protocol): heaps and delivery    *)
(* order, barriers, time, sleep and wake, quit, the freelist, unlinking    *)
(* (the stack is never spliced here), hasMessages. The quit sentinel is an *)
(* owner node too in the Java; it is not modelled here.                    *)
(*                                                                         *)
(* Atomicity as in DeliQueue.tla, and one more reduction: resolve (read    *)
(* top, then CAS from RESERVED) is one step. Only resolvers change a       *)
(* RESERVED message and each one's outcome is fixed by its read of top; the*)
(* first CAS wins, so the winner's read and CAS can be taken together: a   *)
(* push between them is ordered after the read (its linearization point   *)
(* comes later), which is what the abstract order says.                   *)
(***************************************************************************)
EXTENDS Integers, FiniteSets

CONSTANTS Msgs,      \* messages, one producer each
          Removers,  \* removal calls, one thread each; r also names its descriptor node
          Pred,      \* [Removers -> SUBSET Msgs]: the messages each removal's predicate matches
          Nil        \* null

Nodes == Msgs \cup Removers

ASSUME /\ Msgs \cap Removers = {} /\ Nil \notin Nodes
       /\ Pred \in [Removers -> SUBSET Msgs]

VARIABLES
  \* ---- shared memory (Java fields) ----
  top,       \* DeliQueue.top
  next,      \* Message.next
  ticket,    \* Message.ticket
  flags,     \* Message.flags: "live", "reserved" (RESERVED), "removed" (REMOVED), "delivered" (REMOVED | DELIVERED)
  removedBy, \* Message.removedBy: the owner a tombstone was written for
  claimTop,  \* Message.claimTop: the ticket of the top the Looper had swept when it reserved the message
  \* ---- Looper-owned ----
  L,         \* the Looper: [pc, swept: ticket of its last read of top, target]
  \* ---- other threads ----
  pc,        \* [Msgs \cup Removers -> label]
  C,         \* [Removers -> locals of collect: cur, passed (owner nodes walked past), won (counted), released]
  \* ---- history (ghost) ----
  took       \* [Removers -> SUBSET Msgs]: what the abstract removal took at the descriptor's push

vars == <<top, next, ticket, flags, removedBy, claimTop, L, pc, C, took>>

TicketOf(n) == IF n = Nil THEN 0 ELSE ticket[n]
Pushed(m) == pc[m] \notin {"push", "pushCas"}
DescPushed(r) == pc[r] \notin {"desc", "descCas"}
\* DeliQueue.covers(o, m): o was pushed after m and its predicate matches m.
Covers(o, m) == ticket[m] < ticket[o] /\ m \in Pred[o]
Earliest(S) == CHOOSE o \in S : \A x \in S : ticket[o] <= ticket[x]

LooperPcs == {"sweep", "claim", "resolve"}
TypeOK ==
  /\ top \in Nodes \cup {Nil} /\ next \in [Nodes -> Nodes \cup {Nil}] /\ ticket \in [Nodes -> Nat]
  /\ flags \in [Msgs -> {"live", "reserved", "removed", "delivered"}]
  /\ removedBy \in [Msgs -> Removers \cup {Nil}] /\ claimTop \in [Msgs -> Nat]
  /\ L \in [pc : LooperPcs, swept : Nat, target : Msgs \cup {Nil}]
  /\ \A m \in Msgs : pc[m] \in {"push", "pushCas", "done"}
  /\ \A r \in Removers : /\ pc[r] \in {"desc", "descCas", "walk", "take", "release", "done"}
                         /\ C[r] \in [cur : Nodes \cup {Nil}, passed : SUBSET Removers,
                                      won : SUBSET Msgs, released : BOOLEAN]
  /\ took \in [Removers -> SUBSET Msgs]

Init ==
  /\ top = Nil /\ next = [n \in Nodes |-> Nil] /\ ticket = [n \in Nodes |-> 0]
  /\ flags = [m \in Msgs |-> "live"] /\ removedBy = [m \in Msgs |-> Nil] /\ claimTop = [m \in Msgs |-> 0]
  /\ L = [pc |-> "sweep", swept |-> 0, target |-> Nil]
  /\ pc = [t \in Msgs \cup Removers |-> IF t \in Msgs THEN "push" ELSE "desc"]
  /\ C = [r \in Removers |-> [cur |-> Nil, passed |-> {}, won |-> {}, released |-> FALSE]]
  /\ took = [r \in Removers |-> {}]

-----------------------------------------------------------------------------
(* The abstract state (the refinement mapping, below), needed by the ghost. *)

\* A pushed message is gone once delivered, tombstoned, or covered by a pushed
\* descriptor (the removal took it at that push, whoever tombstones it later).
AStatus == [m \in Msgs |->
              IF ~Pushed(m) THEN "new"
              ELSE IF flags[m] = "delivered" THEN "delivered"
              ELSE IF flags[m] = "removed" \/ \E r \in Removers : DescPushed(r) /\ Covers(r, m) THEN "removed"
              ELSE "queued"]

\* DeliQueue.resolve(m) by a thread reading top now: the earliest descriptor pushed
\* since claimTop that covers m takes it; else it is delivered. One CAS from RESERVED.
Resolve(m) ==
  LET O == {o \in Removers : DescPushed(o) /\ claimTop[m] < ticket[o] /\ Covers(o, m)} IN
  IF O # {} THEN /\ flags' = [flags EXCEPT ![m] = "removed"]
                 /\ removedBy' = [removedBy EXCEPT ![m] = Earliest(O)]
            ELSE /\ flags' = [flags EXCEPT ![m] = "delivered"]
                 /\ UNCHANGED removedBy

-----------------------------------------------------------------------------
(* push (producers): DeliQueue.push *)

push_readTop(m) ==
  /\ pc[m] = "push"
  /\ next' = [next EXCEPT ![m] = top] /\ ticket' = [ticket EXCEPT ![m] = TicketOf(top) + 1]
  /\ pc' = [pc EXCEPT ![m] = "pushCas"]
  /\ UNCHANGED <<top, flags, removedBy, claimTop, L, C, took>>

push_casTop(m) ==
  /\ pc[m] = "pushCas"
  /\ IF top = next[m] THEN top' = m /\ pc' = [pc EXCEPT ![m] = "done"]
                      ELSE pc' = [pc EXCEPT ![m] = "push"] /\ UNCHANGED top
  /\ UNCHANGED <<next, ticket, flags, removedBy, claimTop, L, C, took>>

-----------------------------------------------------------------------------
(* removal (any thread): DeliQueue.removeMatching = pushDescriptor; collect *)

pushDescriptor_readTop(r) ==
  /\ pc[r] = "desc"
  /\ next' = [next EXCEPT ![r] = top] /\ ticket' = [ticket EXCEPT ![r] = TicketOf(top) + 1]
  /\ pc' = [pc EXCEPT ![r] = "descCas"]
  /\ UNCHANGED <<top, flags, removedBy, claimTop, L, C, took>>

\* The CAS is the removal's linearization point; the ghost records what the
\* abstract removal takes there.
pushDescriptor_casTop(r) ==
  /\ pc[r] = "descCas"
  /\ IF top = next[r]
       THEN /\ top' = r
            /\ took' = [took EXCEPT ![r] = {m \in Pred[r] : AStatus[m] = "queued"}]
            /\ C' = [C EXCEPT ![r].cur = next[r]]
            /\ pc' = [pc EXCEPT ![r] = "walk"]
       ELSE /\ pc' = [pc EXCEPT ![r] = "desc"]
            /\ UNCHANGED <<top, took, C>>
  /\ UNCHANGED <<next, ticket, flags, removedBy, claimTop, L>>

\* DeliQueue.leftBefore: delivered, owned by another removal, or covered by an
\* earlier owner node walked past.
LeftBefore(m, r) == \/ flags[m] = "delivered"
                    \/ flags[m] = "removed" /\ removedBy[m] # r
                    \/ \E o \in C[r].passed : Covers(o, m)

\* collect's loop body at the cursor: an owner node is remembered and passed;
\* a message that left before, or does not match, is passed; a match goes to
\* takeFor. One read of the flags (the predicate reads only the payload).
collect_visit(r) ==
  /\ pc[r] = "walk"
  /\ LET c == C[r].cur IN
       IF c = Nil
         THEN pc' = [pc EXCEPT ![r] = "release"] /\ UNCHANGED C
       ELSE IF c \in Removers
         THEN C' = [C EXCEPT ![r].passed = @ \cup {c}, ![r].cur = next[c]] /\ UNCHANGED pc
       ELSE IF LeftBefore(c, r) \/ c \notin Pred[r]
         THEN C' = [C EXCEPT ![r].cur = next[c]] /\ UNCHANGED pc
         ELSE pc' = [pc EXCEPT ![r] = "take"] /\ UNCHANGED C
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, L, took>>

\* takeFor(m, r): REMOVED: counted if tombstoned for r (by anyone), not if
\* delivered or another's; RESERVED: resolve first, then look again; live:
\* removedBy = r, then the REMOVED CAS (its retry loop atomic by reason (a)).
collect_takeFor(r) ==
  /\ pc[r] = "take"
  /\ LET m == C[r].cur IN
       CASE flags[m] = "reserved" ->
              /\ Resolve(m) /\ UNCHANGED <<C, pc>>
         [] flags[m] = "live" ->
              /\ flags' = [flags EXCEPT ![m] = "removed"] /\ removedBy' = [removedBy EXCEPT ![m] = r]
              /\ C' = [C EXCEPT ![r].won = @ \cup {m}, ![r].cur = next[m]]
              /\ pc' = [pc EXCEPT ![r] = "walk"]
         [] OTHER ->
              /\ C' = [C EXCEPT ![r].won = IF flags[m] = "removed" /\ removedBy[m] = r THEN @ \cup {m} ELSE @,
                                ![r].cur = next[m]]
              /\ pc' = [pc EXCEPT ![r] = "walk"]
              /\ UNCHANGED <<flags, removedBy>>
  /\ UNCHANGED <<top, next, ticket, claimTop, L, took>>

\* releasePayload of what it counted, then pushFreelist (the Looper's drain is
\* DeliQueue.tla's subject); removeMatching returns the count.
collect_release(r) ==
  /\ pc[r] = "release"
  /\ C' = [C EXCEPT ![r].released = TRUE]
  /\ pc' = [pc EXCEPT ![r] = "done"]
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, L, took>>

-----------------------------------------------------------------------------
(* The Looper: sweep, claimForDelivery (reserve), resolve (deliver) *)

\* sweep, as one step (the walk reads what only pushes wrote before top).
sweep_readTop ==
  /\ L.pc = "sweep"
  /\ L' = [L EXCEPT !.swept = TicketOf(top), !.pc = "claim"]
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, pc, C, took>>

\* What the Looper may deliver from its sweep: swept, live, and owned by no
\* descriptor it has swept (those it treats as gone).
Deliverable == {m \in Msgs : /\ Pushed(m) /\ ticket[m] <= L.swept /\ flags[m] = "live"
                             /\ ~\E o \in Removers : DescPushed(o) /\ ticket[o] <= L.swept /\ Covers(o, m)}

\* claimForDelivery: the CAS live -> RESERVED with claimTop = the swept top;
\* nothing deliverable: sweep again (the Looper would sleep; DeliQueue.tla).
claimForDelivery_reserve ==
  /\ L.pc = "claim"
  /\ IF Deliverable = {}
       THEN L' = [L EXCEPT !.pc = "sweep"] /\ UNCHANGED <<flags, claimTop>>
       ELSE \E m \in Deliverable :
              /\ flags' = [flags EXCEPT ![m] = "reserved"]
              /\ claimTop' = [claimTop EXCEPT ![m] = L.swept]
              /\ L' = [L EXCEPT !.target = m, !.pc = "resolve"]
  /\ UNCHANGED <<top, next, ticket, removedBy, pc, C, took>>

\* resolve: read top and CAS from RESERVED (unless a remover resolved it first).
resolve_readTop ==
  /\ L.pc = "resolve"
  /\ IF flags[L.target] = "reserved" THEN Resolve(L.target) ELSE UNCHANGED <<flags, removedBy>>
  /\ L' = [L EXCEPT !.target = Nil, !.pc = "sweep"]
  /\ UNCHANGED <<top, next, ticket, claimTop, pc, C, took>>

-----------------------------------------------------------------------------
Producer(m) == push_readTop(m) \/ push_casTop(m)
Remover(r) == pushDescriptor_readTop(r) \/ pushDescriptor_casTop(r) \/ collect_visit(r)
              \/ collect_takeFor(r) \/ collect_release(r)
Looper == sweep_readTop \/ claimForDelivery_reserve \/ resolve_readTop

Next == \/ \E m \in Msgs : Producer(m)
        \/ \E r \in Removers : Remover(r)
        \/ Looper

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Obligations of the slice *)

\* removeMatching's count is the abstract removal's set: what it tombstoned or
\* found tombstoned for it is exactly what was queued and matching at its push.
\* obligation: a removal returns exactly the messages its atomic step took (queued and matching at its descriptor's push)
RemovalReturnsItsSet == \A r \in Removers : pc[r] = "done" => C[r].won = took[r]

Abs == INSTANCE BulkRemovalAbs WITH
         astatus <- AStatus,
         adone <- [r \in Removers |-> DescPushed(r)],
         aremoved <- took

\* Every behaviour is one of BulkRemovalAbs: each removal is one atomic step at
\* its descriptor's push, and no message it took is delivered.
\* obligation: a removal from any thread is one atomic step at its descriptor's push (refines BulkRemovalAbs)
AtomicRemoval == Abs!ASafety

THEOREM Spec => [](TypeOK /\ RemovalReturnsItsSet) /\ AtomicRemoval
=============================================================================
