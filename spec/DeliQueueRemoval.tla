--------------------------- MODULE DeliQueueRemoval ---------------------------
(***************************************************************************)
(* Atomic bulk removal: the removal protocol of                          *)
(* impl/src/main/java/org/deliqueue/DeliQueue.java, as a slice of the      *)
(* protocol: pushes, removal descriptors, the remover's walk (collect,     *)
(* takeFor), and the Looper's reserved delivery (claimForDelivery, then    *)
(* resolve). It refines BulkRemovalAbs, where a removal is one atomic step.*)
(* DeliQueue.tla has the same steps amid the whole protocol; this slice    *)
(* leaves out heaps, time, barriers, sleep and the freelist, so its models *)
(* reach what the full spec's cannot in CI time: two removals with         *)
(* overlapping predicates over two messages, a removal against quit, and   *)
(* a query against a removal.                                              *)
(*                                                                         *)
(* A removal first walks the stack as hasMessages does (select), asking    *)
(* its predicate, on its own thread and once per message, about each       *)
(* message that is not REMOVED and that no owner node it passed covers; the *)
(* yes answers are its verdicts. None: it returns 0 at a stable read of top *)
(* and pushes nothing. Else it pushes a descriptor holding the verdicts     *)
(* onto the Treiber stack (pushDescriptor) above the top its walk started   *)
(* from: that push is its linearization point; it takes every message      *)
(* pushed before it, matching its predicate and still in the queue (each   *)
(* was met and asked). A descriptor covers the messages below it among its *)
(* verdicts: data, so no thread but the remover runs its predicate. The    *)
(* earliest (lowest ticket) covering descriptor owns a message. Whoever     *)
(* message for an owner writes removedBy = owner before the REMOVED CAS.   *)
(* The Looper decides from its last sweep, so it reserves (RESERVED,       *)
(* claimTop = the top it swept) and then resolves: a descriptor pushed     *)
(* since claimTop that covers the message takes it, else it is delivered;  *)
(* the delivery linearizes at that read of top. Anyone meeting a RESERVED  *)
(* message resolves it the same way first.                                 *)
(*                                                                         *)
(* quit() pushes the sentinel, an owner node too: it covers every message *)
(* below it (quit drops everything), and pushes of messages above a       *)
(* quitting node fail; the Looper tombstones for the sentinel what it owns *)
(* (dropOnQuit). hasMessages callers (Askers) traverse the stack and treat *)
(* a message owned by an owner node they passed as gone. Left to          *)
(* DeliQueue.tla (the per-message protocol): heaps and delivery order,    *)
(* barriers, time and quitSafely, sleep and wake, the freelist, unlinking  *)
(* (the stack is never spliced here).                                      *)
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
          Quit,      \* the quit sentinel (a Message with FLAG_QUIT_SENTINEL)
          QuitT,     \* the quitter thread
          Quitters,  \* {QuitT}: somebody calls quit(); {}: nobody quits
          Askers,    \* hasMessages callers, one thread each
          HPred,     \* [Askers -> SUBSET Msgs]: the messages each caller's predicate matches
          Nil        \* null

Owners == Removers \cup {Quit}            \* DeliQueue.isOwnerNode
Nodes == Msgs \cup Owners
Threads == Msgs \cup Removers \cup {QuitT} \cup Askers

ASSUME /\ Msgs \cap Removers = {} /\ Quit \notin Msgs \cup Removers /\ Nil \notin Nodes
       /\ QuitT \notin Msgs \cup Removers /\ Quitters \subseteq {QuitT}
       /\ Pred \in [Removers -> SUBSET Msgs] /\ HPred \in [Askers -> SUBSET Msgs]
       /\ Askers \cap (Msgs \cup Removers \cup {QuitT}) = {}

VARIABLES
  \* ---- shared memory (Java fields) ----
  top,       \* DeliQueue.top
  next,      \* Message.next
  ticket,    \* Message.ticket
  flags,     \* Message.flags: "live", "reserved" (RESERVED), "removed" (REMOVED), "delivered" (REMOVED | DELIVERED)
  removedBy, \* Message.removedBy: the owner node a tombstone was written for
  claimTop,  \* Message.claimTop: the ticket of the top the Looper had swept when it reserved the message
  \* ---- Looper-owned ----
  L,         \* the Looper: [pc, swept: ticket of its last read of top, target]
  \* ---- other threads ----
  pc,        \* [Threads -> label]
  C,         \* [Removers -> locals of select and collect: cur, passed (owner nodes walked past), won (counted),
             \* released; select's top and floor; verdict: the messages its predicate said yes to, the
             \* descriptor's data from its push on]
  H,         \* [Askers -> locals of traverse: top, floor, cur, passed, found; seen: ghost, see HasAnswersAtomically]
  \* ---- history (ghost) ----
  took       \* [Removers -> SUBSET Msgs]: what the abstract removal took at the descriptor's push

vars == <<top, next, ticket, flags, removedBy, claimTop, L, pc, C, H, took>>

TicketOf(n) == IF n = Nil THEN 0 ELSE ticket[n]
Pushed(m) == pc[m] \notin {"push", "pushCas", "failed"}
DescPushed(r) == ticket[r] # 0                \* written with the push CAS (private until then)
QuitPushed == pc[QuitT] = "done"
OwnerPushed(o) == IF o = Quit THEN QuitPushed ELSE DescPushed(o)
\* DeliQueue.covers(o, m): o was pushed after m and m is among its verdicts
\* (the sentinel: quit drops everything).
Covers(o, m) == ticket[m] < ticket[o] /\ (o = Quit \/ m \in C[o].verdict)
\* DeliQueue.isQuitting(n): the sentinel, or a node pushed above it.
Quitting(n) == n # Nil /\ QuitPushed /\ ticket[n] >= ticket[Quit]
Earliest(S) == CHOOSE o \in S : \A x \in S : ticket[o] <= ticket[x]

LooperPcs == {"sweep", "drop", "claim", "resolve"}
TypeOK ==
  /\ top \in Nodes \cup {Nil} /\ next \in [Nodes -> Nodes \cup {Nil}] /\ ticket \in [Nodes -> Nat]
  /\ flags \in [Msgs -> {"live", "reserved", "removed", "delivered"}]
  /\ removedBy \in [Msgs -> Owners \cup {Nil}] /\ claimTop \in [Msgs -> Nat]
  /\ L \in [pc : LooperPcs, swept : Nat, target : Msgs \cup {Nil}]
  /\ \A m \in Msgs : pc[m] \in {"push", "pushCas", "failed", "done"}
  /\ pc[QuitT] \in {"never", "quit", "quitCas", "done"}
  /\ \A r \in Removers : /\ pc[r] \in {"sStart", "sVisit", "sRecheck", "descCas", "walk", "take", "release", "done"}
                         /\ C[r] \in [cur : Nodes \cup {Nil}, passed : SUBSET Owners,
                                      won : SUBSET Msgs, released : BOOLEAN,
                                      top : Nodes \cup {Nil}, floor : Nat, verdict : SUBSET Pred[r]]
  /\ \A h \in Askers : /\ pc[h] \in {"hStart", "hVisit", "hTest", "hRecheck", "done"}
                       /\ H[h] \in [top : Nodes \cup {Nil}, floor : Nat, cur : Nodes \cup {Nil},
                                    passed : SUBSET Owners, found : BOOLEAN, seen : SUBSET HPred[h]]
  /\ took \in [Removers -> SUBSET Msgs]

HInit == [top |-> Nil, floor |-> 0, cur |-> Nil, passed |-> {}, found |-> FALSE, seen |-> {}]

Init ==
  /\ top = Nil /\ next = [n \in Nodes |-> Nil] /\ ticket = [n \in Nodes |-> 0]
  /\ flags = [m \in Msgs |-> "live"] /\ removedBy = [m \in Msgs |-> Nil] /\ claimTop = [m \in Msgs |-> 0]
  /\ L = [pc |-> "sweep", swept |-> 0, target |-> Nil]
  /\ pc = [t \in Threads |-> IF t \in Msgs THEN "push" ELSE IF t \in Removers THEN "sStart"
                             ELSE IF t \in Askers THEN "hStart"
                             ELSE IF t \in Quitters THEN "quit" ELSE "never"]
  /\ H = [h \in Askers |-> HInit]
  /\ C = [r \in Removers |-> [cur |-> Nil, passed |-> {}, won |-> {}, released |-> FALSE,
                               top |-> Nil, floor |-> 0, verdict |-> {}]]
  /\ took = [r \in Removers |-> {}]

-----------------------------------------------------------------------------
(* The abstract state (the refinement mapping, below), needed by the ghost. *)

\* A pushed message is gone once delivered, tombstoned, or covered by a pushed
\* owner node: its earliest one took it at its push (a removal: removed; the
\* quit: dropped), whoever tombstones it later.
AStatus == [m \in Msgs |->
              IF pc[m] = "failed" THEN "rejected"
              ELSE IF ~Pushed(m) THEN "new"
              ELSE IF flags[m] = "delivered" THEN "delivered"
              ELSE IF flags[m] = "removed" THEN (IF removedBy[m] = Quit THEN "dropped" ELSE "removed")
              ELSE LET O == {o \in Owners : OwnerPushed(o) /\ Covers(o, m)} IN
                   IF O = {} THEN "queued" ELSE IF Earliest(O) = Quit THEN "dropped" ELSE "removed"]

\* DeliQueue.resolve(m) by a thread reading top now: the earliest descriptor pushed
\* since claimTop that covers m takes it; else it is delivered. One CAS from RESERVED.
Resolve(m) ==
  LET O == {o \in Owners : OwnerPushed(o) /\ claimTop[m] < ticket[o] /\ Covers(o, m)} IN
  IF O # {} THEN /\ flags' = [flags EXCEPT ![m] = "removed"]
                 /\ removedBy' = [removedBy EXCEPT ![m] = Earliest(O)]
            ELSE /\ flags' = [flags EXCEPT ![m] = "delivered"]
                 /\ UNCHANGED removedBy

-----------------------------------------------------------------------------
(* push (producers): DeliQueue.push *)

push_readTop(m) ==
  /\ pc[m] = "push"
  /\ IF Quitting(top)
       THEN pc' = [pc EXCEPT ![m] = "failed"] /\ UNCHANGED <<next, ticket>>
       ELSE /\ next' = [next EXCEPT ![m] = top] /\ ticket' = [ticket EXCEPT ![m] = TicketOf(top) + 1]
            /\ pc' = [pc EXCEPT ![m] = "pushCas"]
  /\ UNCHANGED <<top, flags, removedBy, claimTop, L, C, H, took>>

push_casTop(m) ==
  /\ pc[m] = "pushCas"
  /\ IF top = next[m] THEN top' = m /\ pc' = [pc EXCEPT ![m] = "done"]
                      ELSE pc' = [pc EXCEPT ![m] = "push"] /\ UNCHANGED top
  /\ UNCHANGED <<next, ticket, flags, removedBy, claimTop, L, C, H, took>>

-----------------------------------------------------------------------------
(* quit (quitter): DeliQueue.quitQueue pushes the sentinel; its CAS is the  *)
(* quit's linearization point: from then on it owns what it covers.        *)

quit_readTop ==
  /\ pc[QuitT] = "quit"
  /\ next' = [next EXCEPT ![Quit] = top] /\ ticket' = [ticket EXCEPT ![Quit] = TicketOf(top) + 1]
  /\ pc' = [pc EXCEPT ![QuitT] = "quitCas"]
  /\ UNCHANGED <<top, flags, removedBy, claimTop, L, C, H, took>>

quit_casTop ==
  /\ pc[QuitT] = "quitCas"
  /\ IF top = next[Quit] THEN top' = Quit /\ pc' = [pc EXCEPT ![QuitT] = "done"]
                         ELSE pc' = [pc EXCEPT ![QuitT] = "quit"] /\ UNCHANGED top
  /\ UNCHANGED <<next, ticket, flags, removedBy, claimTop, L, C, H, took>>

-----------------------------------------------------------------------------
(* removal (any thread): DeliQueue.removeMatching = select (with          *)
(* pushDescriptor), then collect                                           *)

\* select's read of top that starts a pass (the first, or again at the end
\* of a segment without verdicts, or after a failed push): top = null, or
\* top unchanged at the end of a pass, ends the removal: it returns 0 and
\* pushes nothing (its atomic step, at this read, takes nothing).
select_readTop(r) ==
  /\ pc[r] \in {"sStart", "sRecheck"}
  /\ IF top = Nil \/ (pc[r] = "sRecheck" /\ top = C[r].top)
       THEN pc' = [pc EXCEPT ![r] = "done"] /\ UNCHANGED C
       ELSE /\ C' = [C EXCEPT ![r].floor = IF pc[r] = "sStart" THEN 0 ELSE TicketOf(C[r].top),
                              ![r].top = top, ![r].cur = top]
            /\ pc' = [pc EXCEPT ![r] = "sVisit"]
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, L, H, took>>

\* select at the cursor: the segment ends at null or the floor (with
\* verdicts: on to the push; without: read top again); an owner node is
\* remembered and passed; a message an owner passed covers is skipped; any
\* other is asked about, once: the read of its flags (REMOVED: skipped) and
\* the predicate are one step, as in DeliQueue.tla (removeMatching_ask), and
\* so is the read of next (only pushes write next in this slice).
select_visit(r) ==
  /\ pc[r] = "sVisit"
  /\ LET c == C[r].cur IN
       IF c = Nil \/ ticket[c] <= C[r].floor
         THEN pc' = [pc EXCEPT ![r] = IF C[r].verdict # {} THEN "descCas" ELSE "sRecheck"] /\ UNCHANGED C
       ELSE IF c \in Owners
         THEN C' = [C EXCEPT ![r].passed = @ \cup {c}, ![r].cur = next[c]] /\ UNCHANGED pc
       ELSE IF (\E o \in C[r].passed : Covers(o, c)) \/ flags[c] \in {"removed", "delivered"} \/ c \notin Pred[r]
         THEN C' = [C EXCEPT ![r].cur = next[c]] /\ UNCHANGED pc
         ELSE C' = [C EXCEPT ![r].verdict = @ \cup {c}, ![r].cur = next[c]] /\ UNCHANGED pc
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, L, H, took>>

\* The CAS of the descriptor (next, ticket and verdicts written before it,
\* private) above the top the last segment started from: the removal's
\* linearization point; the ghost records what the abstract removal takes
\* there. Failed: read top again and walk the new segment.
pushDescriptor_casTop(r) ==
  /\ pc[r] = "descCas"
  /\ IF top = C[r].top
       THEN /\ top' = r
            /\ next' = [next EXCEPT ![r] = C[r].top]
            /\ ticket' = [ticket EXCEPT ![r] = TicketOf(C[r].top) + 1]
            /\ took' = [took EXCEPT ![r] = {m \in C[r].verdict : AStatus[m] = "queued"}]
            /\ C' = [C EXCEPT ![r].cur = C[r].top, ![r].passed = {}]
            /\ pc' = [pc EXCEPT ![r] = "walk"]
       ELSE /\ pc' = [pc EXCEPT ![r] = "sRecheck"]
            /\ UNCHANGED <<top, next, ticket, took, C>>
  /\ UNCHANGED <<flags, removedBy, claimTop, L, H>>

\* DeliQueue.leftBefore: delivered, owned by another removal, or covered by an
\* earlier owner node walked past.
LeftBefore(m, r) == \/ flags[m] = "delivered"
                    \/ flags[m] = "removed" /\ removedBy[m] # r
                    \/ \E o \in C[r].passed : Covers(o, m)

\* The least ticket among r's verdicts: below it collect can take nothing.
VerdictFloor(r) == IF C[r].verdict = {} THEN 0
                   ELSE CHOOSE k \in {ticket[v] : v \in C[r].verdict} : \A v \in C[r].verdict : k <= ticket[v]

\* collect's loop body at the cursor: the walk ends at null or below the
\* least verdict; an owner node is remembered and passed; a message that left
\* before, or is not among the verdicts, is passed; a verdict goes to takeFor.
\* One read of the flags; no user code.
collect_visit(r) ==
  /\ pc[r] = "walk"
  /\ LET c == C[r].cur IN
       IF c = Nil \/ ticket[c] < VerdictFloor(r)
         THEN pc' = [pc EXCEPT ![r] = "release"] /\ UNCHANGED C
       ELSE IF c \in Owners
         THEN C' = [C EXCEPT ![r].passed = @ \cup {c}, ![r].cur = next[c]] /\ UNCHANGED pc
       ELSE IF LeftBefore(c, r) \/ c \notin C[r].verdict
         THEN C' = [C EXCEPT ![r].cur = next[c]] /\ UNCHANGED pc
         ELSE pc' = [pc EXCEPT ![r] = "take"] /\ UNCHANGED C
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, L, H, took>>

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
  /\ UNCHANGED <<top, next, ticket, claimTop, L, H, took>>

\* releasePayload of what it counted, then pushFreelist (the Looper's drain is
\* DeliQueue.tla's subject); removeMatching returns the count.
collect_release(r) ==
  /\ pc[r] = "release"
  /\ C' = [C EXCEPT ![r].released = TRUE]
  /\ pc' = [pc EXCEPT ![r] = "done"]
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, L, H, took>>

-----------------------------------------------------------------------------
(* The Looper: sweep, claimForDelivery (reserve), resolve (deliver) *)

\* sweep, as one step (the walk reads what only pushes wrote before top).
sweep_readTop ==
  /\ L.pc = "sweep"
  /\ L' = [L EXCEPT !.swept = TicketOf(top), !.pc = "drop"]
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, pc, C, H, took>>

\* The owner nodes the Looper has swept that cover m.
SweptOwners(m) == {o \in Owners : OwnerPushed(o) /\ ticket[o] <= L.swept /\ Covers(o, m)}
\* What the Looper may deliver from its sweep: swept, live, and owned by no
\* owner node it has swept (those it treats as gone).
Deliverable == {m \in Msgs : /\ Pushed(m) /\ ticket[m] <= L.swept /\ flags[m] = "live"
                             /\ SweptOwners(m) = {}}
\* What the Looper drops once its sweep met the sentinel: the live messages
\* whose earliest owner is the sentinel (an earlier removal's are its own).
Droppable == {m \in Msgs : /\ Pushed(m) /\ ticket[m] <= L.swept /\ flags[m] = "live"
                           /\ SweptOwners(m) # {} /\ Earliest(SweptOwners(m)) = Quit}

\* dropOnQuit: takeFor(m, sentinel), one message per step (the REMOVED CAS
\* with removedBy = the sentinel); none left: on to delivery.
dropOnQuit_takeFor ==
  /\ L.pc = "drop"
  /\ IF Droppable = {}
       THEN L' = [L EXCEPT !.pc = "claim"] /\ UNCHANGED <<flags, removedBy>>
       ELSE \E m \in Droppable :
              /\ flags' = [flags EXCEPT ![m] = "removed"] /\ removedBy' = [removedBy EXCEPT ![m] = Quit]
              /\ UNCHANGED L
  /\ UNCHANGED <<top, next, ticket, claimTop, pc, C, H, took>>

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
  /\ UNCHANGED <<top, next, ticket, removedBy, pc, C, H, took>>

\* resolve: read top and CAS from RESERVED (unless a remover resolved it first).
resolve_readTop ==
  /\ L.pc = "resolve"
  /\ IF flags[L.target] = "reserved" THEN Resolve(L.target) ELSE UNCHANGED <<flags, removedBy>>
  /\ L' = [L EXCEPT !.target = Nil, !.pc = "sweep"]
  /\ UNCHANGED <<top, next, ticket, claimTop, pc, C, H, took>>

-----------------------------------------------------------------------------
(* hasMessages (any thread): DeliQueue.traverse with hasMatching's visitor  *)
(* (isLive: a RESERVED message is resolved first). Owner nodes passed are   *)
(* remembered across passes; a message one of them covers is gone.         *)

\* The ghost recorded at each read of top: the matches queued then.
QueuedMatches(h) == {m \in HPred[h] : AStatus[m] = "queued"}

\* The read of top that starts a pass (the first, or again when top moved).
traverse_readTop(h) ==
  /\ pc[h] \in {"hStart", "hRecheck"}
  /\ IF top = Nil \/ (pc[h] = "hRecheck" /\ top = H[h].top)
       THEN pc' = [pc EXCEPT ![h] = "done"] /\ UNCHANGED H                   \* answers false
       ELSE /\ H' = [H EXCEPT ![h].floor = IF pc[h] = "hStart" THEN 0 ELSE TicketOf(H[h].top),
                              ![h].top = top, ![h].cur = top, ![h].seen = QueuedMatches(h)]
            /\ pc' = [pc EXCEPT ![h] = "hVisit"]
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, L, C, took>>

traverse_visit(h) ==
  /\ pc[h] = "hVisit"
  /\ LET c == H[h].cur IN
       IF c = Nil \/ ticket[c] <= H[h].floor
         THEN pc' = [pc EXCEPT ![h] = "hRecheck"] /\ UNCHANGED H
       ELSE IF c \in Owners
         THEN H' = [H EXCEPT ![h].passed = @ \cup {c}, ![h].cur = next[c]] /\ UNCHANGED pc
       ELSE IF c \in HPred[h] /\ ~\E o \in H[h].passed : Covers(o, c)
         THEN pc' = [pc EXCEPT ![h] = "hTest"] /\ UNCHANGED H
         ELSE H' = [H EXCEPT ![h].cur = next[c]] /\ UNCHANGED pc
  /\ UNCHANGED <<top, next, ticket, flags, removedBy, claimTop, L, C, took>>

\* isLive(m): RESERVED is resolved first (and looked at again); live ends the
\* traversal with true.
hasMatching_isLive(h) ==
  /\ pc[h] = "hTest"
  /\ LET m == H[h].cur IN
       CASE flags[m] = "reserved" -> Resolve(m) /\ UNCHANGED <<H, pc>>
         [] flags[m] = "live" -> /\ H' = [H EXCEPT ![h].found = TRUE] /\ pc' = [pc EXCEPT ![h] = "done"]
                                /\ UNCHANGED <<flags, removedBy>>
         [] OTHER -> /\ H' = [H EXCEPT ![h].cur = next[m]] /\ pc' = [pc EXCEPT ![h] = "hVisit"]
                     /\ UNCHANGED <<flags, removedBy>>
  /\ UNCHANGED <<top, next, ticket, claimTop, L, C, took>>

-----------------------------------------------------------------------------
Producer(m) == push_readTop(m) \/ push_casTop(m)
Remover(r) == select_readTop(r) \/ select_visit(r) \/ pushDescriptor_casTop(r) \/ collect_visit(r)
              \/ collect_takeFor(r) \/ collect_release(r)
Quitter == quit_readTop \/ quit_casTop
Asker(h) == traverse_readTop(h) \/ traverse_visit(h) \/ hasMatching_isLive(h)
Looper == sweep_readTop \/ dropOnQuit_takeFor \/ claimForDelivery_reserve \/ resolve_readTop

Next == \/ \E m \in Msgs : Producer(m)
        \/ \E r \in Removers : Remover(r)
        \/ Quitter
        \/ \E h \in Askers : Asker(h)
        \/ Looper

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Obligations of the slice *)

\* DeliQueue.tla's obligation RemovalReturnsItsSet, in the slice's variables:
\* what a removal tombstoned or found tombstoned for it is exactly what was
\* queued and matching at its descriptor's push.
RemovalReturnsItsSet == \A r \in Removers : pc[r] = "done" => C[r].won = took[r]

\* hasMessages is linearizable against removals and quit: true at the read of
\* top that began the pass in which it found its match (queued then), false at
\* its last, stable read of top (nothing it matches queued then).
\* obligation: hasMessages answers as the abstract queue with atomic removal does at an instant of the call
HasAnswersAtomically ==
  [][\A h \in Askers : /\ pc[h] = "hTest" /\ H'[h].found => H[h].cur \in H[h].seen
                       /\ pc[h] # "done" /\ pc'[h] = "done" /\ ~H'[h].found => QueuedMatches(h) = {}]_vars

Abs == INSTANCE BulkRemovalAbs WITH
         astatus <- AStatus,
         aquit <- QuitPushed,
         adone <- [r \in Removers |-> DescPushed(r) \/ pc[r] = "done"],
         aremoved <- took

\* Every behaviour is one of BulkRemovalAbs: each removal is one atomic step at
\* its descriptor's push (or, for one that found nothing, at the stable read
\* of top that ends its select), and no message it took is delivered.
\* obligation: a removal from any thread is one atomic step at its descriptor's push (refines BulkRemovalAbs)
AtomicRemoval == Abs!ASafety

-----------------------------------------------------------------------------
(* Witnesses (module Witness): per obligation, the situations            *)
(* that make it non-trivial, each to be reached in a CI model checking it. *)
Overlap(r1, r2) == r1 # r2 /\ C[r1].verdict \cap C[r2].verdict # {}
\* Lazily(P): P as a function on {TRUE}, which TLC evaluates only when it is
\* applied, so that the report (Witness.tla) evaluates a witness in a state
\* only while it has not been reached.
Lazily(P) == [holds \in {TRUE} |-> P]
StateWitnesses == [
  TypeOK |-> [ownerPushed |-> Lazily(\E r \in Removers : DescPushed(r))],
  RemovalReturnsItsSet |-> [
      tookTwo |-> Lazily(\E r \in Removers : pc[r] = "done" /\ Cardinality(took[r]) >= 2),
      overlapLost |-> Lazily(\E r1, r2 \in Removers : Overlap(r1, r2) /\ pc[r1] = "done" /\ took[r1] # C[r1].verdict)],
  AtomicRemoval |-> [
      overlappingRemovals |-> Lazily(\E r1, r2 \in Removers : Overlap(r1, r2) /\ DescPushed(r1) /\ DescPushed(r2)),
      removalThenQuit |-> Lazily(\E r \in Removers : took[r] # {} /\ QuitPushed /\ ticket[r] < ticket[Quit]),
      removalAfterQuit |-> Lazily(\E r \in Removers : DescPushed(r) /\ Quitting(r)),
      takenFromReservation |-> Lazily(\E m \in Msgs : flags[m] = "removed" /\ removedBy[m] # Quit /\ claimTop[m] # 0)],
  HasAnswersAtomically |-> [
      answerTrue |-> Lazily(\E h \in Askers : H[h].found),
      answerFalseAfterPost |-> Lazily(\E h \in Askers : pc[h] = "done" /\ ~H[h].found /\ \E m \in HPred[h] : Pushed(m)),
      passedDescriptor |-> Lazily(\E h \in Askers : pc[h] # "done" /\ H[h].passed \cap Removers # {})]]

THEOREM Spec => [](TypeOK /\ RemovalReturnsItsSet) /\ HasAnswersAtomically /\ AtomicRemoval
=============================================================================
