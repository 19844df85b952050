--------------------------- MODULE TraceDeliQueue ---------------------------
(***************************************************************************)
(* Trace validation: is a logged execution of impl a behaviour of          *)
(* DeliQueue? (Cirstea, Kuppe, Loillier, Merz, arXiv 2404.16075; per-thread *)
(* cursors as in OmniLink, arXiv 2601.11836.)                              *)
(*                                                                         *)
(* impl's recorder (org.deliqueue.Trace) logs, at every code site that     *)
(* implements an action of DeliQueue, an event named as that action, with  *)
(* the spec thread it belongs to (e.t: a message's post, QuitT, a query,   *)
(* the Looper) and the values it read and wrote. Each Java thread's events *)
(* are in its program order; Log[i] is the sequence of Java thread i. A    *)
(* step of this spec matches the next event of one Java thread with the    *)
(* DeliQueue action of the same name, constrained by the logged values, so *)
(* TLC searches the interleavings of the threads' logs that the spec       *)
(* allows: pushes are ordered by their CAS witnesses (e.exp), reads by the *)
(* values they saw. The trace is accepted iff some behaviour matches every *)
(* event and leaves every operation of a finished Java thread returned:    *)
(* TraceIncomplete is then violated (this TLC has no POSTCONDITION).       *)
(*                                                                         *)
(* Removal is traced (removeMessages from a thread of its own); barrier    *)
(* removal is not: removeSyncBarrier first finds its barrier with a        *)
(* traversal whose visitor logs nothing. Every traced removal is Fickle    *)
(* (TraceModule defines TFickle as all of them): its predicate's answers   *)
(* are the logged ones (removeMatching_ask's answer), whatever Pred says,  *)
(* so a trace is checked against what the user code actually answered.   *)
(***************************************************************************)
EXTENDS DeliQueueProperties

CONSTANT Log   \* <<events of Java thread 1, ...>>: records [a: action, t: spec thread, ...values]
CONSTANT Ended \* the spec threads whose Java thread finished (all but a hung run's): the Looper, posts, ...

VARIABLE cur   \* cur[i]: the index of Java thread i's first event not yet matched

TraceInit == Init /\ cur = [i \in DOMAIN Log |-> 1]

Has(i) == cur[i] <= Len(Log[i])
E(i) == Log[i][cur[i]]

\* The time box (microseconds of System.nanoTime, the time an event was
\* logged, after its access): thread i's next action happened after its
\* previous event was logged, and another thread's event logged before that
\* (by more than Slack, for clock reads that the CPU may move a little)
\* happened before it. Such an event must be matched first.
Slack == 20
\* When the action after event e began at the latest: e's log time, or, for a
\* tick TraceModule added inside a clock jump (e.after: the log time of the
\* event before the jump), that earlier time, since the jump's ticks are one
\* access logged once.
Since(e) == IF "after" \in DOMAIN e THEN e.after ELSE e.ts
TimeBox(i) == cur[i] > 1 =>
                \A j \in DOMAIN Log \ {i} : Has(j) => E(j).ts + Slack >= Since(Log[i][cur[i] - 1])

Field(e, f) == f \in DOMAIN e
\* The wake refcount as the event read it: the count and the TEARDOWN bit.
Refs(e) == wakeRefs.count = e.count /\ wakeRefs.teardown = e.teardown
\* traverse_visit's e.outcome: stop (null or the floor: a query, or a
\* removal without verdicts, reads top again; a removal with verdicts tries
\* its descriptor's push), match (a query's match, offered to its visitor),
\* ask (a removal's select asks its predicate), jump (a finished
\* descriptor: on to its skip), owner (an owner node, remembered) or skip
\* (no match, or covered by an owner passed): on to the next node.
VisitOutcome(t, o) == CASE o = "stop" -> pc'[t] \in {"tRecheck", "dCas"}
                        [] o = "match" -> pc'[t] = "tTest"
                        [] o = "ask" -> pc'[t] = "tAsk"
                        [] o = "jump" -> pc'[t] = "tAdvance" /\ T'[t].jump
                        [] OTHER -> pc'[t] = "tAdvance" /\ ~T'[t].jump
\* collect_visit's e.outcome: end (null, or below the least verdict), owner
\* (remembered), skip (left before, or not a verdict) or match (on to
\* takeFor).
CollectOutcome(t, o) == CASE o = "end" -> pc'[t] = "rFinish"
                          [] o = "match" -> pc'[t] = "cTake"
                          [] OTHER -> pc'[t] = "cAdvance"

\* The step of DeliQueue that matches event e: the action e.a, constrained
\* by the values e logged. Events name nodes as the spec does ("m3", "b1",
\* "Quit", "Nil") and spec threads as e.t.
Match(e) ==
  CASE e.a = "push_readTop" ->
         /\ top = e.top /\ push_readTop(e.t)
         /\ Kind[e.t] = "barrier" /\ pc'[e.t] = "pushCas" => when'[e.t] = e.when
    [] e.a = "push_casTop" -> next[e.t] = e.exp /\ (top = e.exp) = e.ok /\ push_casTop(e.t)
    [] e.a = "signalIfEarlier_cas" ->
         /\ waitWord.asleep = e.asleep
         /\ e.asleep => waitWord.deadline = e.deadline /\ (waitWord.barrier # Nil) = e.blocked
         /\ signalIfEarlier_cas(e.t) /\ (pc'[e.t] = "wake") = e.woke
    [] e.a = "wake_acquire" -> Refs(e) /\ wake_acquire(e.t)
    [] e.a = "wake_signal" -> wake_signal(e.t)
    [] e.a = "wake_release" -> Refs(e) /\ wake_release(e.t)
    [] e.a = "quit_readTop" ->
         /\ top = e.top /\ (IF e.safe THEN now = e.now ELSE e.now = 0) /\ quit_readTop
         /\ qmode = IF e.safe THEN "quitSafely" ELSE "quit"
    [] e.a = "quit_casTop" -> next[Quit] = e.exp /\ (top = e.exp) = e.ok /\ quit_casTop
    \* e.removed: the flag read; e.answer: the predicate said yes (false when REMOVED: not asked)
    [] e.a = "removeMatching_ask" ->
         /\ T[e.t].cur = e.m /\ removed[e.m] = e.removed /\ removeMatching_ask(e.t)
         /\ (e.m \in verdict'[e.t]) = e.answer
    \* e.exp: the top its last segment started from
    [] e.a = "pushDescriptor_casTop" -> T[e.t].top = e.exp /\ (top = e.exp) = e.ok /\ pushDescriptor_casTop(e.t)
    [] e.a = "collect_advance" -> T[e.t].cur = e.m /\ next[e.m] = e.next /\ collect_advance(e.t)
    [] e.a = "collect_visit" -> T[e.t].cur = e.m /\ collect_visit(e.t) /\ CollectOutcome(e.t, e.outcome)
    \* e.taken: takeFor's answer, the message is counted
    [] e.a = "collect_takeFor" ->
         T[e.t].cur = e.m /\ collect_takeFor(e.t) /\ (Len(T'[e.t].won) > Len(T[e.t].won)) = e.taken
    \* e.skip: where the run of gone nodes below the descriptor ends, as the remover found it
    [] e.a = "collect_finish" -> e.d = e.t /\ collect_finish(e.t) /\ T'[e.t].skip = e.skip
    [] e.a = "removeMatching_pushFreelist" -> Len(T[e.t].won) + 1 = e.nodes /\ removeMatching_pushFreelist(e.t)
    [] e.a = "traverse_readTop" -> top = e.top /\ traverse_readTop(e.t)
    [] e.a = "traverse_recheck" -> top = e.top /\ traverse_recheck(e.t)
    [] e.a = "traverse_visit" -> T[e.t].cur = e.m /\ traverse_visit(e.t) /\ VisitOutcome(e.t, e.outcome)
    [] e.a = "hasMatching_isRemoved" -> T[e.t].cur = e.m /\ removed[e.m] = e.removed /\ hasMatching_isRemoved(e.t)
    \* e.won: this thread's CAS resolved the reservation; else it read the outcome of an earlier one
    [] e.a = "resolve_reserved" ->
         IF e.won THEN T[e.t].cur = e.m /\ resolve_reserved(e.t) /\ delivered'[e.m] = e.delivered
                  ELSE ~reserved[e.m] /\ delivered[e.m] = e.delivered /\ UNCHANGED vars
    \* from a finished descriptor the visit chose to jump: the read is of its skip
    [] e.a = "traverse_advance" ->
         /\ T[e.t].cur = e.m /\ (IF T[e.t].jump THEN T[e.m].skip ELSE next[e.m]) = e.next
         /\ traverse_advance(e.t)
    \* e.now: next()'s clock reading, logged with the sweep that follows it (-1: not at the loop's start)
    [] e.a = "sweep_readTop" -> top = e.top /\ sweep_readTop /\ e.now = IF L.pc = "loop" THEN now ELSE -1
    [] e.a = "sweep_step" ->
         /\ L.cur = e.m /\ sweep_step
         /\ IF L.cur = swept THEN Field(e, "end")
            ELSE ~Field(e, "end") /\ next[e.m] = e.next /\ (e.m \in heap') = e.heaped
    [] e.a = "drainFreelist_exchange" -> (freelist = <<>>) = e.empty /\ drainFreelist_exchange
    \* e.m: the chain's next node, Nil at its end
    [] e.a = "drainFreelist_node" ->
         /\ IF L.chain = <<>> THEN e.m = Nil ELSE Head(L.chain) = e.m
         /\ drainFreelist_node
    [] e.a = "takeDueOrNull_liveHead" -> DeadHead = e.m /\ takeDueOrNull_liveHead
    [] e.a = "takeDueOrNull_dropOnQuit" -> takeDueOrNull_dropOnQuitAt(e.m)
    [] e.a = "takeDueOrNull_deliver" ->
         /\ FirstDeliverable(heap) = e.m /\ takeDueOrNull_deliver
         /\ IF e.due THEN L'.pc = "claim"
                     ELSE L'.pc \in {"sleep", "teardown"} /\ L'.dl = e.dl /\ L'.bar = e.bar
    [] e.a = "takeDueOrNull_claim" -> L.target = e.m /\ takeDueOrNull_claim /\ (L'.pc = "resolve") = e.reserved
    [] e.a = "takeDueOrNull_resolve" ->
         L.target = e.m /\ reserved[e.m] = e.won /\ takeDueOrNull_resolve /\ delivered'[e.m] = e.delivered
    \* e.then: splice (a back-link), defer (m is top), sweep (first link what was pushed above m)
    [] e.a = "unlink_check" ->
         /\ L.target = e.m /\ unlink_check
         /\ (deferred' = e.m) = (e.then = "defer") /\ (L'.pc = "sweep") = (e.then = "sweep")
    [] e.a = "unlink_splice" -> L.target = e.m /\ unlink_splice
    [] e.a = "sleep_publish" -> sleep_publish /\ waitWord'.deadline = e.dl /\ waitWord'.barrier = e.bar
    [] e.a = "sleep_recheckTop" -> top = e.top /\ sleep_recheckTop
    [] e.a = "sleep_recheckFree" -> (freelist = <<>>) = e.empty /\ sleep_recheckFree
    [] e.a = "sleep_park" -> sleep_park \/ (L.pc = "park" /\ parkUntil_early)
    [] e.a = "sleep_awake" -> sleep_awake
    [] e.a = "teardown_set" -> wakeRefs.count = e.count /\ teardown_set
    [] e.a = "teardown_check" -> wakeRefs.count = e.count /\ teardown_check
    [] e.a = "teardown_park" -> teardown_park \/ (L.pc = "tdPark" /\ parkUntil_early)
    [] e.a = "teardown_free" -> teardown_free
    [] e.a = "tick" -> tick /\ now' = e.now

\* The spec threads events may name (an event of any other is matched by no step).
Actors == Threads \cup {"Looper", "Clock"}

TraceNext == \E i \in DOMAIN Log : /\ Has(i) /\ E(i).t \in Actors /\ TimeBox(i)
                                  /\ Match(E(i)) /\ cur' = [cur EXCEPT ![i] = @ + 1]

\* Whether every operation of a Java thread that finished has returned in
\* the spec: the Looper torn down, every post, quit, query and removal done
\* (or, a post, refused). A log that stops short of an operation's last
\* step (a wake the code never decided, a Looper that never tore down) is a
\* prefix of a behaviour, not the whole run.
EndedReturned == \A t \in Ended : IF t = "Looper" THEN L.pc = "exit" ELSE pc[t] \in {"done", "failed"}

\* Violated exactly when a behaviour has matched every event and returned
\* every finished operation: the verdict "accepted".
TraceIncomplete == (\E i \in DOMAIN Log : Has(i)) \/ ~EndedReturned
=============================================================================
