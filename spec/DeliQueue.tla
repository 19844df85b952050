------------------------------ MODULE DeliQueue ------------------------------
(***************************************************************************)
(* DeliQueue: Android 17's lock-free MessageQueue, step by step as in      *)
(* impl/src/main/java/org/deliqueue/DeliQueue.java. Names follow           *)
(* docs/design.md: an action named m_x is step x of the Java method m, and *)
(* m == the disjunction of its steps. Obligations carry the IDs of the     *)
(* design's table.                                                         *)
(*                                                                         *)
(* Threads: one producer per message (enqueue / postSyncBarrier), one      *)
(* quitter (quit / quitSafely), one remover (removeMessages /              *)
(* removeSyncBarrier over the set Matching), the Looper (next()), and the  *)
(* clock (tick).                                                           *)
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
(* is a small integer clock `now` in 0..MaxTime advanced by tick; `when`   *)
(* is a small integer; MaxTime + 1 stands for "no deadline". Payload       *)
(* matching is abstracted by the constant set Matching. Idle handlers and  *)
(* poll() are not modelled.                                                *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS Msgs,     \* message identities, one producer thread each
          Kind,     \* [Msgs -> {"sync", "async", "barrier"}]: Message.target == null / isAsynchronous()
          When,     \* [Msgs -> 0..MaxTime]: the requested when of sync/async messages (barriers: now at posting)
          Matching, \* the messages the remover's predicate matches (removeMessages / removeSyncBarrier)
          MaxTime,  \* bound of the clock
          Modes,    \* quit modes the quitter may use: subset of {"quit", "quitSafely"}
          Quit,     \* the quit sentinel (a Message with FLAG_QUIT_SENTINEL)
          Nil,      \* null
          QuitT,    \* the quitter thread
          RemT      \* the remover thread

Nodes == Msgs \cup {Quit}
Threads == Msgs \cup {QuitT, RemT}
INF == MaxTime + 1                      \* MessageQueue.NO_DEADLINE / MAX_DEADLINE
Barriers == {m \in Msgs : Kind[m] = "barrier"}
Awake == [asleep |-> FALSE, deadline |-> INF, blocked |-> FALSE]   \* DeliQueue.AWAKE

ASSUME /\ Quit \notin Msgs /\ Nil \notin Nodes /\ Matching \subseteq Msgs
       /\ Kind \in [Msgs -> {"sync", "async", "barrier"}] /\ When \in [Msgs -> 0..MaxTime]
       /\ Modes \subseteq {"quit", "quitSafely"} /\ Modes # {}

VARIABLES
  \* ---- shared memory (Java fields) ----
  top,       \* DeliQueue.top
  next,      \* Message.next
  ticket,    \* Message.ticket
  when,      \* Message.when (written before the push; when[Quit]: sentinel.when = Clock.uptimeMillis() at quitQueue)
  removed,   \* Message.flags & FLAG_REMOVED
  freelist,  \* DeliQueue.freelist with its Message.nextFree chain, as a sequence
  waitWord,  \* DeliQueue.waitWord: [asleep, deadline, blocked] (ASLEEP / BLOCKED bits, deadline << 2)
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
  pw,        \* [Threads -> waitWord value read by signalIfEarlier / removeSyncBarrier]
  qmode,     \* the sentinel's arg1: "quit" or "quitSafely" (fixed per behaviour)
  R,         \* the remover's locals: [t: top of the pass, floor, cur, won, quit: traverse's quit (sentinel passed),
             \* released: DeliQueue.releasePayload cleared obj/callback/target of what it won]
  \* ---- history (ghost) ----
  dcount,    \* [Msgs -> Nat]: how often each message was delivered
  dropped,   \* messages the Looper dropped on quit (its REMOVED CAS won)
  snaps      \* the sets of live matching messages seen during removeMatching (TraversalComplete)

looperVars == <<prev, swept, heap, deferred, L>>
wakeVars == <<waitWord, wakeRefs, permit, resource>>
vars == <<top, next, ticket, when, removed, freelist, waitWord, wakeRefs, permit, resource, now,
          prev, swept, heap, deferred, L, pc, pw, qmode, R, dcount, dropped, snaps>>

-----------------------------------------------------------------------------
(* Helpers *)

TicketOf(n) == IF n = Nil THEN 0 ELSE ticket[n]
InsertSeq(m) == IF when[m] = 0 THEN -ticket[m] ELSE ticket[m]        \* Message.insertSeq
Less(x, y) == \/ when[x] < when[y]                                   \* MessageHeap.compare < 0
              \/ when[x] = when[y] /\ InsertSeq(x) < InsertSeq(y)
MinOf(S) == CHOOSE x \in S : \A y \in S \ {x} : Less(x, y)
SyncSide(H) == {x \in H : Kind[x] # "async"}
AsyncSide(H) == {x \in H : Kind[x] = "async"}
\* DeliQueue.firstDeliverable: blockedByBarrier and the head to deliver.
BlockedBy(H) == SyncSide(H) # {} /\ Kind[MinOf(SyncSide(H))] = "barrier"
FirstDeliverable(H) ==
    IF BlockedBy(H) \/ SyncSide(H) = {}
    THEN IF AsyncSide(H) = {} THEN Nil ELSE MinOf(AsyncSide(H))
    ELSE MinOf(H \ {b \in H : Kind[b] = "barrier"})

Range(s) == {s[i] : i \in DOMAIN s}
RECURSIVE ReachFrom(_, _)
ReachFrom(n, k) == IF n = Nil \/ k = 0 THEN {} ELSE {n} \cup ReachFrom(next[n], k - 1)
Linked == ReachFrom(top, Cardinality(Nodes) + 1)       \* reachable from top along next

Pushed(m) == pc[m] \notin {"push", "pushCas", "failed"} \* m's push CAS succeeded
QuitPushed == pc[QuitT] \notin {"quit", "quitCas"}
Won == Range(R.won) \cap Msgs                            \* messages the remover's REMOVED CAS won
SweptNode(n) == n \in Linked /\ ticket[n] <= TicketOf(swept)
\* DeliQueue.droppedByQuit(sentinel, m): quit drops everything, quitSafely what is
\* due after the uptime of the call (sentinel.when), not the Looper's clock reading.
DroppedByQuit(m) == qmode = "quit" \/ when[m] > when[Quit]

-----------------------------------------------------------------------------
(* Hooks: definitions the mutant models (MC_*.tla) override in their .cfg.  *)

Matches(n) == n \in Matching            \* the remover's predicate (never the sentinel)
SentinelBornRemoved == TRUE             \* quitQueue: sentinel.flags includes FLAG_REMOVED
SweepNotesQuit(n) == n = Quit           \* sweep: isQuitSentinel(m) is tested before isRemoved(m)
SweepStopsAt(n) == FALSE                \* sweep walks through the sentinel
TraverseNotesQuit(n) == n = Quit        \* traverse: isQuitSentinel(m) is tested before the visitor
LinkBack(n, m) == [prev EXCEPT ![n] = m]  \* DeliQueue.linkBack
ClaimWins(c) == ~removed[c]             \* DeliQueue.claimForDelivery = markRemoved
FlagAfterDelivery == TRUE               \* a delivered message keeps REMOVED (retired, never pooled)
NextAfterUnlink(n) == next[n]           \* splice keeps m.next
TeardownWaits == TRUE                   \* teardown parks until wakeRefs == TEARDOWN
SleepRechecksTop == TRUE                \* sleep re-reads top after publishing ASLEEP
RepeatUntilStable == TRUE               \* traverse repeats until top is stable
ReleasesPayload == TRUE                 \* the remover clears the payload of what it won before handing it over

-----------------------------------------------------------------------------
LooperInit == [pc |-> "loop",   \* label
               ret |-> "drain", \* where sweep returns
               uret |-> "loop", \* where unlink / splice return
               top |-> Nil,     \* sweep's read of top
               cur |-> Nil,     \* sweep's cursor
               chain |-> <<>>,  \* drainFreelist's chain
               target |-> Nil,  \* the message to unlink
               now |-> 0,       \* next(): now = clock.uptimeMillis()
               dl |-> INF,      \* nextDeadline
               blk |-> FALSE,   \* blockedByBarrier
               quitSeen |-> FALSE, quitDropped |-> FALSE]

\* obligation: every variable has its type
TypeOK ==
  /\ top \in Nodes \cup {Nil}
  /\ next \in [Nodes -> Nodes \cup {Nil}] /\ prev \in [Nodes -> Nodes \cup {Nil}]
  /\ ticket \in [Nodes -> Nat] /\ when \in [Nodes -> 0..MaxTime]
  /\ removed \in [Nodes -> BOOLEAN]
  /\ freelist \in Seq(Nodes)
  /\ waitWord \in [asleep : BOOLEAN, deadline : 0..INF, blocked : BOOLEAN]
  /\ wakeRefs \in [count : 0..Cardinality(Threads), teardown : BOOLEAN]
  /\ permit \in BOOLEAN /\ resource \in {"live", "freed"} /\ now \in 0..MaxTime
  /\ swept \in Nodes \cup {Nil} /\ heap \subseteq Msgs /\ deferred \in Nodes \cup {Nil}
  /\ L.now \in 0..MaxTime /\ L.dl \in 0..INF /\ L.chain \in Seq(Nodes)
  /\ pc \in [Threads -> STRING] /\ qmode \in Modes
  /\ R.cur \in Nodes \cup {Nil} /\ R.won \in Seq(Nodes) /\ R.quit \in BOOLEAN /\ R.released \in BOOLEAN
  /\ dcount \in [Msgs -> Nat] /\ dropped \subseteq Msgs /\ snaps \subseteq SUBSET Msgs

Init ==
  /\ top = Nil /\ next = [n \in Nodes |-> Nil] /\ ticket = [n \in Nodes |-> 0]
  /\ when = [n \in Nodes |-> IF n = Quit \/ Kind[n] = "barrier" THEN 0 ELSE When[n]]   \* new Message(): when = 0
  /\ removed = [n \in Nodes |-> FALSE] /\ freelist = <<>>
  /\ waitWord = Awake /\ wakeRefs = [count |-> 0, teardown |-> FALSE]
  /\ permit = FALSE /\ resource = "live" /\ now = 0
  /\ prev = [n \in Nodes |-> Nil] /\ swept = Nil /\ heap = {} /\ deferred = Nil
  /\ L = LooperInit
  /\ pc = [t \in Threads |-> IF t \in Msgs THEN "push" ELSE IF t = QuitT THEN "quit" ELSE "rStart"]
  /\ pw = [t \in Threads |-> Awake]
  /\ qmode \in Modes
  /\ R = [t |-> Nil, floor |-> 0, cur |-> Nil, won |-> <<>>, quit |-> FALSE, released |-> FALSE]
  /\ dcount = [m \in Msgs |-> 0] /\ dropped = {} /\ snaps = {}

-----------------------------------------------------------------------------
(* 1. push (any thread): DeliQueue.push, enqueueClaimed, postSyncBarrier.   *)

\* Read top; fail on the sentinel; write m.next, m.ticket (and m.when) into
\* the unpublished m: private until the CAS publishes it.
push_readTop(m) ==
  /\ pc[m] = "push"
  /\ IF top = Quit
       THEN /\ pc' = [pc EXCEPT ![m] = "failed"]
            /\ UNCHANGED <<next, ticket, when>>
       ELSE /\ next' = [next EXCEPT ![m] = top]
            /\ ticket' = [ticket EXCEPT ![m] = TicketOf(top) + 1]
            /\ when' = IF Kind[m] = "barrier" THEN [when EXCEPT ![m] = now] ELSE when
            /\ pc' = [pc EXCEPT ![m] = "pushCas"]
  /\ UNCHANGED <<top, removed, freelist, wakeVars, now, looperVars, pw, qmode, R, dcount, dropped>>

\* CAS top from the value read (m.next) to m; on failure retry.
push_casTop(m) ==
  /\ pc[m] = "pushCas"
  /\ IF top = next[m]
       THEN /\ top' = m
            /\ pc' = [pc EXCEPT ![m] = IF Kind[m] = "barrier" THEN "done" ELSE "signal"]
       ELSE /\ pc' = [pc EXCEPT ![m] = "push"]
            /\ UNCHANGED top
  /\ UNCHANGED <<next, ticket, when, removed, freelist, wakeVars, now, looperVars, pw, qmode, R, dcount, dropped>>

push(m) == push_readTop(m) \/ push_casTop(m)

-----------------------------------------------------------------------------
(* 6. wait word, waker side: DeliQueue.signalIfEarlier (producers, and      *)
(* quitQueue with when = Long.MIN_VALUE) and the loop at the end of         *)
(* removeSyncBarrier (remover).                                             *)

\* Whether the waker t wants the Looper that published w awake.
WantsWake(t, w) ==
  IF t \in Msgs
  THEN /\ w.asleep /\ when[t] < w.deadline
       /\ ~(w.blocked /\ Kind[t] = "sync" /\ when[t] >= now)
  ELSE IF t = QuitT THEN w.asleep
  ELSE w.asleep /\ w.blocked

\* The loop { w = waitWord; if (!wants(w)) return; if (CAS(w, AWAKE)) wake } is
\* one atomic step by reason (a) (a failed CAS only re-reads); the clock read
\* inside wants(w) commutes by reason (c).
signalIfEarlier_cas(t) ==
  /\ pc[t] = "signal"
  /\ IF WantsWake(t, waitWord)
       THEN waitWord' = Awake /\ pc' = [pc EXCEPT ![t] = "wake"]
       ELSE pc' = [pc EXCEPT ![t] = "done"] /\ UNCHANGED waitWord
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeRefs, permit, resource, now,
                 looperVars, pw, qmode, R, dcount, dropped>>

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
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, waitWord, permit, resource, now,
                 looperVars, pw, qmode, R, dcount, dropped>>

\* signalWakeResource: uses the resource; the wake is a sticky permit.
wake_signal(t) ==
  /\ pc[t] = "wSignal"
  /\ permit' = TRUE
  /\ pc' = [pc EXCEPT ![t] = "wRelease"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, waitWord, wakeRefs, resource, now,
                 looperVars, pw, qmode, R, dcount, dropped>>

\* releaseWakeRef: decrement; the last one out after TEARDOWN unparks the
\* Looper. Joined into one step: the Looper re-reads wakeRefs before every
\* park, and a permit is sticky, so where the unpark falls does not matter.
wake_release(t) ==
  /\ pc[t] = "wRelease"
  /\ wakeRefs' = [wakeRefs EXCEPT !.count = @ - 1]
  /\ permit' = (permit \/ (wakeRefs.count = 1 /\ wakeRefs.teardown))
  /\ pc' = [pc EXCEPT ![t] = "done"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, waitWord, resource, now,
                 looperVars, pw, qmode, R, dcount, dropped>>

wake(t) == wake_acquire(t) \/ wake_signal(t) \/ wake_release(t)

-----------------------------------------------------------------------------
(* 8. quit (quitter): DeliQueue.quitQueue pushes the sentinel, whose flags  *)
(* (IN_USE | REMOVED | QUIT_SENTINEL), arg1 (quitSafely) and when (the      *)
(* uptime of the call) are written before the push, then                   *)
(* signalIfEarlier(Long.MIN_VALUE, true). The push is the quit's            *)
(* linearization point: from then on what DroppedByQuit names is dead for  *)
(* traversals, and the Looper drops it when its sweep meets the sentinel.  *)

\* Read top; write the unpublished sentinel's next, ticket, flags and, on the
\* first attempt only (ticket still 0: Java sets sentinel.when once, before
\* push's CAS loop), when = now. Private writes; the clock read commutes by (c).
quit_readTop ==
  /\ pc[QuitT] = "quit"
  /\ next' = [next EXCEPT ![Quit] = top]
  /\ ticket' = [ticket EXCEPT ![Quit] = TicketOf(top) + 1]
  /\ when' = IF ticket[Quit] = 0 THEN [when EXCEPT ![Quit] = now] ELSE when
  /\ removed' = [removed EXCEPT ![Quit] = SentinelBornRemoved]
  /\ pc' = [pc EXCEPT ![QuitT] = "quitCas"]
  /\ UNCHANGED <<top, freelist, wakeVars, now, looperVars, pw, qmode, R, dcount, dropped>>

quit_casTop ==
  /\ pc[QuitT] = "quitCas"
  /\ IF top = next[Quit]
       THEN top' = Quit /\ pc' = [pc EXCEPT ![QuitT] = "signal"]
       ELSE pc' = [pc EXCEPT ![QuitT] = "quit"] /\ UNCHANGED top
  /\ UNCHANGED <<next, ticket, when, removed, freelist, wakeVars, now, looperVars, pw, qmode, R, dcount, dropped>>

quit == quit_readTop \/ quit_casTop

-----------------------------------------------------------------------------
(* 3 + 4. tombstone removal with the racy traversal (remover):             *)
(* DeliQueue.removeMatching = traverse(Tombstones) + pushFreelist, then for  *)
(* a barrier removeSyncBarrier's wake. Plain reads of next, one per step.   *)

RemoverDone == IF R.won = <<>> THEN "done" ELSE "rFree"

\* traverse: the loop condition's read of top (first pass).
removeMatching_readTop ==
  /\ pc[RemT] = "rStart"
  /\ R' = [R EXCEPT !.t = top, !.cur = top, !.floor = 0]
  /\ pc' = [pc EXCEPT ![RemT] = IF top = Nil THEN RemoverDone ELSE "rVisit"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now, looperVars, pw, qmode, dcount, dropped>>

\* At cursor m: stop at null or at the floor (ticket is immutable once
\* published); the sentinel is noted (traverse's quit = m) and passed; a
\* match not dropped by a quit already passed goes to markRemoved; otherwise
\* read m.next. The sentinel's arg1 and when and m.when are immutable once
\* published, so reading them adds no shared access.
removeMatching_visit ==
  /\ pc[RemT] = "rVisit"
  /\ LET m == R.cur IN
       IF m = Nil \/ ticket[m] <= R.floor
         THEN /\ pc' = [pc EXCEPT ![RemT] = "rRecheck"] /\ UNCHANGED R
       ELSE IF TraverseNotesQuit(m)
         THEN /\ R' = [R EXCEPT !.quit = TRUE, !.cur = next[m]] /\ UNCHANGED pc
       ELSE IF Matches(m) /\ ~(R.quit /\ DroppedByQuit(m))
         THEN /\ pc' = [pc EXCEPT ![RemT] = "rMark"] /\ UNCHANGED R
         ELSE /\ R' = [R EXCEPT !.cur = next[m]] /\ UNCHANGED pc
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now, looperVars, pw, qmode, dcount, dropped>>

\* markRemoved: the remover's REMOVED CAS (its CAS loop is atomic by (a)).
\* Linearization point of the removal of this message.
markRemoved_remover ==
  /\ pc[RemT] = "rMark"
  /\ IF ~removed[R.cur]
       THEN /\ removed' = [removed EXCEPT ![R.cur] = TRUE]
            /\ R' = [R EXCEPT !.won = <<R.cur>> \o @]   \* m.nextFree = head; head = m
       ELSE UNCHANGED <<removed, R>>
  /\ pc' = [pc EXCEPT ![RemT] = "rAdvance"]
  /\ UNCHANGED <<top, next, ticket, when, freelist, wakeVars, now, looperVars, pw, qmode, dcount, dropped>>

markRemoved == markRemoved_remover

removeMatching_advance ==
  /\ pc[RemT] = "rAdvance"
  /\ R' = [R EXCEPT !.cur = next[R.cur]]
  /\ pc' = [pc EXCEPT ![RemT] = "rVisit"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now, looperVars, pw, qmode, dcount, dropped>>

\* traverse: re-read top; if it moved, walk the new segment down to the old
\* top's ticket. The last read (top stable) is removeMatching's
\* linearization point.
removeMatching_recheck ==
  /\ pc[RemT] = "rRecheck"
  /\ IF top = R.t \/ ~RepeatUntilStable
       THEN pc' = [pc EXCEPT ![RemT] = RemoverDone] /\ UNCHANGED R
       ELSE /\ R' = [R EXCEPT !.floor = TicketOf(R.t), !.t = top, !.cur = top]
            /\ pc' = [pc EXCEPT ![RemT] = "rVisit"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now, looperVars, pw, qmode, dcount, dropped>>

\* releasePayload of every message won (private writes: only its remover
\* clears them), then pushFreelist: { f = freelist; tail.nextFree = f;
\* CAS(f, head) } retried is one atomic push of the chain by reason (a).
removeMatching_pushFreelist ==
  /\ pc[RemT] = "rFree"
  /\ R' = [R EXCEPT !.released = ReleasesPayload]
  /\ freelist' = R.won \o freelist
  /\ pc' = [pc EXCEPT ![RemT] = IF Won \cap Barriers # {} THEN "signal" ELSE "done"]
  /\ UNCHANGED <<top, next, ticket, when, removed, wakeVars, now, looperVars, pw, qmode, dcount, dropped>>

removeMatching == \/ removeMatching_readTop \/ removeMatching_visit \/ markRemoved
                  \/ removeMatching_advance \/ removeMatching_recheck
                  \/ removeMatching_pushFreelist

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
       L' = [L EXCEPT !.top = top, !.cur = top, !.ret = ret,
                      !.now = IF L.pc = "loop" THEN now ELSE @,
                      !.pc = IF top = swept THEN ret ELSE "sweepWalk"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

\* One node m of the walk: read m.next (only the Looper writes next after
\* publication, and never in the unswept segment) and m.flags (the one racy
\* read); write n.prev = m; heap m unless REMOVED; note the sentinel. At
\* swept the walk ends: swept = t, then the deferred unlink is spliced.
sweep_step ==
  /\ L.pc = "sweepWalk"
  /\ IF L.cur = swept
       THEN /\ swept' = L.top
            /\ IF deferred # Nil
                 THEN /\ L' = [L EXCEPT !.target = deferred, !.uret = L.ret, !.pc = "splice"]
                      /\ deferred' = Nil
                 ELSE /\ L' = [L EXCEPT !.pc = L.ret]
                      /\ UNCHANGED deferred
            /\ UNCHANGED <<prev, heap>>
       ELSE LET m == L.cur
                n == next[m] IN
            /\ prev' = IF n # Nil THEN LinkBack(n, m) ELSE prev
            /\ heap' = IF m \in Msgs /\ ~SweepNotesQuit(m) /\ ~removed[m] THEN heap \cup {m} ELSE heap
            /\ L' = [L EXCEPT !.cur = IF SweepStopsAt(m) THEN swept ELSE n,
                              !.quitSeen = @ \/ SweepNotesQuit(m)]
            /\ UNCHANGED <<swept, deferred>>
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now, pc, pw, qmode, R, dcount, dropped>>

sweep == sweep_readTop \/ sweep_step

\* 3. drainFreelist: if freelist is not null, exchange it with null. The
\* null test and the exchange are one step: between them freelist can only
\* grow (only the Looper empties it). Then sweep, so the chain is swept.
drainFreelist_exchange ==
  /\ L.pc = "drain"
  /\ freelist' = <<>>
  /\ L' = IF freelist = <<>> THEN [L EXCEPT !.pc = "dropOnQuit"]
          ELSE [L EXCEPT !.chain = freelist, !.ret = "drainNode", !.pc = "sweep"]
  /\ UNCHANGED <<top, next, ticket, when, removed, wakeVars, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

\* For each chained node: out of its heap (if heapIndex >= 0), then unlink.
drainFreelist_node ==
  /\ L.pc = "drainNode"
  /\ IF L.chain = <<>>
       THEN L' = [L EXCEPT !.pc = "dropOnQuit"] /\ UNCHANGED heap
       ELSE /\ heap' = heap \ {Head(L.chain)}
            /\ L' = [L EXCEPT !.target = Head(L.chain), !.chain = Tail(L.chain),
                              !.uret = "drainNode", !.pc = "unlink"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now,
                 prev, swept, deferred, pc, pw, qmode, R, dcount, dropped>>

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
         THEN deferred' = m /\ L' = [L EXCEPT !.pc = L.uret]
         ELSE L' = [L EXCEPT !.ret = "splice", !.pc = "sweep"] /\ UNCHANGED deferred
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now,
                 prev, swept, heap, pc, pw, qmode, R, dcount, dropped>>

\* splice(m): p.next = m.next (the one shared write); n.prev = p and
\* m.prev = null are Looper-only. m keeps its next.
unlink_splice ==
  /\ L.pc = "splice"
  /\ LET m == L.target
         p == prev[m]
         n == next[m] IN
       /\ next' = [next EXCEPT ![p] = n, ![m] = NextAfterUnlink(m)]
       /\ prev' = IF n # Nil THEN [prev EXCEPT ![m] = Nil, ![n] = p] ELSE [prev EXCEPT ![m] = Nil]
  /\ L' = [L EXCEPT !.pc = L.uret]
  /\ UNCHANGED <<top, ticket, when, removed, freelist, wakeVars, now,
                 swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

unlink == unlink_check \/ unlink_splice

\* 8. dropOnQuit / dropFrom (once, when the sweep has met the sentinel): every
\* heap message, or (quitSafely) every one with when > sentinel.when (the
\* uptime of the quit call, not L.now): DroppedByQuit; for each: out of the
\* heap, the Looper's REMOVED CAS, unlink if it won. One message per step.
takeDueOrNull_dropOnQuit ==
  /\ L.pc = "dropOnQuit"
  /\ LET D == {m \in heap : DroppedByQuit(m)} IN
       IF ~L.quitSeen \/ L.quitDropped \/ D = {}
         THEN /\ L' = [L EXCEPT !.quitDropped = L.quitSeen, !.pc = "deliver"]
              /\ UNCHANGED <<removed, heap, dropped>>
         ELSE LET m == CHOOSE x \in D : TRUE IN
              /\ heap' = heap \ {m}
              /\ IF ~removed[m]
                   THEN /\ removed' = [removed EXCEPT ![m] = TRUE]
                        /\ dropped' = dropped \cup {m}
                        /\ L' = [L EXCEPT !.target = m, !.uret = "dropOnQuit", !.pc = "unlink"]
                   ELSE UNCHANGED <<removed, dropped, L>>
  /\ UNCHANGED <<top, next, ticket, when, freelist, wakeVars, now,
                 prev, swept, deferred, pc, pw, qmode, R, dcount>>

\* takeDueOrNull's clock once the sentinel is swept: now = max(now,
\* quitSentinel.when): what quitSafely kept is due by the quit's time, which
\* the clock has passed (else a now read before the sweep would tear down
\* over it).
DueBy == IF L.quitSeen /\ when[Quit] > L.now THEN when[Quit] ELSE L.now

\* 7. deliver: firstDeliverable; if due at DueBy, out of the heap and the
\* REMOVED CAS (claimForDelivery), the linearization point of the delivery;
\* if it won unlink and return it, else a remover owns it: loop. Otherwise
\* record nextDeadline / blockedByBarrier, and tear down or sleep.
takeDueOrNull_deliver ==
  /\ L.pc = "deliver"
  /\ LET c == FirstDeliverable(heap) IN
       IF c # Nil /\ when[c] <= DueBy
         THEN /\ heap' = heap \ {c}
              /\ IF ClaimWins(c)
                   THEN /\ removed' = [removed EXCEPT ![c] = FlagAfterDelivery]
                        /\ dcount' = [dcount EXCEPT ![c] = @ + 1]
                        /\ L' = [L EXCEPT !.target = c, !.uret = "loop", !.pc = "unlink"]
                   ELSE /\ L' = [L EXCEPT !.pc = "take"]
                        /\ UNCHANGED <<removed, dcount>>
         ELSE /\ L' = [L EXCEPT !.dl = IF c = Nil THEN INF ELSE when[c],
                                !.blk = BlockedBy(heap),
                                !.pc = IF L.quitSeen THEN "teardown" ELSE "sleep"]
              /\ UNCHANGED <<heap, removed, dcount>>
  /\ UNCHANGED <<top, next, ticket, when, freelist, wakeVars, now,
                 prev, swept, deferred, pc, pw, qmode, R, dropped>>

takeDueOrNull == takeDueOrNull_dropOnQuit \/ takeDueOrNull_deliver

\* 6. sleep(deadline, blocked): publish ASLEEP (volatile write) ...
sleep_publish ==
  /\ L.pc = "sleep"
  /\ waitWord' = [asleep |-> TRUE, deadline |-> L.dl, blocked |-> L.blk]
  /\ L' = [L EXCEPT !.pc = "recheckTop"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeRefs, permit, resource, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

\* ... re-read top (the Looper's half of the Dekker pair) ...
sleep_recheckTop ==
  /\ L.pc = "recheckTop"
  /\ L' = [L EXCEPT !.pc = IF top = swept \/ ~SleepRechecksTop THEN "recheckFree" ELSE "awake"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

\* ... and freelist ...
sleep_recheckFree ==
  /\ L.pc = "recheckFree"
  /\ L' = [L EXCEPT !.pc = IF freelist = <<>> THEN "park" ELSE "awake"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

\* ... park until the deadline or a permit (consumed) ...
sleep_park ==
  /\ L.pc = "park"
  /\ permit \/ (L.dl <= MaxTime /\ now >= L.dl)
  /\ permit' = FALSE
  /\ L' = [L EXCEPT !.pc = "awake"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, waitWord, wakeRefs, resource, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

\* ... and write AWAKE; next() loops.
sleep_awake ==
  /\ L.pc = "awake"
  /\ waitWord' = Awake
  /\ L' = [L EXCEPT !.pc = "loop", !.dl = INF, !.blk = FALSE]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeRefs, permit, resource, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

sleep == sleep_publish \/ sleep_recheckTop \/ sleep_recheckFree \/ sleep_park \/ sleep_awake

\* 5. teardown (Looper, once, after quit): CAS the TEARDOWN bit in (atomic
\* by (a)); while wakeRefs != TEARDOWN park; free the resource.
teardown_set ==
  /\ L.pc = "teardown"
  /\ wakeRefs' = [wakeRefs EXCEPT !.teardown = TRUE]
  \* the CAS returns the count: reading it again at once adds nothing
  /\ L' = [L EXCEPT !.pc = IF TeardownWaits /\ wakeRefs.count # 0 THEN "tdPark" ELSE "free"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, waitWord, permit, resource, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

teardown_check ==
  /\ L.pc = "tdCheck"
  /\ L' = [L EXCEPT !.pc = IF wakeRefs.count = 0 THEN "free" ELSE "tdPark"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

teardown_park ==
  /\ L.pc = "tdPark"
  /\ permit
  /\ permit' = FALSE
  /\ L' = [L EXCEPT !.pc = "tdCheck"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, waitWord, wakeRefs, resource, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

teardown_free ==
  /\ L.pc = "free"
  /\ resource' = "freed"
  /\ L' = [L EXCEPT !.pc = "exit"]
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, waitWord, wakeRefs, permit, now,
                 prev, swept, heap, deferred, pc, pw, qmode, R, dcount, dropped>>

teardown == teardown_set \/ teardown_check \/ teardown_park \/ teardown_free

\* The clock (ManualClock.advance).
tick ==
  /\ now < MaxTime
  /\ now' = now + 1
  /\ UNCHANGED <<top, next, ticket, when, removed, freelist, wakeVars,
                 looperVars, pc, pw, qmode, R, dcount, dropped>>

-----------------------------------------------------------------------------
(* Threads, Next, Spec *)

Producer(m) == push(m) \/ signalIfEarlier(m) \/ wake(m)
Quitter == quit \/ signalIfEarlier(QuitT) \/ wake(QuitT)
Remover == removeMatching \/ signalIfEarlier(RemT) \/ wake(RemT)
Looper == sweep \/ drainFreelist \/ unlink \/ takeDueOrNull \/ sleep \/ teardown

\* History for TraversalComplete: while removeMatching runs, record after
\* every step the set of matching messages then live for it (pushed, and not
\* taken by another thread nor dropped by a quit already pushed; those it won
\* itself count as live).
LiveForRemover == {m \in Matching : Pushed(m) /\ ((~removed[m] /\ ~(QuitPushed /\ DroppedByQuit(m))) \/ m \in Won)}
RemoverFinished == pc[RemT] \in {"done", "signal", "wake", "wSignal", "wRelease"}
Record == snaps' = IF pc'[RemT] # "rStart" /\ ~RemoverFinished
                   THEN snaps \cup {LiveForRemover'} ELSE snaps

Next == /\ \/ \E m \in Msgs : Producer(m)
           \/ Quitter \/ Remover \/ Looper \/ tick
        /\ Record

Fairness == /\ \A m \in Msgs : WF_vars(Producer(m) /\ Record)
            /\ WF_vars(Quitter /\ Record)
            /\ WF_vars(Remover /\ Record)
            /\ WF_vars(Looper /\ Record)

Spec == Init /\ [][Next]_vars /\ Fairness

-----------------------------------------------------------------------------
(* Obligations (docs/design.md). *)

\* obligation: no message is delivered twice; none is both delivered and removed (or dropped)
ExactlyOnce == \A m \in Msgs : /\ dcount[m] <= 1
                               /\ dcount[m] = 1 => m \notin Won \cup dropped
                               /\ m \in dropped => m \notin Won

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
Blocking(b) == Swept(b) /\ (~removed[b] \/ b \in heap)   \* a removed barrier blocks until drained
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
TraversalSafe == /\ R.cur = Nil \/ Published(R.cur)
                 /\ \A n \in Nodes : Published(n) /\ next[n] # Nil =>
                        Published(next[n]) /\ ticket[next[n]] < ticket[n]

\* What removeMatching guarantees as a whole: the set it tombstoned is the set
\* of matching messages live at some instant of its run, its own wins counted
\* live (so its traversal missed nothing live then). Not an atomic bulk removal.
\* obligation: a removal tombstones exactly the matching messages live at some instant of its run
TraversalComplete == RemoverFinished => Won \in snaps

\* obligation: a message tombstoned for a remover holds no payload once that removal has returned
PayloadReleased == RemoverFinished /\ Won # {} => R.released

\* obligation: the wake resource is never signalled after it is freed, nor freed while in use
NoUseAfterTeardown == \A t \in Threads : pc[t] \in {"wSignal", "wRelease"} => resource = "live"

\* The Looper parks with no permit only if every deliverable message due
\* before its deadline has a wake on its way.
WakePending == \/ \E t \in Threads : pc[t] \in {"signal", "wake", "wSignal"}
               \/ pc[RemT] = "rFree" /\ Won \cap Barriers # {}
LiveBlocked(m) == Kind[m] = "sync" /\ \E b \in Barriers :
                    Pushed(b) /\ (~removed[b] \/ b \in heap) /\ Less(b, m)
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

-----------------------------------------------------------------------------
(* Refinement: the mapping onto MessageQueueAbs. Linearization points: the  *)
(* push CAS (Enqueue), the sentinel push (Quit), the remover's REMOVED CAS   *)
(* (Remove), the Looper's REMOVED CAS (Deliver, Drop), the sweep's read of   *)
(* top (Observe; with the clock read at "loop"), the Looper's decision to    *)
(* tear down (Close), the free (Terminate). No prophecy is needed: every     *)
(* linearization point is a step of the thread concerned, because the       *)
(* abstract queue states its guarantee against the consumer's view (what it *)
(* has seen, its clock reading, the removed barriers it still honours) or   *)
(* against the quit (the uptime of its call, read before its push).        *)
(* TraversalComplete (on the history variable snaps) states what a whole    *)
(* removeMatching guarantees: a sequence of atomic single removals that      *)
(* misses nothing; it is not atomic against a concurrent Looper when it     *)
(* matches several messages (docs/design.md), hence Abs's one-at-a-time      *)
(* Remove.                                                                   *)

AStatus == [m \in Msgs |->
              IF pc[m] = "failed" THEN "rejected"
              ELSE IF ~Pushed(m) THEN "new"
              ELSE IF dcount[m] > 0 THEN "delivered"
              ELSE IF m \in dropped THEN "dropped"
              ELSE IF m \in Won THEN "removed"
              ELSE "queued"]
AWhen == [m \in Msgs |-> IF Pushed(m) THEN when[m] ELSE IF Kind[m] = "barrier" THEN 0 ELSE When[m]]
ClosedPcs == {"teardown", "tdCheck", "tdPark", "free", "exit"}

Abs == INSTANCE MessageQueueAbs WITH
         astatus <- AStatus,
         awhen <- AWhen,
         aseq <- [m \in Msgs |-> IF Pushed(m) THEN ticket[m] ELSE 0],
         aclock <- TicketOf(top),
         aseen <- {m \in Msgs : Swept(m)},
         alooked <- L.now,
         aqtime <- IF QuitPushed THEN when[Quit] ELSE 0,
         aretiring <- {b \in heap \cap Barriers : removed[b]},
         aquit <- QuitPushed,
         amode <- qmode,
         aclosed <- L.pc \in ClosedPcs,
         aterm <- resource = "freed"

\* obligation: every behaviour of DeliQueue is a behaviour of the abstract queue MessageQueueAbs
Refinement == Abs!ASpec

-----------------------------------------------------------------------------
THEOREM Spec => [](TypeOK /\ ExactlyOnce /\ NoLostMessage /\ HeapStackConsistent /\ BackLinksConsistent
                   /\ TraversalSafe /\ TraversalComplete /\ NoUseAfterTeardown /\ NoLostWakeup
                   /\ NoPushAfterQuit /\ PayloadReleased)
THEOREM Spec => DeliveryOrder /\ QuitTerminates /\ PushLockFree
THEOREM Spec => Refinement
=============================================================================
