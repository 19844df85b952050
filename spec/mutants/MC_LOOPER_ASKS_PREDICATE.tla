---------- MODULE MC_LOOPER_ASKS_PREDICATE ----------
(* Negative control (manifest.json: TLC must report UserCodeOnCaller violated). The design before the
   removal's select phase: a descriptor holds its removal's predicate, and the Looper, where it looks for a
   pending removal that owns a heap head (liveHead) or a message the quit dooms (dropOnQuit), asks that
   predicate itself, afresh, instead of reading the descriptor's verdicts; on yes it tombstones the message for
   that removal. User code then runs on the Looper's thread, and, for a predicate that answers differently at
   each call, the Looper and the remover disagree and a message is lost. With UserCodeOnCaller left out of the
   cfg, TLC reports Refinement (RefinementSafety): r1's removal took m1 at its descriptor's push (its own
   predicate said yes); after the quit, the Looper's drop asks r1's predicate again, which now says no, and
   drops m1 for the quit: a message the atomic removal took is dropped. With Refinement left out too, TLC reports
   RemovalReturnsItsSet: the removal never returns the message its atomic step took. *)
EXTENDS MCFickle

\* The Looper asks r's predicate about m (user code on the Looper's thread).
LooperAsk(r, m) == [by |-> "Looper", of |-> r, m |-> m, inCall |-> InCall(r), nth |-> Evaluations(r, m) + 1,
                      queued |-> TRUE]

\* A head is dead only if REMOVED: ownership by a pending removal is decided by asking (MLiveHead).
MDead(h) == removed[h]

\* The heads liveHead looks at: the sync heap's, then the async heap's (either, here).
Heads == {MinOf(H) : H \in {X \in {SyncSide(heap), AsyncSide(heap)} : X # {}}}

\* liveHead: a REMOVED head goes out of the heap; else the Looper asks the pending removals pushed after the
\* head, earliest first, and the first that says yes owns it: tombstoned for it, out of the heap.
MLiveHead ==
  /\ L.pc = "deliver"
  /\ \E h \in Heads :
       IF removed[h]
         THEN /\ heap' = heap \ {h}
              /\ UNCHANGED <<removed, removedBy, evals>>
         ELSE LET C == {r \in pending : ticket[h] < ticket[r]} IN
              \E owner \in C :
                LET asked == {r \in C : ticket[r] <= ticket[owner]} IN
                /\ \A r \in asked \ {owner} : FALSE \in Answers(r, h)
                /\ TRUE \in Answers(owner, h)
                /\ evals' = evals \cup {LooperAsk(r, h) : r \in asked}
                /\ heap' = heap \ {h}
                /\ removed' = [removed EXCEPT ![h] = TRUE]
                /\ removedBy' = [removedBy EXCEPT ![h] = owner]
  /\ UNCHANGED <<stackVars, freelist, reserved, delivered, claimTop, wakeVars, now, prev, swept, deferred, pending,
                 L, threadVars, dcount, lastPost, took>>

\* dropOnQuit: the owner of a doomed message is the first pending removal pushed between it and the sentinel
\* whose predicate, asked by the Looper, says yes; else the sentinel.
MDropOnQuitAt(m) ==
  /\ L.pc = "dropOnQuit"
  /\ LET D == {x \in heap : DroppedByQuit(x) /\ ~removed[x]} IN
       IF ~L.quitSeen \/ L.quitDropped \/ D = {}
         THEN /\ m = Nil
              /\ L' = [L EXCEPT !.quitDropped = L.quitSeen, !.pc = "deliver"]
              /\ UNCHANGED <<removed, removedBy, heap, evals>>
         ELSE /\ m \in D
              /\ LET C == {r \in pending : ticket[m] < ticket[r] /\ ticket[r] < ticket[Quit]} IN
                 \E owner \in C \cup {Quit} :
                   LET asked == {r \in C : ticket[r] <= ticket[owner]} IN
                   /\ \A r \in asked \ {owner} : FALSE \in Answers(r, m)
                   /\ owner # Quit => TRUE \in Answers(owner, m)
                   /\ evals' = evals \cup {LooperAsk(r, m) : r \in asked}
                   /\ heap' = heap \ {m}
                   /\ removed' = [removed EXCEPT ![m] = TRUE]
                   /\ removedBy' = [removedBy EXCEPT ![m] = owner]
                   /\ IF owner = Quit
                        THEN L' = [L EXCEPT !.target = m, !.uret = "dropOnQuit", !.pc = "unlink"]
                        ELSE UNCHANGED L
  /\ UNCHANGED <<stackVars, freelist, reserved, delivered, claimTop, wakeVars, now, prev, swept, deferred, pending,
                 threadVars, dcount, lastPost, took>>
=============================================================================
