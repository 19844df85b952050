------------------------------ MODULE DeliQueue ------------------------------
(***************************************************************************)
(* DeliQueue: Android 17's lock-free MessageQueue, step by step as in      *)
(* impl/src/main/java/org/deliqueue/DeliQueue.java. Names follow           *)
(* docs/design.md: an action named m_x is step x of the Java method m, and *)
(* m == the disjunction of its steps. Obligations carry the IDs of the     *)
(* design's table.                                                         *)
(*                                                                         *)
(* Threads: one producer per message (enqueue / postSyncBarrier), one      *)
(* quitter (quit / quitSafely), the traversers (removeMessages /           *)
(* removeSyncBarrier, or hasMessages, each over its predicate Pred[t]),    *)
(* the Looper (next()), and the clock (tick).                              *)
(*                                                                         *)
(* Atomicity: one shared-memory access (or one CAS) per action. Where an   *)
(* action does more, a comment says why that is sound; the recurring       *)
(* reasons are (a) a CAS retry loop whose failed iterations change nothing *)
(* is one atomic step at its successful CAS, (b) Looper-only fields (prev, *)
(* heaps, swept, locals) and fields of a not yet published node are        *)
(* private, and (c) a clock read commutes with any access to other         *)
(* variables (Lipton reduction), so it can share an action with one.       *)
(*                                                                         *)
(* Abstractions: the two heaps are one set `heap` ordered by (when,        *)
(* insertSeq) with insertSeq = ticket, or -ticket when when = 0; syncHeap  *)
(* = its sync messages and barriers, asyncHeap = its async messages. Time  *)
(* is a small integer clock `now` in 0..MaxTime advanced by tick at any    *)
(* point; `when` is a small integer; MaxTime + 1 stands for "no deadline". *)
(* Payload matching is abstracted by the sets Pred[t]. Idle handlers,      *)
(* isIdle and poll() are not modelled.                                     *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS Msgs,       \* message identities, one producer thread each
          Kind,       \* [Msgs -> {"sync", "async", "barrier"}]: Message.target == null / isAsynchronous()
          When,       \* [Msgs -> 0..MaxTime]: the requested when of sync/async messages (barriers: now at posting)
          Traversers, \* the threads that traverse the stack: removers and hasMessages callers
          Op,         \* [Traversers -> {"remove", "has"}]: removeMatching or hasMatching
          Pred,       \* [Traversers -> SUBSET Msgs]: the messages the caller's predicate matches
          MaxTime,    \* bound of the clock
          Modes,      \* quit modes the quitter may use: subset of {"quit", "quitSafely"}; {}: nobody quits
          Quit,       \* the quit sentinel (a Message with FLAG_QUIT_SENTINEL)
          Nil,        \* null
          QuitT       \* the quitter thread

Nodes == Msgs \cup {Quit}
Threads == Msgs \cup {QuitT} \cup Traversers
Removers == {t \in Traversers : Op[t] = "remove"}
Askers == {t \in Traversers : Op[t] = "has"}
INF == MaxTime + 1                      \* MessageQueue.NO_DEADLINE / MAX_DEADLINE
Barriers == {m \in Msgs : Kind[m] = "barrier"}
\* DeliQueue.AWAKE; asleep = ASLEEP, deadline = waitWord >>> 2, barrier =
\* DeliQueue.sleepBarrier (the BLOCKED bit is barrier # Nil).
Awake == [asleep |-> FALSE, deadline |-> INF, barrier |-> Nil]

ASSUME /\ Quit \notin Msgs /\ Nil \notin Nodes /\ Traversers \cap (Msgs \cup {QuitT}) = {}
       /\ Kind \in [Msgs -> {"sync", "async", "barrier"}] /\ When \in [Msgs -> 0..MaxTime]
       /\ Op \in [Traversers -> {"remove", "has"}] /\ Pred \in [Traversers -> SUBSET Msgs]
       /\ Modes \subseteq {"quit", "quitSafely"}

VARIABLES
  \* ---- shared memory (Java fields) ----
  top,       \* DeliQueue.top
  next,      \* Message.next
  ticket,    \* Message.ticket
  when,      \* Message.when (written before the push; when[Quit]: sentinel.when, the quit's clock reading)
  removed,   \* Message.flags & FLAG_REMOVED
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
  L,         \* the Looper's program counter and locals, see LooperInit
  \* ---- other threads ----
  pc,        \* [Threads -> label]
  qmode,     \* the sentinel's arg1: "quit" or "quitSafely" (fixed per behaviour)
  T,         \* [Traversers -> locals of traverse and its visitor], see TraverserInit
  \* ---- history (ghost) ----
  dcount,    \* [Msgs -> Nat]: how often each message was delivered
  dropped,   \* messages the Looper dropped on quit (its REMOVED CAS won)
  lastPost   \* the clock at the last successful push CAS of a message (Refinement: the quit's time)

sharedVars == <<top, next, ticket, when, removed, freelist>>
wakeVars == <<waitWord, wakeRefs, permit, resource>>
looperVars == <<prev, swept, heap, deferred, L>>
threadVars == <<pc, qmode, T>>
ghostVars == <<dcount, dropped, lastPost>>
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
WonBy(t) == Range(T[t].won)                              \* messages t's REMOVED CAS won
Won == UNION {WonBy(t) : t \in Removers}
SweptNode(n) == n \in Linked /\ ticket[n] <= TicketOf(swept)
\* DeliQueue.droppedByQuit(sentinel, m): quit drops everything, quitSafely what is
\* due after the sentinel's clock reading (when[Quit]).
DroppedByQuit(m) == qmode = "quit" \/ when[m] > when[Quit]
\* The messages of S that are live: pushed, neither taken (delivered, removed,
\* dropped) nor dropped by a quit that has taken effect. Under the refinement
\* mapping this is the abstract queue's Live \cap S.
LiveNow(S) == {m \in S : Pushed(m) /\ ~removed[m] /\ ~(QuitPushed /\ DroppedByQuit(m))}

\* Named as in the Java.
isQuitSentinel(n) == n = Quit
linkBack(n, m) == [prev EXCEPT ![n] = m]                \* DeliQueue.linkBack: n.prev = m
claimForDelivery(c) == ~removed[c]                      \* does the Looper's CAS (RESERVED) find c not REMOVED?
\* DeliQueue.releasePayload: the remover clears obj, callback and target of
\* every message it won (private writes: only its winner clears them).
releasePayload(t) == [T EXCEPT ![t].released = TRUE]

-----------------------------------------------------------------------------
ProducerPcs == {"push", "pushCas", "failed", "signal", "wake", "wSignal", "wRelease", "done"}
QuitterPcs == {"never", "quit", "quitCas", "signal", "wake", "wSignal", "wRelease", "done"}
\* The sentinel's arg1 a behaviour may use ("quit" stands in when nobody quits).
QModes == IF Modes = {} THEN {"quit"} ELSE Modes
TraverserPcs == {"tStart", "tVisit", "tTest", "tAdvance", "tRecheck", "rFree",
                 "signal", "wake", "wSignal", "wRelease", "done"}
LooperPcs == {"loop", "take", "sweep", "sweepWalk", "drain", "drainNode", "unlink", "splice",
              "dropOnQuit", "deliver", "sleep", "recheckTop", "recheckFree", "park", "awake",
              "teardown", "tdCheck", "tdPark", "free", "exit"}

LooperInit == [pc |-> "loop",       \* label
               ret |-> "drain",     \* where sweep returns
               uret |-> "loop",     \* where unlink / splice return
               top |-> Nil,         \* sweep's read of top
               cur |-> Nil,         \* sweep's cursor
               chain |-> <<>>,      \* drainFreelist's chain
               target |-> Nil,      \* the message to unlink
               now |-> 0,           \* next(): now = clock.uptimeMillis()
               dl |-> INF,          \* nextDeadline
               bar |-> Nil,         \* the blocking barrier (blockedByBarrier: bar # Nil)
               quitSeen |-> FALSE,  \* quitSentinel != null
               quitDropped |-> FALSE]  \* quitMessagesDropped

TraverserInit == [top |-> Nil,      \* traverse: the last read of top
                  floor |-> 0,      \* traverse: the previous top's ticket
                  cur |-> Nil,      \* traverse: the cursor
                  quit |-> FALSE,   \* traverse: quit != null (the sentinel was passed)
                  won |-> <<>>,     \* Tombstones: the chain of wins (head first)
                  found |-> FALSE,  \* hasMatching: the visitor returned true
                  released |-> FALSE, \* releasePayload cleared obj/callback/target of what it won
                  seen |-> {}]      \* ghost (hasMatching): LiveNow(Pred[t]) at the last read of top

\* obligation: every variable has its type
TypeOK ==
  /\ top \in Nodes \cup {Nil}
  /\ next \in [Nodes -> Nodes \cup {Nil}] /\ prev \in [Nodes -> Nodes \cup {Nil}]
  /\ ticket \in [Nodes -> Nat] /\ when \in [Nodes -> 0..MaxTime]
  /\ removed \in [Nodes -> BOOLEAN]
  /\ freelist \in Seq(Msgs)
  /\ waitWord \in [asleep : BOOLEAN, deadline : 0..INF, barrier : Barriers \cup {Nil}]
  /\ wakeRefs \in [count : 0..Cardinality(Threads), teardown : BOOLEAN]
  /\ permit \in BOOLEAN /\ resource \in {"live", "freed"} /\ now \in 0..MaxTime
  /\ swept \in Nodes \cup {Nil} /\ heap \subseteq Msgs /\ deferred \in Nodes \cup {Nil}
  /\ L.pc \in LooperPcs /\ L.ret \in LooperPcs /\ L.uret \in LooperPcs
  /\ L.top \in Nodes \cup {Nil} /\ L.cur \in Nodes \cup {Nil} /\ L.target \in Nodes \cup {Nil}
  /\ L.now \in 0..MaxTime /\ L.dl \in 0..INF /\ L.bar \in Barriers \cup {Nil} /\ L.chain \in Seq(Msgs)
  /\ L.quitSeen \in BOOLEAN /\ L.quitDropped \in BOOLEAN
  /\ \A m \in Msgs : pc[m] \in ProducerPcs
  /\ pc[QuitT] \in QuitterPcs /\ qmode \in QModes
  /\ \A t \in Traversers : /\ pc[t] \in TraverserPcs
                           /\ T[t].top \in Nodes \cup {Nil} /\ T[t].cur \in Nodes \cup {Nil}
                           /\ T[t].floor \in Nat /\ T[t].quit \in BOOLEAN /\ T[t].won \in Seq(Msgs)
                           /\ T[t].found \in BOOLEAN /\ T[t].released \in BOOLEAN
                           /\ T[t].seen \subseteq Pred[t]
  /\ dcount \in [Msgs -> Nat] /\ dropped \subseteq Msgs /\ lastPost \in 0..MaxTime

Init ==
  /\ top = Nil /\ next = [n \in Nodes |-> Nil] /\ ticket = [n \in Nodes |-> 0]
  /\ when = [n \in Nodes |-> IF n = Quit \/ Kind[n] = "barrier" THEN 0 ELSE When[n]]   \* new Message(): when = 0
  /\ removed = [n \in Nodes |-> n = Quit]    \* the sentinel is born REMOVED (quitQueue's flags)
  /\ freelist = <<>>
  /\ waitWord = Awake /\ wakeRefs = [count |-> 0, teardown |-> FALSE]
  /\ permit = FALSE /\ resource = "live" /\ now = 0
  /\ prev = [n \in Nodes |-> Nil] /\ swept = Nil /\ heap = {} /\ deferred = Nil
  /\ L = LooperInit
  /\ pc = [t \in Threads |-> IF t \in Msgs THEN "push"
                             ELSE IF t = QuitT THEN (IF Modes = {} THEN "never" ELSE "quit")
                             ELSE "tStart"]
  /\ qmode \in QModes
  /\ T = [t \in Traversers |-> TraverserInit]
  /\ dcount = [m \in Msgs |-> 0] /\ dropped = {} /\ lastPost = 0

-----------------------------------------------------------------------------
(* 1. push (any thread): DeliQueue.push, enqueueClaimed, postSyncBarrier.   *)

\* Read top; fail on the sentinel; write m.next, m.ticket (and, on the first
\* attempt, a barrier's when, the clock: reason (c)) into the unpublished m:
\* private until the CAS. postSyncBarrier reads the clock once, before its
\* push loop, so a retried push keeps the first reading; ticket[m] = 0 marks
\* the first attempt (every attempt writes a ticket >= 1).
push_readTop(m) ==
  /\ pc[m] = "push"
  /\ IF top = Quit
       THEN /\ pc' = [pc EXCEPT ![m] = "failed"]
            /\ UNCHANGED <<next, ticket, when>>
       ELSE /\ next' = [next EXCEPT ![m] = top]
            /\ ticket' = [ticket EXCEPT ![m] = TicketOf(top) + 1]
            /\ when' = IF Kind[m] = "barrier" /\ ticket[m] = 0 THEN [when EXCEPT ![m] = now] ELSE when
            /\ pc' = [pc EXCEPT ![m] = "pushCas"]
  /\ UNCHANGED <<top, removed, freelist>> /\ UNCHANGED <<wakeVars, now, looperVars, qmode, T, ghostVars>>

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
  /\ UNCHANGED <<next, ticket, when, removed, freelist>>
  /\ UNCHANGED <<wakeVars, now, looperVars, qmode, T, dcount, dropped>>

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
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeRefs, permit, resource>>
  /\ UNCHANGED <<now, looperVars, qmode, T, ghostVars>>

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
  /\ UNCHANGED sharedVars /\ UNCHANGED <<waitWord, permit, resource>>
  /\ UNCHANGED <<now, looperVars, qmode, T, ghostVars>>

\* signalWakeResource: uses the resource; the wake is a sticky permit.
wake_signal(t) ==
  /\ pc[t] = "wSignal"
  /\ permit' = TRUE
  /\ pc' = [pc EXCEPT ![t] = "wRelease"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<waitWord, wakeRefs, resource>>
  /\ UNCHANGED <<now, looperVars, qmode, T, ghostVars>>

\* releaseWakeRef: decrement; the last one out after TEARDOWN unparks the
\* Looper. Joined into one step: the Looper re-reads wakeRefs before every
\* park, and a permit is sticky, so where the unpark falls does not matter.
wake_release(t) ==
  /\ pc[t] = "wRelease"
  /\ wakeRefs' = [wakeRefs EXCEPT !.count = @ - 1]
  /\ permit' = (permit \/ (wakeRefs.count = 1 /\ wakeRefs.teardown))
  /\ pc' = [pc EXCEPT ![t] = "done"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<waitWord, resource>>
  /\ UNCHANGED <<now, looperVars, qmode, T, ghostVars>>

wake(t) == wake_acquire(t) \/ wake_signal(t) \/ wake_release(t)

-----------------------------------------------------------------------------
(* 8. quit (quitter): DeliQueue.quitQueue pushes the sentinel, born with    *)
(* IN_USE | REMOVED | QUIT_SENTINEL and arg1 (quitSafely), then             *)
(* signalIfEarlier(Long.MIN_VALUE, true). The push is the quit's            *)
(* linearization point: from then on what DroppedByQuit names is dead for  *)
(* traversals, and the Looper drops it when its sweep meets the sentinel.  *)

\* Read top, then the clock (sentinel.when), on every attempt; write the
\* unpublished sentinel's next, ticket and when. Private writes; the clock
\* read comes after the read of top, which it may share a step with by (c).
\* Every push before the sentinel's precedes that read of top, so the quit's
\* time is at or after the clock of every accepted post.
quit_readTop ==
  /\ pc[QuitT] = "quit"
  /\ next' = [next EXCEPT ![Quit] = top]
  /\ ticket' = [ticket EXCEPT ![Quit] = TicketOf(top) + 1]
  /\ when' = [when EXCEPT ![Quit] = now]
  /\ pc' = [pc EXCEPT ![QuitT] = "quitCas"]
  /\ UNCHANGED <<top, removed, freelist>> /\ UNCHANGED <<wakeVars, now, looperVars, qmode, T, ghostVars>>

quit_casTop ==
  /\ pc[QuitT] = "quitCas"
  /\ IF top = next[Quit]
       THEN top' = Quit /\ pc' = [pc EXCEPT ![QuitT] = "signal"]
       ELSE pc' = [pc EXCEPT ![QuitT] = "quit"] /\ UNCHANGED top
  /\ UNCHANGED <<next, ticket, when, removed, freelist>>
  /\ UNCHANGED <<wakeVars, now, looperVars, qmode, T, ghostVars>>

quit == quit_readTop \/ quit_casTop

-----------------------------------------------------------------------------
(* 4. the racy traversal (any thread): DeliQueue.traverse(visitor), with    *)
(* the visitors of removeMatching (Tombstones: markRemoved, then            *)
(* pushFreelist and, for a barrier, removeSyncBarrier's wake) and of        *)
(* hasMatching (!isRemoved). Plain reads of next, one per step.             *)

AfterTraverse(t) == IF Op[t] = "remove" /\ T[t].won # <<>> THEN "rFree" ELSE "done"
\* t's locals once traverse has returned: only the result is kept.
Returned(t) == [TraverserInit EXCEPT !.won = T[t].won, !.found = T[t].found, !.released = T[t].released]
\* The ghost a hasMatching caller records at each read of top.
Seen(t) == IF Op[t] = "has" THEN LiveNow(Pred[t]) ELSE {}

\* The loop condition's read of top (first pass); top = null ends it.
traverse_readTop(t) ==
  /\ pc[t] = "tStart"
  /\ IF top = Nil
       THEN pc' = [pc EXCEPT ![t] = AfterTraverse(t)] /\ UNCHANGED T
       ELSE /\ T' = [T EXCEPT ![t].top = top, ![t].cur = top, ![t].floor = 0, ![t].seen = Seen(t)]
            /\ pc' = [pc EXCEPT ![t] = "tVisit"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>

\* At cursor m: stop at null or at the floor (ticket is immutable once
\* published); the sentinel is noted (traverse's quit = m) and passed; a
\* match not dropped by a quit already passed goes to the visitor; otherwise
\* on to m.next, which the loop's header reads (traverse_advance). The
\* sentinel's arg1 and when and m.when are immutable once published, so
\* reading them adds no shared access.
traverse_visit(t) ==
  /\ pc[t] = "tVisit"
  /\ LET m == T[t].cur IN
       IF m = Nil \/ ticket[m] <= T[t].floor
         THEN /\ pc' = [pc EXCEPT ![t] = "tRecheck"] /\ UNCHANGED T
       ELSE IF isQuitSentinel(m)
         THEN /\ T' = [T EXCEPT ![t].quit = TRUE] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
       ELSE IF m \in Pred[t] /\ ~(T[t].quit /\ DroppedByQuit(m))
         THEN /\ pc' = [pc EXCEPT ![t] = "tTest"] /\ UNCHANGED T
         ELSE /\ pc' = [pc EXCEPT ![t] = "tAdvance"] /\ UNCHANGED T
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>

\* Tombstones.test: markRemoved, the remover's REMOVED CAS (its CAS loop is
\* atomic by (a)), the linearization point of the removal of this message.
removeMatching_markRemoved(t) ==
  /\ pc[t] = "tTest" /\ Op[t] = "remove"
  /\ LET m == T[t].cur IN
       IF ~removed[m]
         THEN /\ removed' = [removed EXCEPT ![m] = TRUE]
              /\ T' = [T EXCEPT ![t].won = <<m>> \o @]   \* m.nextFree = head; head = m
         ELSE UNCHANGED <<removed, T>>
  /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
  /\ UNCHANGED <<top, next, ticket, when, freelist>> /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>

\* hasMatching's visitor: !isRemoved(m), one read of the flags; a live match
\* ends the traversal with true.
hasMatching_isRemoved(t) ==
  /\ pc[t] = "tTest" /\ Op[t] = "has"
  /\ IF ~removed[T[t].cur]
       THEN T' = [T EXCEPT ![t] = [Returned(t) EXCEPT !.found = TRUE]] /\ pc' = [pc EXCEPT ![t] = "done"]
       ELSE pc' = [pc EXCEPT ![t] = "tAdvance"] /\ UNCHANGED T
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>

traverse_advance(t) ==
  /\ pc[t] = "tAdvance"
  /\ T' = [T EXCEPT ![t].cur = next[T[t].cur]]
  /\ pc' = [pc EXCEPT ![t] = "tVisit"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>

\* Re-read top; if it moved, walk the new segment down to the old top's
\* ticket. The last read (top stable) is the traversal's linearization point.
traverse_recheck(t) ==
  /\ pc[t] = "tRecheck"
  /\ IF top = T[t].top
       THEN pc' = [pc EXCEPT ![t] = AfterTraverse(t)] /\ T' = [T EXCEPT ![t] = Returned(t)]
       ELSE /\ T' = [T EXCEPT ![t].floor = TicketOf(T[t].top), ![t].top = top, ![t].cur = top,
                              ![t].seen = Seen(t)]
            /\ pc' = [pc EXCEPT ![t] = "tVisit"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>

\* releasePayload of every message won, then pushFreelist: { f = freelist;
\* tail.nextFree = f; CAS(f, head) } retried is one atomic push of the chain
\* by reason (a). A removed barrier may have held the Looper back:
\* removeSyncBarrier wakes it.
removeMatching_pushFreelist(t) ==
  /\ pc[t] = "rFree"
  /\ T' = releasePayload(t)
  /\ freelist' = T[t].won \o freelist
  /\ pc' = [pc EXCEPT ![t] = IF WonBy(t) \cap Barriers # {} THEN "signal" ELSE "done"]
  /\ UNCHANGED <<top, next, ticket, when, removed>> /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>

traverse(t) == \/ traverse_readTop(t) \/ traverse_visit(t) \/ removeMatching_markRemoved(t)
               \/ hasMatching_isRemoved(t) \/ traverse_advance(t) \/ traverse_recheck(t)
               \/ removeMatching_pushFreelist(t)

-----------------------------------------------------------------------------
(* The Looper: DeliQueue.next() = loop { now = clock; takeDueOrNull(now);   *)
(* teardown if quitSeen; sleep }, takeDueOrNull = loop { sweep;             *)
(* drainFreelist; dropOnQuit once; firstDeliverable; claim; unlink }.       *)

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
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now>> /\ UNCHANGED <<prev, swept, heap, deferred>>
  /\ UNCHANGED <<threadVars, ghostVars>>

\* One node m of the walk: read m.next (only the Looper writes next after
\* publication, and never in the unswept segment) and m.flags (the one racy
\* read); write n.prev = m; note the sentinel, else heap m unless REMOVED. At
\* swept the walk ends: swept = t, then the deferred unlink is spliced.
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
            /\ UNCHANGED <<prev, heap>>
       ELSE LET m == L.cur
                n == next[m] IN
            /\ prev' = IF n # Nil THEN linkBack(n, m) ELSE prev
            /\ IF isQuitSentinel(m)
                 THEN L' = [L EXCEPT !.cur = n, !.quitSeen = TRUE] /\ UNCHANGED heap
                 ELSE /\ heap' = IF ~removed[m] THEN heap \cup {m} ELSE heap
                      /\ L' = [L EXCEPT !.cur = n]
            /\ UNCHANGED <<swept, deferred>>
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, threadVars, ghostVars>>

sweep == sweep_readTop \/ sweep_step

\* 3. drainFreelist: if freelist is not null, exchange it with null. The
\* null test and the exchange are one step: between them freelist can only
\* grow (only the Looper empties it). Then sweep, so the chain is swept.
drainFreelist_exchange ==
  /\ L.pc = "drain"
  /\ freelist' = <<>>
  /\ L' = IF freelist = <<>> THEN [L EXCEPT !.pc = "dropOnQuit"]
          ELSE [L EXCEPT !.chain = freelist, !.ret = "drainNode", !.pc = "sweep"]
  /\ UNCHANGED <<top, next, ticket, when, removed>> /\ UNCHANGED <<wakeVars, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

\* For each chained node: out of its heap (if heapIndex >= 0), then unlink.
drainFreelist_node ==
  /\ L.pc = "drainNode"
  /\ IF L.chain = <<>>
       THEN L' = [L EXCEPT !.pc = "dropOnQuit"] /\ UNCHANGED heap
       ELSE /\ heap' = heap \ {Head(L.chain)}
            /\ L' = [L EXCEPT !.target = Head(L.chain), !.chain = Tail(L.chain),
                              !.uret = "drainNode", !.pc = "unlink"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now>> /\ UNCHANGED <<prev, swept, deferred>>
  /\ UNCHANGED <<threadVars, ghostVars>>

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
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now>> /\ UNCHANGED <<prev, swept, heap>>
  /\ UNCHANGED <<threadVars, ghostVars>>

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
  /\ UNCHANGED <<top, ticket, when, removed, freelist>> /\ UNCHANGED <<wakeVars, now>>
  /\ UNCHANGED <<swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

unlink == unlink_check \/ unlink_splice

\* 8. dropOnQuit / dropFrom (once, when the sweep has met the sentinel): every
\* heap message, or (quitSafely) every one with when > sentinel.when:
\* DroppedByQuit; for each: out of the heap, the Looper's REMOVED CAS, unlink
\* if it won. One message m per step, in any order: dropFrom goes through the
\* sync heap, then the async heap, each in array order, which the spec does
\* not fix. m = Nil is the step that drops nothing and goes on to deliver
\* (none is left, or there is no quit to handle). m is a parameter so that a
\* trace can name the message (trace validation, issue 14).
takeDueOrNull_dropOnQuitAt(m) ==
  /\ L.pc = "dropOnQuit"
  /\ LET D == {x \in heap : DroppedByQuit(x)} IN
       IF ~L.quitSeen \/ L.quitDropped \/ D = {}
         THEN /\ m = Nil
              /\ L' = [L EXCEPT !.quitDropped = L.quitSeen, !.pc = "deliver"]
              /\ UNCHANGED <<removed, heap, dropped>>
         ELSE /\ m \in D
              /\ heap' = heap \ {m}
              /\ IF ~removed[m]
                   THEN /\ removed' = [removed EXCEPT ![m] = TRUE]
                        /\ dropped' = dropped \cup {m}
                        /\ L' = [L EXCEPT !.target = m, !.uret = "dropOnQuit", !.pc = "unlink"]
                   ELSE UNCHANGED <<removed, dropped, L>>
  /\ UNCHANGED <<top, next, ticket, when, freelist>> /\ UNCHANGED <<wakeVars, now>>
  /\ UNCHANGED <<prev, swept, deferred>> /\ UNCHANGED <<threadVars, dcount, lastPost>>

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

\* resolve's walk from top down to claimTop finds the sentinel, and it drops c.
QuitOwns(c) == QuitPushed /\ ticket[Quit] > TicketOf(L.top) /\ DroppedByQuit(c)

\* 7. deliver: firstDeliverable; if due, out of the heap and claimForDelivery:
\* the CAS that reserves c unless REMOVED (RESERVED, claimTop = swept), then
\* resolve, which reads top: if the quit sentinel was pushed after the sweep
\* (its ticket above claimTop's) and its mode drops c, the sentinel owns c
\* (REMOVED, removedBy = sentinel): dropIfQuitOwns unlinks it and
\* takeDueOrNull loops (sweeps again without reading the clock); otherwise c
\* is delivered, that read of top being the delivery's linearization point:
\* unlink and return it. If the CAS lost, a remover owns c: loop. Otherwise
\* record nextDeadline and the blocking barrier, and tear down or sleep.
\* Reserve and resolve are one step here: until the resolution the
\* reservation is invisible to every other thread of this spec (a RESERVED
\* message reads as not removed to hasMessages, a remover meeting it resolves
\* it the same way first, the first resolution deciding, and nobody treats it
\* as gone), so the reservation is a right mover up to the resolution's read
\* of top; the only owner node here is the sentinel, which stays on top once
\* pushed. spec/DeliQueueRemoval.tla has reserve and resolve as two steps,
\* with the removal descriptors as owners.
takeDueOrNull_deliver ==
  /\ L.pc = "deliver"
  /\ LET c == FirstDeliverable(heap) IN
       IF IsDue(c)
         THEN /\ heap' = heap \ {c}
              /\ IF claimForDelivery(c)
                   THEN /\ removed' = [removed EXCEPT ![c] = TRUE]
                        /\ IF QuitOwns(c)
                             THEN /\ dropped' = dropped \cup {c}
                                  /\ L' = [L EXCEPT !.target = c, !.uret = "take", !.pc = "unlink"]
                                  /\ UNCHANGED dcount
                             ELSE /\ dcount' = [dcount EXCEPT ![c] = @ + 1]
                                  /\ L' = [L EXCEPT !.target = c, !.uret = "loop", !.pc = "unlink"]
                                  /\ UNCHANGED dropped
                   ELSE /\ L' = [L EXCEPT !.pc = "take"]
                        /\ UNCHANGED <<removed, dcount, dropped>>
         ELSE /\ L' = [L EXCEPT !.dl = IF c = Nil THEN INF ELSE when[c],
                                !.bar = BlockingBarrier(heap),
                                !.pc = IF L.quitSeen THEN "teardown" ELSE "sleep"]
              /\ UNCHANGED <<heap, removed, dcount, dropped>>
  /\ UNCHANGED <<top, next, ticket, when, freelist>> /\ UNCHANGED <<wakeVars, now>>
  /\ UNCHANGED <<prev, swept, deferred>> /\ UNCHANGED <<threadVars, lastPost>>

takeDueOrNull == takeDueOrNull_dropOnQuit \/ takeDueOrNull_deliver

\* 6. sleep(deadline, barrier): sleepBarrier = barrier, then publish ASLEEP
\* (volatile writes; the pair is one step since wakers read the word first) ...
sleep_publish ==
  /\ L.pc = "sleep"
  /\ waitWord' = [asleep |-> TRUE, deadline |-> L.dl, barrier |-> L.bar]
  /\ L' = [L EXCEPT !.pc = "recheckTop"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeRefs, permit, resource, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

\* ... re-read top (the Looper's half of the Dekker pair) ...
sleep_recheckTop ==
  /\ L.pc = "recheckTop"
  /\ L' = [L EXCEPT !.pc = IF top = swept THEN "recheckFree" ELSE "awake"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

\* ... and freelist ...
sleep_recheckFree ==
  /\ L.pc = "recheckFree"
  /\ L' = [L EXCEPT !.pc = IF freelist = <<>> THEN "park" ELSE "awake"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

\* ... park until the deadline or a permit (consumed) ... A park with a
\* deadline (parkNanos) measures its duration on System.nanoTime, not on the
\* queue's Clock, and LockSupport may return spuriously: it may return at any
\* time without a permit (left as it is). Only a park without deadline
\* needs the permit. Either way the Looper writes AWAKE and loops, checking
\* everything again.
sleep_park ==
  /\ L.pc = "park"
  /\ \/ permit /\ permit' = FALSE
     \/ L.dl <= MaxTime /\ UNCHANGED permit
  /\ L' = [L EXCEPT !.pc = "awake"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<waitWord, wakeRefs, resource, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

\* ... and write AWAKE; next() loops.
sleep_awake ==
  /\ L.pc = "awake"
  /\ waitWord' = Awake
  /\ L' = [L EXCEPT !.pc = "loop", !.dl = INF, !.bar = Nil]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeRefs, permit, resource, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

sleep == sleep_publish \/ sleep_recheckTop \/ sleep_recheckFree \/ sleep_park \/ sleep_awake

\* 5. teardown (Looper, once, after quit): CAS the TEARDOWN bit in (atomic
\* by (a)); while wakeRefs != TEARDOWN park; free the resource. The wait
\* loop reads wakeRefs again (teardown_check) rather than use the CAS's
\* witness, as the code does.
teardown_set ==
  /\ L.pc = "teardown"
  /\ wakeRefs' = [wakeRefs EXCEPT !.teardown = TRUE]
  /\ L' = [L EXCEPT !.pc = "tdCheck"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<waitWord, permit, resource, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

teardown_check ==
  /\ L.pc = "tdCheck"
  /\ L' = [L EXCEPT !.pc = IF wakeRefs.count = 0 THEN "free" ELSE "tdPark"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

teardown_park ==
  /\ L.pc = "tdPark"
  /\ permit
  /\ permit' = FALSE
  /\ L' = [L EXCEPT !.pc = "tdCheck"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<waitWord, wakeRefs, resource, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

teardown_free ==
  /\ L.pc = "free"
  /\ resource' = "freed"
  /\ L' = [L EXCEPT !.pc = "exit"]
  /\ UNCHANGED sharedVars /\ UNCHANGED <<waitWord, wakeRefs, permit, now>>
  /\ UNCHANGED <<prev, swept, heap, deferred>> /\ UNCHANGED <<threadVars, ghostVars>>

teardown == teardown_set \/ teardown_check \/ teardown_park \/ teardown_free

\* The clock (ManualClock.advance), between any two steps.
tick ==
  /\ now < MaxTime
  /\ now' = now + 1
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, looperVars, threadVars, ghostVars>>

-----------------------------------------------------------------------------
(* Threads, Next, Spec *)

Producer(m) == push(m) \/ signalIfEarlier(m) \/ wake(m)
Quitter == quit \/ signalIfEarlier(QuitT) \/ wake(QuitT)
Traverser(t) == traverse(t) \/ signalIfEarlier(t) \/ wake(t)
Looper == sweep \/ drainFreelist \/ unlink \/ takeDueOrNull \/ sleep \/ teardown

Next == \/ \E m \in Msgs : Producer(m)
        \/ Quitter
        \/ \E t \in Traversers : Traverser(t)
        \/ Looper
        \/ tick

\* Every thread is scheduled (weak fairness); the clock need not advance.
Fairness == /\ \A m \in Msgs : WF_vars(Producer(m))
            /\ WF_vars(Quitter)
            /\ \A t \in Traversers : WF_vars(Traverser(t))
            /\ WF_vars(Looper)

Spec == Init /\ [][Next]_vars /\ Fairness

-----------------------------------------------------------------------------
(* Obligations (docs/design.md). *)

\* obligation: no message is delivered twice; none is both delivered and removed (or dropped)
ExactlyOnce == \A m \in Msgs : /\ dcount[m] <= 1
                               /\ dcount[m] = 1 => m \notin Won \cup dropped
                               /\ m \in dropped => m \notin Won
                               /\ \A t, u \in Removers : t # u => m \notin WonBy(t) \cap WonBy(u)

\* Pending messages stay reachable from top; at teardown a message that is
\* neither delivered, removed nor dropped must be one the Looper held in its
\* heap and abandoned (blocked behind a barrier, or a barrier).
\* obligation: every pushed message is delivered, removed, dropped by quit, or pending and reachable from top
NoLostMessage == \A m \in Msgs : Pushed(m) /\ ~removed[m] =>
                    /\ m \in Linked
                    /\ L.pc = "exit" => m \in heap

\* Each delivered message is the least (when, insertSeq) among due, swept,
\* unblocked messages (an action property, checked at the delivery step).
Swept(m) == Pushed(m) /\ ticket[m] <= TicketOf(L.top)
Blocking(b) == Swept(b) /\ (~removed[b] \/ b \in heap)   \* the Looper honours a removed barrier until drained
Unblocked(m) == /\ Swept(m) /\ ~removed[m] /\ m \notin Barriers
                /\ ~(Kind[m] = "sync" /\ \E b \in Barriers : Blocking(b) /\ Less(b, m))
\* obligation: each delivered message is the least (when, insertSeq) among due, swept, unblocked messages
DeliveryOrder == [][\A m \in Msgs : dcount'[m] > dcount[m] =>
                      /\ Unblocked(m) /\ when[m] <= now
                      /\ \A x \in Msgs \ {m} : Unblocked(x) => Less(m, x)]_vars

\* obligation: a message is in a heap only if swept and linked; a live swept message is in a heap
HeapStackConsistent ==
  /\ \A m \in heap : /\ m \in Linked /\ ticket[m] <= TicketOf(L.top)
                     /\ removed[m] => m \in Won          \* REMOVED in a heap: a remover's, not yet drained
  /\ \A m \in Msgs : Pushed(m) /\ ~removed[m] /\ SweptNode(m) => m \in heap

\* obligation: for every swept linked node m with m.next = n: n.prev = m
BackLinksConsistent == \A m \in Linked : SweptNode(m) /\ next[m] # Nil => prev[next[m]] = m

Published(n) == IF n = Quit THEN QuitPushed ELSE Pushed(n)
\* obligation: a cursor only visits published nodes, and tickets strictly decrease along next (walks end)
TraversalSafe == /\ \A t \in Traversers : T[t].cur = Nil \/ Published(T[t].cur)
                 /\ \A n \in Nodes : Published(n) /\ next[n] # Nil =>
                        Published(next[n]) /\ ticket[next[n]] < ticket[n]

\* The step that ends t's traversal with its last read of top (stable).
EndsTraversal(t) == pc[t] \in {"tStart", "tRecheck"} /\ pc'[t] \in {"rFree", "done"}

\* What removeMatching guarantees as a whole: at its linearization point (the
\* last, stable read of top) no message it matches is live: each was taken by
\* it or by another thread. A sequence of atomic single removals that misses
\* nothing; not atomic against a concurrent Looper when it matches several
\* messages (docs/design.md), hence Abs's one-at-a-time Remove.
\* obligation: a removal leaves no matching message live at its last read of top
TraversalComplete == [][\A t \in Removers : EndsTraversal(t) => LiveNow(Pred[t]) = {}]_vars

\* hasMessages is linearizable: true at the read of top that began the pass
\* in which it found a live match (the match was live then, the abstract
\* queue held it), false at its last, stable read of top (nothing live).
\* obligation: hasMessages answers as the abstract queue does at an instant of the call
HasMessagesLinearizable ==
  [][\A t \in Askers : /\ pc[t] = "tTest" /\ T'[t].found => T[t].cur \in T[t].seen
                       /\ EndsTraversal(t) => LiveNow(Pred[t]) = {}]_vars

\* obligation: a message tombstoned for a remover holds no payload once that removal has returned
PayloadReleased == \A t \in Removers : pc[t] = "done" /\ T[t].won # <<>> => T[t].released

\* obligation: the wake resource is never signalled after it is freed, nor freed while in use
NoUseAfterTeardown == \A t \in Threads : pc[t] \in {"wSignal", "wRelease"} => resource = "live"

\* A wake is on its way: a waker between its push and its wake, or a remover
\* that has removed a barrier and not yet reached its wake.
WakePending == \/ \E t \in Threads : pc[t] \in {"signal", "wake", "wSignal"}
               \/ \E t \in Removers : WonBy(t) \cap Barriers # {} /\ pc[t] \notin {"done", "wRelease"}
\* A sync message held back by a barrier that is not removed: a removed
\* barrier stops blocking at its removal, not when the Looper drains it.
LiveBlocked(m) == Kind[m] = "sync" /\ \E b \in Barriers : Pushed(b) /\ ~removed[b] /\ Less(b, m)
\* obligation: the Looper never sleeps past a due, unblocked message without a pending wake
NoLostWakeup == L.pc = "park" /\ ~permit =>
                  \/ WakePending
                  \/ \A m \in Msgs : Pushed(m) /\ ~removed[m] /\ m \notin Barriers /\ ~LiveBlocked(m)
                                      => when[m] >= L.dl

\* obligation: once the quit sentinel is on top, no push succeeds
NoPushAfterQuit == QuitPushed => \A m \in Msgs : Pushed(m) => ticket[m] < ticket[Quit]

\* obligation: after quit the Looper eventually tears down (weak fairness)
QuitTerminates == QuitPushed ~> L.pc = "exit"

Pending == {m \in Msgs : pc[m] \in {"push", "pushCas"}}
\* obligation: some pending push eventually completes (weak fairness)
PushLockFree == \A k \in 1..Cardinality(Msgs) :
                  Cardinality(Pending) = k ~> Cardinality(Pending) < k

ClosedPcs == {"teardown", "tdCheck", "tdPark", "free", "exit"}
DueUnblocked(m) == Pushed(m) /\ ~removed[m] /\ m \notin Barriers /\ when[m] <= now /\ ~LiveBlocked(m)
\* Delivery is live: a due message that no barrier holds back is eventually
\* delivered, removed or dropped (all set REMOVED), unless a barrier posted
\* later holds it back or the Looper has closed after quit (it abandons what
\* is left then; Refinement's Close says when it may).
\* obligation: every due, unblocked, unremoved message is eventually delivered (weak fairness)
EventualDelivery == \A m \in Msgs : DueUnblocked(m) ~> (removed[m] \/ LiveBlocked(m) \/ L.pc \in ClosedPcs)

-----------------------------------------------------------------------------
(* Refinement: the mapping onto MessageQueueAbs. Linearization points: the  *)
(* push CAS (Enqueue), the sentinel push (Quit), a remover's REMOVED CAS    *)
(* (Remove), the Looper's REMOVED CAS in dropOnQuit (Drop) and its          *)
(* reservation as resolved at deliver (Deliver, or Drop when the quit owns  *)
(* the message), the sweep's read of top (Observe; with the clock read at   *)
(* "loop"), the Looper's decision to tear down (Close), the free            *)
(* (Terminate). No prophecy is needed: every linearization point is a step  *)
(* of the thread concerned, because the abstract queue states its guarantee *)
(* against the consumer's view (what it has seen, its clock reading, the    *)
(* removed barriers it still honours) or against the quit (its clock        *)
(* reading, after every accepted post's).                                   *)

AStatus == [m \in Msgs |->
              IF pc[m] = "failed" THEN "rejected"
              ELSE IF ~Pushed(m) THEN "new"
              ELSE IF dcount[m] > 0 THEN "delivered"
              ELSE IF m \in dropped THEN "dropped"
              ELSE IF m \in Won THEN "removed"
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
         aretiring <- {b \in heap \cap Barriers : removed[b]},
         aquit <- QuitPushed,
         amode <- qmode,
         Modes <- QModes,
         aclosed <- L.pc \in ClosedPcs,
         aterm <- resource = "freed"

\* obligation: every behaviour of DeliQueue is a behaviour of the abstract queue MessageQueueAbs
Refinement == Abs!ASpec
\* Its safety part, for models too large for liveness checking.
RefinementSafety == Abs!ASafety

-----------------------------------------------------------------------------
THEOREM Spec => [](TypeOK /\ ExactlyOnce /\ NoLostMessage /\ HeapStackConsistent /\ BackLinksConsistent
                   /\ TraversalSafe /\ NoUseAfterTeardown /\ NoLostWakeup /\ NoPushAfterQuit
                   /\ PayloadReleased)
THEOREM Spec => DeliveryOrder /\ TraversalComplete /\ HasMessagesLinearizable
THEOREM Spec => QuitTerminates /\ PushLockFree /\ EventualDelivery
THEOREM Spec => Refinement
=============================================================================
