------------------------------ MODULE DeliQueue ------------------------------
(***************************************************************************)
(* DeliQueue: Android 17's lock-free MessageQueue, step by step as in      *)
(* impl/src/main/java/org/deliqueue/DeliQueue.java, with removal made      *)
(* atomic from any thread. Names follow docs/design.md: an               *)
(* action named m_x is step x of the Java method m, and m == the           *)
(* disjunction of its steps. This module is the protocol: constants,     *)
(* variables, TypeOK, Init, the actions, Next and Spec. The obligations    *)
(* (invariants and properties), the refinement mapping onto               *)
(* MessageQueueAbs, the witnesses and the THEOREMs are DeliQueueProperties.*)
(* Each definition under a \* obligation: comment is one (TypeOK here, the *)
(* rest there), its name the ID that code and checkers cite;               *)
(* docs/obligations.md is generated from them. TLC checks them on bounded  *)
(* models; the THEOREMs have no proof.                                     *)
(*                                                                         *)
(* Threads: one producer per message (enqueue / postSyncBarrier), one      *)
(* quitter (quit / quitSafely), the traversers: removers (removeMessages / *)
(* removeSyncBarrier, each over its predicate Pred[t]) and hasMessages     *)
(* callers (askers), the Looper (next()), and the clock (tick).            *)
(*                                                                         *)
(* Removal: a remover first walks the stack as hasMessages does (select)   *)
(* and asks its predicate, on its own thread, once about each message it   *)
(* meets that is not REMOVED and not owned by an owner node it passed; the *)
(* messages answered yes are its verdicts. None: it returns 0 and pushes   *)
(* nothing. Else it pushes a descriptor node (named like its thread) that  *)
(* holds the verdicts; that push is the removal's linearization point. An  *)
(* owner node (a descriptor, or the quit sentinel for what its quit drops) *)
(* covers the messages below it among its verdicts (the sentinel: those    *)
(* its quit drops); the earliest covering one owns a message, and whoever  *)
(* tombstones the message writes removedBy = that owner. No thread other   *)
(* than the remover ever runs its predicate (user code: equals, a lambda), *)
(* which may answer differently at each call (Fickle). The remover then    *)
(* walks down (collect), takes what it owns (takeFor), finishes (records   *)
(* in its descriptor where the run of gone nodes below it ends, and marks  *)
(* it FINISHED: walks then jump from it to there) and hands what it took,  *)
(* then its descriptor, to the Looper on the freelist. The Looper delivers in *)
(* two steps: it reserves a message (claimForDelivery) and resolves the    *)
(* reservation against top                                                 *)
(* (resolve): an owner pushed since its sweep takes the message, else it   *)
(* is delivered. Whoever meets a reserved message resolves it first.       *)
(*                                                                         *)
(* Atomicity: one shared-memory access (or one CAS) per action. Where an   *)
(* action does more, a comment says why that is sound; the recurring       *)
(* reasons are (a) a CAS retry loop whose failed iterations change nothing *)
(* is one atomic step at its successful CAS, (b) Looper-only fields (prev, *)
(* heaps, swept, pending, locals) and fields of a not yet published node   *)
(* are private, (c) a clock read commutes with any access to other         *)
(* variables (Lipton reduction), so it can share an action with one, and   *)
(* (d) a read of a flag that only ever goes from clear to set (REMOVED),   *)
(* taken just before a CAS of that flag, may be taken with the CAS: had    *)
(* the flag been set in between, the CAS would fail and the code would     *)
(* take the branch the read takes.                                         *)
(*                                                                         *)
(* Abstractions: the two heaps are one set `heap` ordered by (when,        *)
(* insertSeq) with insertSeq = ticket, or -ticket when when = 0; syncHeap  *)
(* = its sync messages and barriers, asyncHeap = its async messages. Time  *)
(* is a small integer clock `now` in 0..MaxTime advanced by tick at any    *)
(* point; `when` is a small integer; MaxTime + 1 stands for "no deadline". *)
(* Payload matching is abstracted by the sets Pred[t], or, for a Fickle    *)
(* remover, by a fresh answer at each evaluation. Idle handlers,           *)
(* isIdle, poll() and the freelist's wake at FREELIST_WAKE_SIZE nodes (no  *)
(* model holds that many) are not modelled.                                *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS Msgs,       \* message identities, one producer thread each
          Kind,       \* [Msgs -> {"sync", "async", "barrier"}]: Message.target == null / isAsynchronous()
          When,       \* [Msgs -> 0..MaxTime]: the requested when of sync/async messages (barriers: now at posting)
          Traversers, \* the removers and hasMessages callers; a remover also names its descriptor node
          Op,         \* [Traversers -> {"remove", "has"}]: removeMatching or hasMatching
          Pred,       \* [Traversers -> SUBSET Msgs]: the messages the caller's predicate matches
          Fickle,     \* removers whose predicate answers afresh (any BOOLEAN) at each evaluation (a user equals
                      \* that is not a function of the payload); the others answer m \in Pred[t]
          MaxTime,    \* bound of the clock
          Modes,      \* quit modes the quitter may use: subset of {"quit", "quitSafely"}; {}: nobody quits
          Quit,       \* the quit sentinel (a Message with FLAG_QUIT_SENTINEL)
          Nil,        \* null
          QuitT       \* the quitter thread

Removers == {t \in Traversers : Op[t] = "remove"}
Askers == {t \in Traversers : Op[t] = "has"}
Owners == Removers \cup {Quit}          \* DeliQueue.isOwnerNode: descriptors and the sentinel
Nodes == Msgs \cup Owners
Threads == Msgs \cup {QuitT} \cup Traversers
INF == MaxTime + 1                      \* MessageQueue.NO_DEADLINE / MAX_DEADLINE
Barriers == {m \in Msgs : Kind[m] = "barrier"}
\* DeliQueue.AWAKE; asleep = ASLEEP, deadline = waitWord >>> 2, barrier =
\* DeliQueue.sleepBarrier (the BLOCKED bit is barrier # Nil).
Awake == [asleep |-> FALSE, deadline |-> INF, barrier |-> Nil]
\* Whether the Looper's parks may return early, without a permit and before
\* their deadline (parkUntil_early), as LockSupport.park does when the
\* Looper is interrupted (parkUntil clears the status and next() sets it
\* again as it returns) or for no reason. FALSE but in MCInterrupt (and its
\* mutant) and the trace model, which override it with TRUE: the other
\* models' behaviours stay as they were, and so do their figures.
ParkReturnsEarly == FALSE

ASSUME /\ Quit \notin Msgs \cup Traversers /\ Nil \notin Nodes /\ Traversers \cap (Msgs \cup {QuitT}) = {}
       /\ Kind \in [Msgs -> {"sync", "async", "barrier"}] /\ When \in [Msgs -> 0..MaxTime]
       /\ Op \in [Traversers -> {"remove", "has"}] /\ Pred \in [Traversers -> SUBSET Msgs]
       /\ Modes \subseteq {"quit", "quitSafely"} /\ Fickle \subseteq Traversers

VARIABLES
  \* ---- shared memory (Java fields) ----
  top,       \* DeliQueue.top
  next,      \* Message.next
  ticket,    \* Message.ticket
  when,      \* Message.when (written before the push; when[Quit]: sentinel.when, quitSafely's clock reading)
  removed,   \* Message.flags & FLAG_REMOVED (owner nodes are born REMOVED)
  reserved,  \* Message.flags & FLAG_RESERVED: the Looper's claim, not yet resolved
  delivered, \* Message.flags & FLAG_DELIVERED: set with REMOVED by the resolution that delivers
  removedBy, \* Message.removedBy: the owner node a tombstone was written for (Nil: none)
  claimTop,  \* Message.claimTop, as its ticket: the top the Looper had swept when it reserved the message
  freelist,  \* DeliQueue.freelist with its Message.nextFree chain, as a sequence
  waitWord,  \* DeliQueue.waitWord and DeliQueue.sleepBarrier: [asleep, deadline, barrier]
  wakeRefs,  \* DeliQueue.wakeRefs: [count, teardown] (TEARDOWN = bit 63)
  permit,    \* LockSupport permit of the Looper thread (WakeResource.signal and teardown's unpark)
  resource,  \* WakeResource: "live" or "freed"
  now,       \* Clock.uptimeMillis()
  \* ---- Looper-owned ----
  prev,      \* Message.prev (back-links)
  swept,     \* DeliQueue.swept
  heap,      \* DeliQueue.syncHeap \cup DeliQueue.asyncHeap (Message.heapIndex >= 0)
  deferred,  \* DeliQueue.deferredUnlink
  pending,   \* DeliQueue.pendingRemovals: the descriptors swept and not yet drained
  L,         \* the Looper's program counter and locals, see LooperInit
  \* ---- other threads ----
  pc,        \* [Threads -> label]
  qmode,     \* the sentinel's arg1: "quit" or "quitSafely" (fixed per behaviour)
  verdict,   \* Message.obj of a descriptor (DeliQueue.verdictsOf, as messages): [Traversers -> SUBSET Msgs], what
             \* t's predicate said yes to in its select walk; the descriptor's data from its push on, never changed
  T,         \* [Traversers -> locals of traverse / collect and their visitors], see TraverserInit
  \* ---- history (ghost) ----
  dcount,    \* [Msgs -> Nat]: how often each message was delivered
  lastPost,  \* the clock at the last successful push CAS of a message (Refinement: the quit's time)
  took,      \* [Traversers -> SUBSET Msgs]: what a removal took at its descriptor's push (the abstract set)
  evals      \* the predicate evaluations of removals: [by: the evaluating thread (or "Looper"), of: the removal,
             \* m: the message, inCall: the removal's thread was inside its call, nth: how many evaluations of
             \* (of, m) there had been, this one included, queued: m was queued at the read of top that began the
             \* pass (QueuedAtPass)]

\* The variables by owner. Each action conjoins what it changes and one
\* UNCHANGED naming the rest, by group where it leaves a whole group alone.
stackVars == <<top, next, ticket, when>>                          \* the stack: what a push writes
flagVars == <<removed, reserved, delivered, removedBy, claimTop>> \* a node's flags and who set them
sharedVars == <<stackVars, freelist, flagVars>>                   \* shared memory, less the wake fields
wakeVars == <<waitWord, wakeRefs, permit, resource>>              \* the Looper's sleep and its wake resource
looperFieldVars == <<prev, swept, heap, deferred, pending>>       \* fields only the Looper touches
looperVars == <<looperFieldVars, L>>                              \* ... and its program counter and locals
threadVars == <<pc, qmode, verdict, T>>                           \* the other threads' counters and locals
ghostVars == <<dcount, lastPost, took, evals>>                    \* history, for the obligations
vars == <<sharedVars, wakeVars, now, looperVars, threadVars, ghostVars>>

-----------------------------------------------------------------------------
(* Helpers *)

TicketOf(n) == IF n = Nil THEN 0 ELSE ticket[n]
InsertSeq(m) == IF when[m] = 0 THEN -ticket[m] ELSE ticket[m]        \* Message.insertSeq
Less(x, y) == \/ when[x] < when[y]                                   \* MessageHeap.compare < 0
              \/ when[x] = when[y] /\ InsertSeq(x) < InsertSeq(y)
MinOf(S) == CHOOSE x \in S : \A y \in S \ {x} : Less(x, y)
SyncSide(H) == {x \in H : Kind[x] # "async"}
AsyncSide(H) == {x \in H : Kind[x] = "async"}
\* DeliQueue.firstDeliverable: the blocking barrier (syncHeap's head if it is
\* one) and the head to deliver.
BlockingBarrier(H) == IF SyncSide(H) # {} /\ Kind[MinOf(SyncSide(H))] = "barrier"
                      THEN MinOf(SyncSide(H)) ELSE Nil
FirstDeliverable(H) ==
    IF BlockingBarrier(H) # Nil \/ SyncSide(H) = {}
    THEN IF AsyncSide(H) = {} THEN Nil ELSE MinOf(AsyncSide(H))
    ELSE MinOf(H \ Barriers)

Range(s) == {s[i] : i \in DOMAIN s}
RECURSIVE ReachFrom(_, _)
ReachFrom(n, k) == IF n = Nil \/ k = 0 THEN {} ELSE {n} \cup ReachFrom(next[n], k - 1)
Linked == ReachFrom(top, Cardinality(Nodes) + 1)       \* reachable from top along next

Pushed(m) == pc[m] \notin {"push", "pushCas", "failed"} \* m's push CAS succeeded
QuitPushed == pc[QuitT] \notin {"quit", "quitCas", "never"}
\* r's descriptor push CAS succeeded: its ticket is written with that CAS (the
\* descriptor is private until then); a removal that found nothing pushes none.
DescPushed(r) == ticket[r] # 0
Published(n) == IF n = Quit THEN QuitPushed ELSE IF n \in Removers THEN DescPushed(n) ELSE Pushed(n)
SweptNode(n) == n \in Linked /\ ticket[n] <= TicketOf(swept)
\* DeliQueue.droppedByQuit(sentinel, m): quit drops everything, quitSafely what is
\* due after the sentinel's clock reading (when[Quit]).
DroppedByQuit(m) == qmode = "quit" \/ when[m] > when[Quit]
\* DeliQueue.isQuitting(n): the sentinel, or a descriptor pushed above it.
Quitting(n) == n # Nil /\ QuitPushed /\ ticket[n] >= ticket[Quit]

\* DeliQueue.covers(o, m): o was pushed after m and takes it: m is among its
\* verdicts, or (the sentinel) its quit drops m. Data only: no user code runs
\* here, whichever thread asks (the Looper, a resolver, a traversal).
Covers(o, m) == ticket[m] < ticket[o] /\ (IF o = Quit THEN DroppedByQuit(m) ELSE m \in verdict[o])
Earliest(S) == CHOOSE o \in S : \A x \in S : ticket[o] <= ticket[x]
\* The owner of m: the node it was tombstoned for, else the earliest pushed
\* owner node that covers it (Nil: none; a delivered message has none).
CoveringOwners(m) == {o \in Owners : Published(o) /\ Covers(o, m)}
OwnerOf(m) == IF delivered[m] THEN Nil
              ELSE IF removed[m] THEN removedBy[m]
              ELSE LET covering == CoveringOwners(m) IN IF covering = {} THEN Nil ELSE Earliest(covering)
\* Tombstoned for a remover / for the quit (by whoever wrote the tombstone).
WonBy(t) == {m \in Msgs : removed[m] /\ ~delivered[m] /\ removedBy[m] = t}
Won == UNION {WonBy(t) : t \in Removers}
Dropped == {m \in Msgs : removed[m] /\ ~delivered[m] /\ removedBy[m] = Quit}
Counted == UNION {Range(T[t].won) : t \in Removers}     \* what removals returned (or will)

\* The messages of S that are in the queue: pushed, neither delivered nor
\* owned by a removal, nor doomed by a quit that has taken effect. Under the
\* refinement mapping this is the abstract queue's queued \cap S, less what
\* the quit dooms.
LiveNow(S) == {m \in S : Pushed(m) /\ ~delivered[m] /\ OwnerOf(m) \notin Removers
                         /\ ~(QuitPushed /\ DroppedByQuit(m))}

\* DeliQueue.resolve(m) by a thread reading top now: the earliest owner node
\* pushed since claimTop that covers m takes it (REMOVED, removedBy); else m
\* is delivered (REMOVED | DELIVERED). One CAS from RESERVED. The walk from
\* top down to claimTop and the CAS are one step: only resolvers change a
\* RESERVED message, each one's outcome is fixed by its read of top and the
\* first CAS decides, so the winner's read and CAS can be taken together (a
\* push between them is ordered after the read, which is what the abstract
\* order says); an owner unlinked before the walk reached it had resolved m
\* in its collect first (it lies below that owner), so the walk may be taken
\* over every pushed owner.
ResolveOwners(m) == {o \in Owners : Published(o) /\ ticket[o] > claimTop[m] /\ Covers(o, m)}
Resolve(m) ==
  /\ reserved' = [reserved EXCEPT ![m] = FALSE]
  /\ removed' = [removed EXCEPT ![m] = TRUE]
  /\ IF ResolveOwners(m) # {}
       THEN /\ removedBy' = [removedBy EXCEPT ![m] = Earliest(ResolveOwners(m))]
            /\ UNCHANGED <<delivered, dcount>>
       ELSE /\ delivered' = [delivered EXCEPT ![m] = TRUE]
            /\ dcount' = [dcount EXCEPT ![m] = @ + 1]
            /\ UNCHANGED removedBy

\* Named as in the Java.
isQuitSentinel(n) == n = Quit
linkBack(n, m) == [prev EXCEPT ![n] = m]                \* DeliQueue.linkBack: n.prev = m
claimForDelivery(c) == ~removed[c]                      \* does the Looper's CAS (RESERVED) find c not REMOVED?
\* DeliQueue.releasePayload: the remover clears obj, callback and target of
\* every message it counted (private writes: only its owner clears them).
releasePayload(t) == [T EXCEPT ![t].released = TRUE]

-----------------------------------------------------------------------------
ProducerPcs == {"push", "pushCas", "failed", "signal", "wake", "wSignal", "wRelease", "done"}
QuitterPcs == {"never", "quit", "quitCas", "signal", "wake", "wSignal", "wRelease", "done"}
\* The sentinel's arg1 a behaviour may use ("quit" stands in when nobody quits).
QModes == IF Modes = {} THEN {"quit"} ELSE Modes
AskerPcs == {"tStart", "tVisit", "tTest", "tAdvance", "tRecheck", "done"}
RemoverPcs == {"tStart", "tVisit", "tAsk", "tAdvance", "tRecheck", "dCas", "cAdvance", "cVisit", "cTake", "rFinish", "rFree",
               "signal", "wake", "wSignal", "wRelease", "done"}
LooperPcs == {"loop", "take", "sweep", "sweepWalk", "drain", "drainNode", "unlink", "splice",
              "dropOnQuit", "deliver", "claim", "resolve", "sleep", "recheckTop", "recheckFree", "park", "awake",
              "teardown", "tdCheck", "tdPark", "free", "exit"}

LooperInit == [pc |-> "loop",       \* label
               ret |-> "drain",     \* where sweep returns
               uret |-> "loop",     \* where unlink / splice return
               top |-> Nil,         \* sweep's read of top
               cur |-> Nil,         \* sweep's cursor
               chain |-> <<>>,      \* drainFreelist's chain
               target |-> Nil,      \* the message to claim, resolve or unlink
               now |-> 0,           \* next(): now = clock.uptimeMillis()
               dl |-> INF,          \* nextDeadline
               bar |-> Nil,         \* the blocking barrier (blockedByBarrier: bar # Nil)
               quitSeen |-> FALSE,  \* quitSentinel != null
               quitDropped |-> FALSE, \* quitMessagesDropped
               early |-> FALSE]     \* ghost: the last park returned early (ParkReturnsEarly), not yet acted on

TraverserInit == [top |-> Nil,      \* traverse: the last read of top
                  floor |-> 0,      \* traverse: the previous top's ticket
                  cur |-> Nil,      \* traverse / collect: the cursor
                  passed |-> {},    \* traverse / collect: the owner nodes passed
                  won |-> <<>>,     \* collect: the chain of messages counted (head first)
                  found |-> FALSE,  \* hasMatching: the visitor returned true
                  released |-> FALSE, \* releasePayload cleared obj/callback/target of what it counted
                  finished |-> FALSE, \* Message.flags & FLAG_FINISHED of t's descriptor (read by every walk)
                  skip |-> Nil,      \* Message.skip of t's descriptor: where walks jump from it once finished
                  jump |-> FALSE,    \* traverse: the visit found a finished descriptor; advance takes its skip
                  seen |-> {}]      \* ghost (hasMatching): LiveNow(Pred[t]) at the last read of top

\* obligation: every variable has its type
TypeOK ==
  /\ top \in Nodes \cup {Nil}
  /\ next \in [Nodes -> Nodes \cup {Nil}] /\ prev \in [Nodes -> Nodes \cup {Nil}]
  /\ ticket \in [Nodes -> Nat] /\ when \in [Nodes -> 0..MaxTime]
  /\ removed \in [Nodes -> BOOLEAN] /\ reserved \in [Msgs -> BOOLEAN] /\ delivered \in [Msgs -> BOOLEAN]
  /\ removedBy \in [Msgs -> Owners \cup {Nil}] /\ claimTop \in [Msgs -> Nat]
  /\ freelist \in Seq(Msgs \cup Removers)
  /\ waitWord \in [asleep : BOOLEAN, deadline : 0..INF, barrier : Barriers \cup {Nil}]
  /\ wakeRefs \in [count : 0..Cardinality(Threads), teardown : BOOLEAN]
  /\ permit \in BOOLEAN /\ resource \in {"live", "freed"} /\ now \in 0..MaxTime
  /\ swept \in Nodes \cup {Nil} /\ heap \subseteq Msgs /\ deferred \in Nodes \cup {Nil}
  /\ pending \subseteq Removers
  /\ L.pc \in LooperPcs /\ L.ret \in LooperPcs /\ L.uret \in LooperPcs
  /\ L.top \in Nodes \cup {Nil} /\ L.cur \in Nodes \cup {Nil} /\ L.target \in Nodes \cup {Nil}
  /\ L.now \in 0..MaxTime /\ L.dl \in 0..INF /\ L.bar \in Barriers \cup {Nil}
  /\ L.chain \in Seq(Msgs \cup Removers)
  /\ L.quitSeen \in BOOLEAN /\ L.quitDropped \in BOOLEAN /\ L.early \in BOOLEAN
  /\ pc \in [Threads -> ProducerPcs \cup QuitterPcs \cup AskerPcs \cup RemoverPcs]
  /\ \A m \in Msgs : pc[m] \in ProducerPcs
  /\ pc[QuitT] \in QuitterPcs /\ qmode \in QModes
  /\ \A t \in Removers : pc[t] \in RemoverPcs
  /\ \A t \in Askers : pc[t] \in AskerPcs
  /\ \A t \in Traversers : /\ T[t].top \in Nodes \cup {Nil} /\ T[t].cur \in Nodes \cup {Nil}
                           /\ T[t].floor \in Nat /\ T[t].passed \subseteq Owners /\ T[t].won \in Seq(Msgs)
                           /\ T[t].found \in BOOLEAN /\ T[t].released \in BOOLEAN
                           /\ T[t].finished \in BOOLEAN /\ T[t].skip \in Nodes \cup {Nil} /\ T[t].jump \in BOOLEAN
                           /\ T[t].seen \subseteq Pred[t]
  /\ dcount \in [Msgs -> Nat] /\ lastPost \in 0..MaxTime /\ took \in [Traversers -> SUBSET Msgs]
  /\ verdict \in [Traversers -> SUBSET Msgs]
  /\ \A e \in evals : e \in [by : Removers \cup {"Looper"}, of : Removers, m : Msgs, inCall : BOOLEAN, nth : Nat,
                                   queued : BOOLEAN]

Init ==
  /\ top = Nil /\ next = [n \in Nodes |-> Nil] /\ ticket = [n \in Nodes |-> 0]
  /\ when = [n \in Nodes |-> IF n \notin Msgs \/ Kind[n] = "barrier" THEN 0 ELSE When[n]]   \* new Message(): when = 0
  /\ removed = [n \in Nodes |-> n \in Owners]    \* the sentinel and descriptors are born REMOVED
  /\ reserved = [m \in Msgs |-> FALSE] /\ delivered = [m \in Msgs |-> FALSE]
  /\ removedBy = [m \in Msgs |-> Nil] /\ claimTop = [m \in Msgs |-> 0]
  /\ freelist = <<>>
  /\ waitWord = Awake /\ wakeRefs = [count |-> 0, teardown |-> FALSE]
  /\ permit = FALSE /\ resource = "live" /\ now = 0
  /\ prev = [n \in Nodes |-> Nil] /\ swept = Nil /\ heap = {} /\ deferred = Nil /\ pending = {}
  /\ L = LooperInit
  /\ pc = [t \in Threads |-> IF t \in Msgs THEN "push"
                             ELSE IF t = QuitT THEN (IF Modes = {} THEN "never" ELSE "quit")
                             ELSE "tStart"]
  /\ qmode \in QModes
  /\ verdict = [t \in Traversers |-> {}]
  /\ T = [t \in Traversers |-> TraverserInit]
  /\ dcount = [m \in Msgs |-> 0] /\ lastPost = 0 /\ took = [t \in Traversers |-> {}] /\ evals = {}

-----------------------------------------------------------------------------
(* 1. push (any thread): DeliQueue.push, enqueueClaimed, postSyncBarrier.   *)

\* Read top; fail on a quitting top (the sentinel, or a descriptor pushed
\* above it); write m.next, m.ticket (and, on the first attempt, a barrier's
\* when, the clock: reason (c)) into the unpublished m: private until the
\* CAS. postSyncBarrier reads the clock once, before its push loop, so a
\* retried push keeps the first reading; ticket[m] = 0 marks the first
\* attempt (every attempt writes a ticket >= 1).
push_readTop(m) ==
  /\ pc[m] = "push"
  /\ IF Quitting(top)
       THEN /\ pc' = [pc EXCEPT ![m] = "failed"]
            /\ UNCHANGED <<next, ticket, when>>
       ELSE /\ next' = [next EXCEPT ![m] = top]
            /\ ticket' = [ticket EXCEPT ![m] = TicketOf(top) + 1]
            /\ when' = IF Kind[m] = "barrier" /\ ticket[m] = 0 THEN [when EXCEPT ![m] = now] ELSE when
            /\ pc' = [pc EXCEPT ![m] = "pushCas"]
  /\ UNCHANGED <<top, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>

\* CAS top from the value read (m.next) to m; on failure retry. Then
\* signalIfEarlier (a barrier wakes nobody: it only holds messages back).
push_casTop(m) ==
  /\ pc[m] = "pushCas"
  /\ IF top = next[m]
       THEN /\ top' = m
            /\ pc' = [pc EXCEPT ![m] = IF Kind[m] = "barrier" THEN "done" ELSE "signal"]
            /\ lastPost' = now
       ELSE /\ pc' = [pc EXCEPT ![m] = "push"]
            /\ UNCHANGED <<top, lastPost>>
  /\ UNCHANGED <<next, ticket, when, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, dcount, took,
                 evals>>

push(m) == push_readTop(m) \/ push_casTop(m)

-----------------------------------------------------------------------------
(* 6. wait word, waker side: DeliQueue.signalIfEarlier (producers, and      *)
(* quitQueue with when = Long.MIN_VALUE) and the loop at the end of         *)
(* removeSyncBarrier (removers).                                            *)

\* Whether the waker t wants the Looper that published w awake. A message
\* decides from the protocol's order, not from the clock: the Looper is held
\* back by the barrier it recorded (sleepBarrier, read after w) unless the
\* message is async or sorts before that barrier.
WantsWake(t, w) ==
  IF t \in Msgs
  THEN /\ w.asleep /\ when[t] < w.deadline
       /\ \/ Kind[t] = "async"
          \/ w.barrier = Nil
          \/ Less(t, w.barrier)
  ELSE IF t = QuitT THEN w.asleep
  ELSE w.asleep /\ w.barrier # Nil

\* The loop { w = waitWord; if (!wants(w)) return; if (CAS(w, AWAKE)) wake } is
\* one atomic step by reason (a) (a failed CAS only re-reads). sleepBarrier is
\* written before the ASLEEP word that it goes with and read after it; a later
\* sleep re-reads top, so a stale barrier costs no wakeup.
signalIfEarlier_cas(t) ==
  /\ pc[t] = "signal"
  /\ IF WantsWake(t, waitWord)
       THEN waitWord' = Awake /\ pc' = [pc EXCEPT ![t] = "wake"]
       ELSE pc' = [pc EXCEPT ![t] = "done"] /\ UNCHANGED waitWord
  /\ UNCHANGED <<sharedVars, wakeRefs, permit, resource, now, looperVars, qmode, verdict, T, ghostVars>>

signalIfEarlier(t) == signalIfEarlier_cas(t)

-----------------------------------------------------------------------------
(* 5. tagged refcount, waker side: DeliQueue.wake.                          *)

\* acquireWakeRef: a CAS loop, atomic by reason (a): +1 unless TEARDOWN.
wake_acquire(t) ==
  /\ pc[t] = "wake"
  /\ IF wakeRefs.teardown
       THEN pc' = [pc EXCEPT ![t] = "done"] /\ UNCHANGED wakeRefs
       ELSE /\ wakeRefs' = [wakeRefs EXCEPT !.count = @ + 1]
            /\ pc' = [pc EXCEPT ![t] = "wSignal"]
  /\ UNCHANGED <<sharedVars, waitWord, permit, resource, now, looperVars, qmode, verdict, T, ghostVars>>

\* signalWakeResource: uses the resource; the wake is a sticky permit.
wake_signal(t) ==
  /\ pc[t] = "wSignal"
  /\ permit' = TRUE
  /\ pc' = [pc EXCEPT ![t] = "wRelease"]
  /\ UNCHANGED <<sharedVars, waitWord, wakeRefs, resource, now, looperVars, qmode, verdict, T, ghostVars>>

\* releaseWakeRef: decrement; the last one out after TEARDOWN unparks the
\* Looper. Joined into one step: the Looper re-reads wakeRefs before every
\* park, and a permit is sticky, so where the unpark falls does not matter.
wake_release(t) ==
  /\ pc[t] = "wRelease"
  /\ wakeRefs' = [wakeRefs EXCEPT !.count = @ - 1]
  /\ permit' = (permit \/ (wakeRefs.count = 1 /\ wakeRefs.teardown))
  /\ pc' = [pc EXCEPT ![t] = "done"]
  /\ UNCHANGED <<sharedVars, waitWord, resource, now, looperVars, qmode, verdict, T, ghostVars>>

wake(t) == wake_acquire(t) \/ wake_signal(t) \/ wake_release(t)

-----------------------------------------------------------------------------
(* 8. quit (quitter): DeliQueue.quitQueue pushes the sentinel, born with    *)
(* IN_USE | REMOVED | QUIT_SENTINEL and arg1 (quitSafely), then             *)
(* wakeIfAsleep(ASLEEP). The push is the quit's linearization point: from   *)
(* then on the sentinel owns what DroppedByQuit names and no earlier       *)
(* removal owns (it is dead for traversals and removals), and the Looper    *)
(* drops it when its sweep meets the sentinel.                              *)

\* Read top, then, for quitSafely, the clock (sentinel.when), on every
\* attempt; write the unpublished sentinel's next, ticket and when. Private
\* writes; the clock read comes after the read of top, which it may share a
\* step with by (c). Every push before the sentinel's precedes that read of
\* top, so the quit's time is at or after the clock of every accepted post.
\* quit() drops everything and reads no clock (when[Quit] stays 0): a clock
\* that throws or blocks cannot stop it.
quit_readTop ==
  /\ pc[QuitT] = "quit"
  /\ next' = [next EXCEPT ![Quit] = top]
  /\ ticket' = [ticket EXCEPT ![Quit] = TicketOf(top) + 1]
  /\ when' = [when EXCEPT ![Quit] = IF qmode = "quitSafely" THEN now ELSE 0]
  /\ pc' = [pc EXCEPT ![QuitT] = "quitCas"]
  /\ UNCHANGED <<top, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>

quit_casTop ==
  /\ pc[QuitT] = "quitCas"
  /\ IF top = next[Quit]
       THEN top' = Quit /\ pc' = [pc EXCEPT ![QuitT] = "signal"]
       ELSE pc' = [pc EXCEPT ![QuitT] = "quit"] /\ UNCHANGED top
  /\ UNCHANGED <<next, ticket, when, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>

quit == quit_readTop \/ quit_casTop

-----------------------------------------------------------------------------
(* 3. removal (any thread): DeliQueue.removeMatching = select (the racy     *)
(* traversal of section 4, with removeMatching_ask as its visitor, then    *)
(* pushDescriptor), then collect (the walk, takeFor, releasePayload,       *)
(* pushFreelist); for removeSyncBarrier, a wake if it took a barrier.      *)
(*                                                                         *)
(* User code (the predicate: a user equals, a lambda) runs only here, on   *)
(* the removing thread, inside its call, at most once per message: select *)
(* asks it about each message it meets that is not REMOVED and that no     *)
(* owner node it passed covers, and keeps the yes answers as its verdicts, *)
(* which the descriptor carries. Every later decision about the removal,   *)
(* by any thread (the Looper's liveHead and dropOnQuit, resolve, queries,  *)
(* other removers, its own collect), reads those verdicts (Covers), never  *)
(* the predicate. So a predicate that answers differently at each call     *)
(* (Fickle) cannot make two threads disagree about who owns a message, as  *)
(* it could when each of them asked the predicate itself: a message one    *)
(* thread gave to the removal and the remover then refused was lost.       *)
(*                                                                         *)
(* At the end of each segment of its walk, a removal with no verdicts      *)
(* reads top again: unchanged, it returns 0 and pushes nothing (its atomic *)
(* step, at that read, takes nothing: nothing it matches was in the queue  *)
(* then); changed, it walks the new segment. A removal with verdicts CASes *)
(* its descriptor above the top that segment started from; that push is   *)
(* its linearization point. It takes the verdicts still in the queue then, *)
(* and for a predicate that answers as a function of the payload that is   *)
(* every matching message in the queue then: each one was met and asked   *)
(* (the walk covered everything below that top, and top did not move).     *)
(* A failed CAS means a push came in between: walk the new segment, then   *)
(* try again.                                                              *)

\* How many times r's predicate has been asked about m.
Evaluations(r, m) == Cardinality({e \in evals : e.of = r /\ e.m = m})
\* The removal's thread is inside its call (it has not returned).
InCall(r) == pc[r] # "done"
\* m was still queued at the read of top that began t's pass: no owner node
\* at or below that top (in the pass's segment or an earlier one) covers m.
\* Such an owner lies between that top and m, so the walk passed it (a jump
\* passes only gone nodes): select must not ask about m (UserCodeOnCaller).
QueuedAtPass(t, m) == ~\E o \in Owners : Published(o) /\ ticket[o] <= TicketOf(T[t].top) /\ Covers(o, m)
\* What r's predicate may answer about m when asked now: afresh for a
\* Fickle remover, else whether it matches.
Answers(r, m) == IF r \in Fickle THEN BOOLEAN ELSE {m \in Pred[r]}

\* select's visitor at a message m that no owner node passed covers: one
\* read of m's flags; REMOVED: on to the next node; else ask the predicate,
\* once (a throw counts as no; the first one is rethrown when the removal
\* has completed), and keep m among the verdicts on yes. The flag read and
\* the predicate's reads of m's payload are one step: a verdict on a message
\* that was REMOVED by then has no effect on any later step. REMOVED is
\* never cleared, such a message is not live at the descriptor's push (so
\* not taken), and every use of Covers is for a message that is not REMOVED
\* (resolve, liveHead, dropOnQuit, the traversals' skip, whose visitors
\* would pass a REMOVED message anyway) or is guarded by removedBy (OwnerOf,
\* LeftBefore: a tombstone written before this removal's push is never for
\* a removal pushed after it). While m is not REMOVED its payload is fixed.
removeMatching_ask(t) ==
  /\ pc[t] = "tAsk"
  /\ LET m == T[t].cur IN
       IF removed[m]
         THEN UNCHANGED <<verdict, evals>>
         ELSE /\ evals' = evals \cup {[by |-> t, of |-> t, m |-> m, inCall |-> InCall(t),
                                       nth |-> Evaluations(t, m) + 1, queued |-> QueuedAtPass(t, m)]}
              /\ \E yes \in Answers(t, m) :
                   verdict' = IF yes THEN [verdict EXCEPT ![t] = @ \cup {m}] ELSE verdict
  /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, T, dcount, lastPost, took>>

\* The CAS of the descriptor above the top its last segment started from
\* (T[t].top); before it, private writes into the unpublished descriptor:
\* next, ticket (and its QUITTING flag, which Quitting derives from the
\* ticket) and the verdicts (verdict[t], unchanged from here on). The CAS is
\* the removal's linearization point: the ghost records what the abstract
\* removal takes there (its verdicts that are in the queue and not doomed by
\* a quit), and collect starts at the descriptor with fresh locals. A failed
\* CAS: read top again (it has moved) and walk the new segment.
pushDescriptor_casTop(t) ==
  /\ pc[t] = "dCas"
  /\ IF top = T[t].top
       THEN /\ top' = t
            /\ next' = [next EXCEPT ![t] = T[t].top]
            /\ ticket' = [ticket EXCEPT ![t] = TicketOf(T[t].top) + 1]
            /\ took' = [took EXCEPT ![t] = LiveNow(verdict[t])]
            /\ T' = [T EXCEPT ![t] = [TraverserInit EXCEPT !.cur = t]]
            /\ pc' = [pc EXCEPT ![t] = "cAdvance"]
       ELSE /\ pc' = [pc EXCEPT ![t] = "tRecheck"]
            /\ UNCHANGED <<top, next, ticket, took, T>>
  /\ UNCHANGED <<when, freelist, flagVars, wakeVars, now, looperVars, qmode, verdict, dcount, lastPost, evals>>

\* The walk's plain read of next (racing unlink_splice).
collect_advance(t) ==
  /\ pc[t] = "cAdvance"
  /\ T' = [T EXCEPT ![t].cur = next[T[t].cur]]
  /\ pc' = [pc EXCEPT ![t] = "cVisit"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>

\* DeliQueue.leftBefore(m, t): delivered, tombstoned for another owner, or
\* covered by an earlier owner node passed (a removal, or the quit).
LeftBefore(m, t) == \/ removed[m] /\ (delivered[m] \/ removedBy[m] # t)
                    \/ \E o \in T[t].passed : Covers(o, m)

\* The least ticket among t's verdicts (0: none): below it collect can take
\* nothing (tickets fall strictly along next).
VerdictFloor(t) == IF verdict[t] = {} THEN 0
                   ELSE CHOOSE k \in {ticket[v] : v \in verdict[t]} : \A v \in verdict[t] : k <= ticket[v]

\* At cursor m: the walk ends at null or below its least verdict; an owner
\* node is remembered and passed; a message that left before, or that is not
\* among the verdicts, is passed; a verdict goes to takeFor. No user code: the
\* descriptor's verdicts decide. One read of m's flags (then removedBy,
\* written before the flags CAS that published it).
collect_visit(t) ==
  /\ pc[t] = "cVisit"
  /\ LET m == T[t].cur IN
       IF m = Nil \/ ticket[m] < VerdictFloor(t)
         THEN pc' = [pc EXCEPT ![t] = "rFinish"] /\ T' = releasePayload(t)
       ELSE IF m \in Owners
         THEN /\ T' = [T EXCEPT ![t].passed = @ \cup {m}]
              /\ pc' = [pc EXCEPT ![t] = "cAdvance"]
       ELSE IF LeftBefore(m, t) \/ m \notin verdict[t]
         THEN pc' = [pc EXCEPT ![t] = "cAdvance"] /\ UNCHANGED T
         ELSE pc' = [pc EXCEPT ![t] = "cTake"] /\ UNCHANGED T
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>

\* A RESERVED message met by a remover or an asker is resolved first (the
\* step stays where it is and looks again).
resolve_reserved(t) ==
  /\ pc[t] \in {"cTake", "tTest"}
  /\ reserved[T[t].cur]
  /\ Resolve(T[t].cur)
  /\ UNCHANGED <<stackVars, freelist, claimTop, wakeVars, now, looperVars, threadVars, lastPost, took, evals>>

\* takeFor(m, t): not REMOVED: removedBy = t, then the REMOVED CAS (its retry
\* loop atomic by (a)); REMOVED: counted if tombstoned for t, by anyone.
collect_takeFor(t) ==
  /\ pc[t] = "cTake"
  /\ LET m == T[t].cur IN
       /\ ~reserved[m]
       /\ IF ~removed[m]
            THEN /\ removed' = [removed EXCEPT ![m] = TRUE]
                 /\ removedBy' = [removedBy EXCEPT ![m] = t]
                 /\ T' = [T EXCEPT ![t].won = <<m>> \o @]   \* m.nextFree = head; head = m
            ELSE /\ T' = IF ~delivered[m] /\ removedBy[m] = t THEN [T EXCEPT ![t].won = <<m>> \o @] ELSE T
                 /\ UNCHANGED <<removed, removedBy>>
  /\ pc' = [pc EXCEPT ![t] = "cAdvance"]
  /\ UNCHANGED <<stackVars, freelist, reserved, delivered, claimTop, wakeVars, now, looperVars, qmode, verdict,
                 ghostVars>>

\* A node that has left the queue for good: a REMOVED message (REMOVED is
\* never cleared), or a finished descriptor (FINISHED is never cleared).
\* Not the quit sentinel, which owns what its quit drops for as long as it
\* is linked, nor a descriptor whose removal has not finished.
Gone(n) == \/ n \in Msgs /\ removed[n]
           \/ n \in Removers /\ T[n].finished
\* A skip for t's descriptor: a published node below it, or Nil, such that
\* every published node with a ticket in between is Gone. Pushes only add
\* tickets above top, and the Looper unlinks only Gone nodes (an unlinked
\* node keeps its next), so what was in between stays in between and Gone.
ValidSkip(t, s) == /\ s # Nil => Published(s) /\ ticket[s] < ticket[t]
                   /\ \A n \in Nodes : Published(n) /\ TicketOf(s) < ticket[n] /\ ticket[n] < ticket[t] => Gone(n)

\* DeliQueue.endOfDeadRun(t): the first node below t, along next, that is
\* not Gone (Nil at the bottom): the skip t's finish records in the models.
RECURSIVE FirstNotGone(_, _)
FirstNotGone(n, k) == IF n = Nil \/ k = 0 \/ ~Gone(n) THEN n ELSE FirstNotGone(next[n], k - 1)
\* The skips t's finish may record. The Java's walk reads one node at a
\* time, so the node it stops at may be Gone by the time of its CAS; any
\* ValidSkip end is then possible, and trace validation allows all of them
\* (MCTrace.cfg overrides this with AnyDeadRunEnd). The models take the one
\* the walk finds when nothing changes under it: a shorter jump than that
\* only makes a walk step on more gone nodes.
DeadRunEnds(t) == {FirstNotGone(next[t], Cardinality(Nodes))}
AnyDeadRunEnd(t) == {s \in Nodes \cup {Nil} : ValidSkip(t, s)}
\* Whether a walk may pass a finished descriptor as an owner instead of
\* jumping it: the Java reads FINISHED, then the flags again for the owner
\* test, and a descriptor that finished in between is passed as an owner
\* (right too: it owns nothing live). Trace validation allows it
\* (MCTrace.cfg overrides this with TRUE); the models jump, which they
\* check against every other thread's steps.
PassFinishedAsOwner == FALSE

\* DeliQueue.finish(t), after the walk (and releasePayload): write where the
\* run of Gone nodes below the descriptor ends into its skip, then CAS
\* FINISHED in, which publishes the skip (only its remover writes its
\* flags, so the CAS cannot fail). Every message the descriptor covers has
\* left by then (TraversalComplete), or is owned by an earlier owner, which
\* is below it and not Gone: no walk needs the descriptor as an owner any
\* more. endOfDeadRun's walk reads flags and next (and the skip of the
\* finished descriptors it jumps) of several nodes; it is one step with the
\* CAS: each node it passed was Gone when read and stays Gone (see
\* ValidSkip), and the node it stopped at is any valid end (the spec lets
\* the skip be any node the run may end at, the Java takes the first one
\* it finds not Gone).
collect_finish(t) ==
  /\ pc[t] = "rFinish"
  /\ \E s \in DeadRunEnds(t) : T' = [T EXCEPT ![t].skip = s, ![t].finished = TRUE]
  /\ pc' = [pc EXCEPT ![t] = "rFree"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>

\* pushFreelist of the chain and the descriptor: { f = freelist;
\* tail.nextFree = f; CAS(f, head) } retried is one atomic push of the chain
\* by reason (a). Before it, when its walk ends (collect_visit), the remover
\* releases the payload of every message it counted: modelled at the walk's
\* end, the earliest point, since only other threads' reads can tell
\* (traverse_visit: PayloadCleared). removeSyncBarrier that took its barrier
\* wakes a Looper asleep behind a barrier.
removeMatching_pushFreelist(t) ==
  /\ pc[t] = "rFree"
  /\ freelist' = T[t].won \o <<t>> \o freelist
  /\ pc' = [pc EXCEPT ![t] = IF Range(T[t].won) \cap Barriers # {} THEN "signal" ELSE "done"]
  /\ UNCHANGED <<stackVars, flagVars, wakeVars, now, looperVars, qmode, verdict, T, ghostVars>>

removeMatching(t) == \/ removeMatching_ask(t) \/ pushDescriptor_casTop(t) \/ collect_advance(t)
                     \/ collect_visit(t) \/ collect_takeFor(t) \/ resolve_reserved(t)
                     \/ collect_finish(t) \/ removeMatching_pushFreelist(t)

-----------------------------------------------------------------------------
(* 4. the racy traversal (any thread): DeliQueue.traverse(visitor), with    *)
(* the visitor of hasMatching (isLive) for a query, or of removeMatching's  *)
(* select (removeMatching_ask) for a removal. Plain reads of next, one per  *)
(* step.                                                                    *)

\* t's locals once traverse has returned: only the result is kept.
Returned(t) == [TraverserInit EXCEPT !.found = T[t].found]
\* The ghost of a query at each read of top: its live matches then.
Seen(t) == IF Op[t] = "has" THEN LiveNow(Pred[t]) ELSE {}

\* The loop condition's read of top (first pass); top = null ends it: a
\* query answers false, a removal returns 0.
traverse_readTop(t) ==
  /\ pc[t] = "tStart"
  /\ IF top = Nil
       THEN pc' = [pc EXCEPT ![t] = "done"] /\ UNCHANGED T
       ELSE /\ T' = [T EXCEPT ![t].top = top, ![t].cur = top, ![t].floor = 0, ![t].seen = Seen(t)]
            /\ pc' = [pc EXCEPT ![t] = "tVisit"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>

\* At cursor m: at null or at the floor (ticket is immutable once published)
\* the segment ends: a query, or a removal without verdicts, reads top again
\* (traverse_recheck); a removal with verdicts tries its descriptor's push.
\* An owner node (isOwnerNode: flags fixed at its birth) is remembered and
\* passed; a finished descriptor is jumped instead: the walk goes on at its
\* skip (traverse_advance), every node in between being Gone (see
\* PassFinishedAsOwner). A REMOVED message (one read of its flags: REMOVED is never
\* cleared) has left the queue: skipped without asking the owners passed, so
\* that tombstones behind a busy Looper cost one read each. A query's visit
\* is that flag read, then its predicate's payload reads, and a removal may
\* come in between: so a REMOVED match may also go to the visitor, which
\* reads the flags again (a removal's ask reads them again too). A message that
\* an owner node passed covers (Covers: data, fixed once that owner is
\* pushed) has left the queue or was taken: skipped. Any
\* other message goes to a removal's predicate (removeMatching_ask), or, if
\* it matches, to a query's visitor; otherwise on to m.next, which the
\* loop's header reads (traverse_advance). A query's predicate reads m's
\* payload: fixed while m is in the queue, but cleared by releasePayload
\* once a removal has counted it, after which the plain reads may see it
\* cleared (what = 0, which a predicate may match) or not: such a message
\* may go either way (it is REMOVED, so the visitor passes it too).
PayloadCleared(m) == \E r \in Removers : T[r].released /\ m \in Range(T[r].won)
Covered(t, m) == \E o \in T[t].passed : Covers(o, m)
traverse_visit(t) ==
  /\ pc[t] = "tVisit"
  /\ LET m == T[t].cur IN
       IF m = Nil \/ ticket[m] <= T[t].floor
         THEN /\ pc' = [pc EXCEPT ![t] = IF Op[t] = "remove" /\ verdict[t] # {} THEN "dCas" ELSE "tRecheck"]
              /\ UNCHANGED T
       ELSE IF m \in Removers /\ T[m].finished
         THEN \/ T' = [T EXCEPT ![t].jump = TRUE] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
              \/ PassFinishedAsOwner /\ T' = [T EXCEPT ![t].passed = @ \cup {m}] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
       ELSE IF m \in Owners
         THEN /\ T' = [T EXCEPT ![t].passed = @ \cup {m}] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
       ELSE IF Op[t] = "remove"
         THEN /\ pc' = [pc EXCEPT ![t] = IF removed[m] \/ Covered(t, m) THEN "tAdvance" ELSE "tAsk"]
              /\ UNCHANGED T
       ELSE /\ \E to \in IF PayloadCleared(m) THEN {"tTest", "tAdvance"}
                         ELSE IF m \in Pred[t] /\ ~Covered(t, m)
                           THEN IF removed[m] THEN {"tTest", "tAdvance"} ELSE {"tTest"}
                         ELSE {"tAdvance"} :
                 pc' = [pc EXCEPT ![t] = to]
            /\ UNCHANGED T
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>

\* hasMatching's visitor, isLive(m): one read of the flags (a RESERVED
\* message is resolved first: resolve_reserved); a live match ends the
\* traversal with true.
hasMatching_isRemoved(t) ==
  /\ pc[t] = "tTest"
  /\ ~reserved[T[t].cur]
  /\ IF ~removed[T[t].cur]
       THEN /\ T' = [T EXCEPT ![t] = [Returned(t) EXCEPT !.found = TRUE]]
            /\ pc' = [pc EXCEPT ![t] = "done"]
       ELSE pc' = [pc EXCEPT ![t] = "tAdvance"] /\ UNCHANGED T
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>

traverse_advance(t) ==
  /\ pc[t] = "tAdvance"
  /\ T' = [T EXCEPT ![t].cur = IF T[t].jump THEN T[T[t].cur].skip ELSE next[T[t].cur], ![t].jump = FALSE]
  /\ pc' = [pc EXCEPT ![t] = "tVisit"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>

\* Re-read top; if it moved, walk the new segment down to the old top's
\* ticket. The last read (top stable) is the traversal's linearization
\* point: a query answers false, a removal returns 0 without pushing
\* anything (with top stable it has no verdicts: with verdicts it tries its
\* push instead, and after a failed push top has moved).
traverse_recheck(t) ==
  /\ pc[t] = "tRecheck"
  /\ IF top = T[t].top
       THEN pc' = [pc EXCEPT ![t] = "done"] /\ T' = [T EXCEPT ![t] = Returned(t)]
       ELSE /\ T' = [T EXCEPT ![t].floor = TicketOf(T[t].top), ![t].top = top, ![t].cur = top,
                              ![t].seen = Seen(t)]
            /\ pc' = [pc EXCEPT ![t] = "tVisit"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, verdict, ghostVars>>

traverse(t) == \/ traverse_readTop(t) \/ traverse_visit(t) \/ hasMatching_isRemoved(t) \/ resolve_reserved(t)
               \/ traverse_advance(t) \/ traverse_recheck(t)

-----------------------------------------------------------------------------
(* The Looper: DeliQueue.next() = loop { now = clock; takeDueOrNull(now);   *)
(* teardown if quitSeen; sleep }, takeDueOrNull = loop { sweep;             *)
(* drainFreelist; dropOnQuit once; firstDeliverable (liveHead);             *)
(* claimForDelivery; resolve; unlink }.                                     *)

\* 2. sweep. The read of top; at label "loop" it is the first access of a
\* next() iteration and also reads the clock (reason (c)). If top = swept
\* the sweep returns at once.
sweep_readTop ==
  /\ L.pc \in {"loop", "take", "sweep"}
  /\ LET ret == CASE L.pc = "sweep" -> L.ret [] OTHER -> "drain" IN
       L' = [L EXCEPT !.top = top,
                      !.now = IF L.pc = "loop" THEN now ELSE @,
                      !.cur = IF top = swept THEN Nil ELSE top,
                      !.ret = IF top = swept THEN "drain" ELSE ret,
                      !.pc = IF top = swept THEN ret ELSE "sweepWalk"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>

\* One node m of the walk: read m.next (only the Looper writes next after
\* publication, and never in the unswept segment) and m.flags (the one racy
\* read); write n.prev = m; note the sentinel, note a descriptor as a
\* pending removal, else heap m unless REMOVED. At swept the walk ends:
\* swept = t, then the deferred unlink is spliced.
sweep_step ==
  /\ L.pc = "sweepWalk"
  /\ IF L.cur = swept
       THEN /\ swept' = L.top
            /\ IF deferred # Nil
                 THEN /\ L' = [L EXCEPT !.target = deferred, !.uret = L.ret, !.pc = "splice",
                                        !.cur = Nil, !.ret = "drain"]
                      /\ deferred' = Nil
                 ELSE /\ L' = [L EXCEPT !.pc = L.ret, !.cur = Nil, !.ret = "drain"]
                      /\ UNCHANGED deferred
            /\ UNCHANGED <<prev, heap, pending>>
       ELSE LET m == L.cur
                n == next[m] IN
            /\ prev' = IF n # Nil THEN linkBack(n, m) ELSE prev
            /\ IF isQuitSentinel(m)
                 THEN L' = [L EXCEPT !.cur = n, !.quitSeen = TRUE] /\ UNCHANGED <<heap, pending>>
               ELSE IF m \in Removers
                 THEN pending' = pending \cup {m} /\ L' = [L EXCEPT !.cur = n] /\ UNCHANGED heap
                 ELSE /\ heap' = IF ~removed[m] THEN heap \cup {m} ELSE heap
                      /\ L' = [L EXCEPT !.cur = n]
                      /\ UNCHANGED pending
            /\ UNCHANGED <<swept, deferred>>
  /\ UNCHANGED <<sharedVars, wakeVars, now, threadVars, ghostVars>>

sweep == sweep_readTop \/ sweep_step

\* 3. drainFreelist: if freelist is not null, exchange it with null. The
\* null test and the exchange are one step: between them freelist can only
\* grow (only the Looper empties it). Then sweep, so the chain is swept.
drainFreelist_exchange ==
  /\ L.pc = "drain"
  /\ freelist' = <<>>
  /\ L' = IF freelist = <<>> THEN [L EXCEPT !.pc = "dropOnQuit"]
          ELSE [L EXCEPT !.chain = freelist, !.ret = "drainNode", !.pc = "sweep"]
  /\ UNCHANGED <<stackVars, flagVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>

\* For each chained node: a descriptor is no longer pending; a message goes
\* out of its heap (if heapIndex >= 0); then unlink.
drainFreelist_node ==
  /\ L.pc = "drainNode"
  /\ IF L.chain = <<>>
       THEN L' = [L EXCEPT !.pc = "dropOnQuit"] /\ UNCHANGED <<heap, pending>>
       ELSE /\ heap' = heap \ {Head(L.chain)}
            /\ pending' = pending \ {Head(L.chain)}
            /\ L' = [L EXCEPT !.target = Head(L.chain), !.chain = Tail(L.chain),
                              !.uret = "drainNode", !.pc = "unlink"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, prev, swept, deferred, threadVars, ghostVars>>

drainFreelist == drainFreelist_exchange \/ drainFreelist_node

\* 3. unlink(m): with a back-link splice at once; without one m is the
\* newest swept node: if it is still top it stays as deferredUnlink (the
\* Looper never moves top), else sweep first (which gives it a back-link).
unlink_check ==
  /\ L.pc = "unlink"
  /\ LET m == L.target IN
       IF prev[m] # Nil
         THEN L' = [L EXCEPT !.pc = "splice"] /\ UNCHANGED deferred
       ELSE IF top = m
         THEN deferred' = m /\ L' = [L EXCEPT !.pc = L.uret, !.uret = "loop", !.target = Nil]
         ELSE L' = [L EXCEPT !.ret = "splice", !.pc = "sweep"] /\ UNCHANGED deferred
  /\ UNCHANGED <<sharedVars, wakeVars, now, prev, swept, heap, pending, threadVars, ghostVars>>

\* splice(m): p.next = m.next (the one shared write); n.prev = p and
\* m.prev = null are Looper-only. m keeps its next (traversals may stand on m).
unlink_splice ==
  /\ L.pc = "splice"
  /\ LET m == L.target
         p == prev[m]
         n == next[m] IN
       /\ next' = [next EXCEPT ![p] = n]
       /\ prev' = IF n # Nil THEN [prev EXCEPT ![m] = Nil, ![n] = p] ELSE [prev EXCEPT ![m] = Nil]
  /\ L' = [L EXCEPT !.pc = L.uret, !.uret = "loop", !.target = Nil]
  /\ UNCHANGED <<top, ticket, when, freelist, flagVars, wakeVars, now, swept, heap, deferred, pending, threadVars,
                 ghostVars>>

unlink == unlink_check \/ unlink_splice

\* The earliest pending removal that covers m (DeliQueue.earliestOwner over
\* pendingRemovals), or Nil: read from the descriptors' verdicts (Covers); the
\* Looper never runs a removal's predicate.
PendingOwner(m) == LET O == {r \in pending : Covers(r, m)} IN IF O = {} THEN Nil ELSE Earliest(O)

\* 8. dropOnQuit / dropFrom (once, when the sweep has met the sentinel): each
\* heap message the quit dooms (DroppedByQuit) and not REMOVED: out of the
\* heap, then takeFor its owner: a pending removal pushed before the
\* sentinel, else the sentinel, whose message the Looper unlinks. One
\* message m per step, in any order: dropFrom goes through the sync heap,
\* then the async heap, each in array order, which the spec does not fix.
\* dropFrom's isRemoved test and takeFor's read of the flags are one step by
\* (d). m = Nil is the step that drops nothing and goes on to deliver (none
\* is left, or there is no quit to handle). m is a parameter so that a
\* trace can name the message (trace validation).
takeDueOrNull_dropOnQuitAt(m) ==
  /\ L.pc = "dropOnQuit"
  /\ LET D == {x \in heap : DroppedByQuit(x) /\ ~removed[x]} IN
       IF ~L.quitSeen \/ L.quitDropped \/ D = {}
         THEN /\ m = Nil
              /\ L' = [L EXCEPT !.quitDropped = L.quitSeen, !.pc = "deliver"]
              /\ UNCHANGED <<removed, removedBy, heap>>
         ELSE LET owner == IF PendingOwner(m) # Nil /\ ticket[PendingOwner(m)] < ticket[Quit]
                           THEN PendingOwner(m) ELSE Quit IN
              /\ m \in D
              /\ heap' = heap \ {m}
              /\ removed' = [removed EXCEPT ![m] = TRUE]
              /\ removedBy' = [removedBy EXCEPT ![m] = owner]
              /\ IF owner = Quit
                   THEN L' = [L EXCEPT !.target = m, !.uret = "dropOnQuit", !.pc = "unlink"]
                   ELSE UNCHANGED L
  /\ UNCHANGED <<stackVars, freelist, reserved, delivered, claimTop, wakeVars, now, prev, swept, deferred, pending,
                 threadVars, ghostVars>>

\* The step for some m (the guard, repeated, lets make tlc-explain name its thread).
takeDueOrNull_dropOnQuit ==
  /\ L.pc = "dropOnQuit"
  /\ \E m \in heap \cup {Nil} : takeDueOrNull_dropOnQuitAt(m)

\* takeDueOrNull's clock once the sentinel is swept: now = max(now,
\* quitSentinel.when): what quitSafely kept is due by the quit's time, which
\* the clock has passed (else a now read before the sweep would tear down
\* over it).
DueBy == IF L.quitSeen /\ when[Quit] > L.now THEN when[Quit] ELSE L.now
\* head != null && head.when <= now
IsDue(c) == c # Nil /\ when[c] <= DueBy

\* DeliQueue.liveHead: a heap's head that has left the queue: REMOVED (its
\* remover hands it back through the freelist), or owned by a pending
\* removal. The sync heap is looked at first.
Dead(h) == removed[h] \/ PendingOwner(h) # Nil
DeadHead == IF SyncSide(heap) # {} /\ Dead(MinOf(SyncSide(heap))) THEN MinOf(SyncSide(heap))
            ELSE IF AsyncSide(heap) # {} /\ Dead(MinOf(AsyncSide(heap))) THEN MinOf(AsyncSide(heap))
            ELSE Nil

\* 7. liveHead: out of the heap; one owned by a pending removal is
\* tombstoned here for it (takeFor: the read and the CAS one step by (d); a
\* message in a heap is never RESERVED). A barrier removed so stops blocking.
takeDueOrNull_liveHead ==
  /\ L.pc = "deliver"
  /\ DeadHead # Nil
  /\ LET h == DeadHead IN
       /\ heap' = heap \ {h}
       /\ IF ~removed[h]
            THEN /\ removed' = [removed EXCEPT ![h] = TRUE]
                 /\ removedBy' = [removedBy EXCEPT ![h] = PendingOwner(h)]
            ELSE UNCHANGED <<removed, removedBy>>
  /\ UNCHANGED <<stackVars, freelist, reserved, delivered, claimTop, wakeVars, now, prev, swept, deferred, pending,
                 L, threadVars, ghostVars>>

\* 7. deliver: firstDeliverable of the live heads; if due, out of the heap
\* and on to claimForDelivery. Otherwise record nextDeadline and the
\* blocking barrier, and tear down or sleep.
takeDueOrNull_deliver ==
  /\ L.pc = "deliver"
  /\ DeadHead = Nil
  /\ LET c == FirstDeliverable(heap) IN
       IF IsDue(c)
         THEN /\ heap' = heap \ {c}
              /\ L' = [L EXCEPT !.target = c, !.pc = "claim"]
         ELSE /\ L' = [L EXCEPT !.dl = IF c = Nil THEN INF ELSE when[c],
                                !.bar = BlockingBarrier(heap),
                                !.pc = IF L.quitSeen THEN "teardown" ELSE "sleep"]
              /\ UNCHANGED heap
  /\ UNCHANGED <<sharedVars, wakeVars, now, prev, swept, deferred, pending, threadVars, ghostVars>>

\* 7. claimForDelivery: the CAS that reserves c unless REMOVED (RESERVED,
\* claimTop = swept), then resolve. If it finds c REMOVED, a removal owns c
\* (dropIfQuitOwns: a quit owns only what was resolved for it): loop.
takeDueOrNull_claim ==
  /\ L.pc = "claim"
  /\ LET c == L.target IN
       IF claimForDelivery(c)
         THEN /\ reserved' = [reserved EXCEPT ![c] = TRUE]
              /\ claimTop' = [claimTop EXCEPT ![c] = TicketOf(swept)]
              /\ L' = [L EXCEPT !.pc = "resolve"]
         ELSE /\ L' = [L EXCEPT !.target = Nil, !.pc = "take"]
              /\ UNCHANGED <<reserved, claimTop>>
  /\ UNCHANGED <<stackVars, freelist, removed, delivered, removedBy, wakeVars, now, looperFieldVars, threadVars,
                 ghostVars>>

\* 7. resolve: read top and CAS from RESERVED (Resolve), unless a remover or
\* an asker resolved c first (then read the outcome). Delivered: that read
\* of top is the delivery's linearization point; unlink and return c. The
\* quit owns c (dropIfQuitOwns): unlink it and loop. A removal owns c: its
\* remover hands it back through the freelist; loop.
takeDueOrNull_resolve ==
  /\ L.pc = "resolve"
  /\ LET c == L.target IN
       /\ IF reserved[c] THEN Resolve(c) ELSE UNCHANGED <<removed, reserved, delivered, removedBy, dcount>>
       /\ L' = IF delivered'[c] THEN [L EXCEPT !.uret = "loop", !.pc = "unlink"]
               ELSE IF removedBy'[c] = Quit THEN [L EXCEPT !.uret = "take", !.pc = "unlink"]
               ELSE [L EXCEPT !.target = Nil, !.pc = "take"]
  /\ UNCHANGED <<stackVars, freelist, claimTop, wakeVars, now, looperFieldVars, threadVars, lastPost, took, evals>>

takeDueOrNull == takeDueOrNull_dropOnQuit \/ takeDueOrNull_liveHead \/ takeDueOrNull_deliver
                 \/ takeDueOrNull_claim \/ takeDueOrNull_resolve

\* 6. sleep(deadline, barrier): sleepBarrier = barrier, then publish ASLEEP
\* (volatile writes; the pair is one step since wakers read the word first) ...
sleep_publish ==
  /\ L.pc = "sleep"
  /\ waitWord' = [asleep |-> TRUE, deadline |-> L.dl, barrier |-> L.bar]
  /\ L' = [L EXCEPT !.pc = "recheckTop"]
  /\ UNCHANGED <<sharedVars, wakeRefs, permit, resource, now, looperFieldVars, threadVars, ghostVars>>

\* ... re-read top (the Looper's half of the Dekker pair) ...
sleep_recheckTop ==
  /\ L.pc = "recheckTop"
  /\ L' = [L EXCEPT !.pc = IF top = swept THEN "recheckFree" ELSE "awake"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>

\* ... and freelist ...
sleep_recheckFree ==
  /\ L.pc = "recheckFree"
  /\ L' = [L EXCEPT !.pc = IF freelist = <<>> THEN "park" ELSE "awake"]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>

\* ... park until the deadline or a permit (consumed) ... A park with a
\* deadline (parkNanos) measures its duration on System.nanoTime, not on the
\* queue's Clock, and LockSupport may return spuriously: it may return at any
\* time without a permit (left as it is). Only a park without deadline
\* needs the permit, unless an interrupt ends it (parkUntil_early). Either
\* way the Looper writes AWAKE and loops, checking everything again.
sleep_park ==
  /\ L.pc = "park"
  /\ \/ permit /\ permit' = FALSE
     \/ L.dl <= MaxTime /\ UNCHANGED permit
  /\ L' = [L EXCEPT !.pc = "awake"]
  /\ UNCHANGED <<sharedVars, waitWord, wakeRefs, resource, now, looperFieldVars, threadVars, ghostVars>>

\* ... and write AWAKE; next() loops.
sleep_awake ==
  /\ L.pc = "awake"
  /\ waitWord' = Awake
  /\ L' = [L EXCEPT !.pc = "loop", !.dl = INF, !.bar = Nil, !.early = FALSE]
  /\ UNCHANGED <<sharedVars, wakeRefs, permit, resource, now, looperFieldVars, threadVars, ghostVars>>

sleep == sleep_publish \/ sleep_recheckTop \/ sleep_recheckFree \/ sleep_park \/ sleep_awake

\* 5. teardown (Looper, once, after quit): CAS the TEARDOWN bit in (atomic
\* by (a)); while wakeRefs != TEARDOWN park; free the resource. The wait
\* loop reads wakeRefs again (teardown_check) rather than use the CAS's
\* witness, as the code does. A park that an interrupt ends
\* (parkUntil_early) only reads the count again: nothing but a drained
\* count ends the wait.
teardown_set ==
  /\ L.pc = "teardown"
  /\ wakeRefs' = [wakeRefs EXCEPT !.teardown = TRUE]
  /\ L' = [L EXCEPT !.pc = "tdCheck"]
  /\ UNCHANGED <<sharedVars, waitWord, permit, resource, now, looperFieldVars, threadVars, ghostVars>>

teardown_check ==
  /\ L.pc = "tdCheck"
  /\ L' = [L EXCEPT !.pc = IF wakeRefs.count = 0 THEN "free" ELSE "tdPark", !.early = FALSE]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>

teardown_park ==
  /\ L.pc = "tdPark"
  /\ permit
  /\ permit' = FALSE
  /\ L' = [L EXCEPT !.pc = "tdCheck"]
  /\ UNCHANGED <<sharedVars, waitWord, wakeRefs, resource, now, looperFieldVars, threadVars, ghostVars>>

teardown_free ==
  /\ L.pc = "free"
  /\ resource' = "freed"
  /\ L' = [L EXCEPT !.pc = "exit"]
  /\ UNCHANGED <<sharedVars, waitWord, wakeRefs, permit, now, looperFieldVars, threadVars, ghostVars>>

teardown == teardown_set \/ teardown_check \/ teardown_park \/ teardown_free

\* An interrupt of the Looper (ParkReturnsEarly) while it parks, in its
\* sleep or in teardown's wait: LockSupport.park returns without a permit
\* (with one pending, park consumes it and returns: sleep_park or
\* teardown_park) and before its deadline; the sleep writes AWAKE and loops,
\* the wait reads the count again. Like tick, not a step any thread must
\* take: Fairness leaves it out, so no liveness property rests on an
\* interrupt coming.
parkUntil_early ==
  /\ ParkReturnsEarly
  /\ L.pc \in {"park", "tdPark"}
  /\ ~permit
  /\ L' = [L EXCEPT !.pc = IF L.pc = "park" THEN "awake" ELSE "tdCheck", !.early = TRUE]
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperFieldVars, threadVars, ghostVars>>

\* The clock (ManualClock.advance), between any two steps.
tick ==
  /\ now < MaxTime
  /\ now' = now + 1
  /\ UNCHANGED <<sharedVars, wakeVars, looperVars, threadVars, ghostVars>>

(* Threads, Next, Spec *)

Producer(m) == push(m) \/ signalIfEarlier(m) \/ wake(m)
Quitter == quit \/ signalIfEarlier(QuitT) \/ wake(QuitT)
Traverser(t) == IF Op[t] = "remove" THEN removeMatching(t) \/ traverse(t) \/ signalIfEarlier(t) \/ wake(t)
                ELSE traverse(t)
Looper == sweep \/ drainFreelist \/ unlink \/ takeDueOrNull \/ sleep \/ teardown

Next == \/ \E m \in Msgs : Producer(m)
        \/ Quitter
        \/ \E t \in Traversers : Traverser(t)
        \/ Looper
        \/ parkUntil_early
        \/ tick

\* Every thread is scheduled (weak fairness); the clock need not advance,
\* and nobody need interrupt the Looper.
Fairness == /\ \A m \in Msgs : WF_vars(Producer(m))
            /\ WF_vars(Quitter)
            /\ \A t \in Traversers : WF_vars(Traverser(t))
            /\ WF_vars(Looper)

Spec == Init /\ [][Next]_vars /\ Fairness

=============================================================================
