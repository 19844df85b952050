---------- MODULE MC_EDGE2_SENTINEL_TOMBSTONED ----------
(* Negative control (manifest.json: TLC must report QuitTerminates violated).
   upstream edge case 2: the sentinel is pushed without REMOVED and removeSyncBarrier(0) matches it
   (target null, arg1 0); its REMOVED CAS tombstones the sentinel, the sweep tests isRemoved first and
   never sees quit, and the Looper never tears down. In the removal with a select phase the predicate meets
   the sentinel if select offers a node that is not REMOVED to it before testing for owner nodes: the
   sentinel is then among the removal's verdicts, and its collect tombstones it. *)
EXTENDS MC

MInit ==
  /\ top = Nil /\ next = [n \in Nodes |-> Nil] /\ ticket = [n \in Nodes |-> 0]
  /\ when = [n \in Nodes |-> IF n \notin Msgs \/ Kind[n] = "barrier" THEN 0 ELSE When[n]]   \* new Message(): when = 0
  /\ removed = [n \in Nodes |-> n \in Removers]  \* the sentinel without FLAG_REMOVED
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

MIsQuitSentinel(n) == n = Quit /\ ~removed[n]

\* No message is needed: the remover's only match is the sentinel.
E2Msgs == {}
E2Kind == [m \in {} |-> "sync"]
E2When == [m \in {} |-> 0]
E2Pred == r1 :> {}

\* select offers a node that is not REMOVED to the predicate before it tests
\* for owner nodes, and token 0 matches the sentinel: it joins the verdicts
\* (no message is in this model, so every other node is an owner node).
MTraverseVisit(t) ==
  /\ pc[t] = "tVisit"
  /\ LET m == T[t].cur IN
       IF m = Nil \/ ticket[m] <= T[t].floor
         THEN /\ pc' = [pc EXCEPT ![t] = IF verdict[t] # {} THEN "dCas" ELSE "tRecheck"]
              /\ UNCHANGED <<T, verdict>>
       ELSE IF m = Quit /\ ~removed[m]
         THEN /\ verdict' = [verdict EXCEPT ![t] = @ \cup {m}] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
              /\ UNCHANGED T
         ELSE /\ T' = [T EXCEPT ![t].passed = @ \cup {m}] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
              /\ UNCHANGED verdict
  /\ UNCHANGED <<sharedVars, wakeVars, now, looperVars, qmode, ghostVars>>

\* The messages of S in the queue: the sentinel among the verdicts is none.
MLiveNow(S) == {m \in S \cap Msgs : Pushed(m) /\ ~delivered[m] /\ OwnerOf(m) \notin Removers
                                   /\ ~(QuitPushed /\ DroppedByQuit(m))}

\* collect takes a verdict that is not REMOVED before it tests for owner nodes:
\* its REMOVED CAS wins on the sentinel.
MCollectVisit(t) ==
  /\ pc[t] = "cVisit"
  /\ LET m == T[t].cur IN
       IF m = Nil \/ ticket[m] < VerdictFloor(t)
         THEN pc' = [pc EXCEPT ![t] = "rFree"] /\ UNCHANGED <<T, removed>>
       ELSE IF m = Quit /\ ~removed[m] /\ m \in verdict[t]
         THEN removed' = [removed EXCEPT ![m] = TRUE] /\ pc' = [pc EXCEPT ![t] = "cAdvance"] /\ UNCHANGED T
       ELSE IF m \in Owners
         THEN /\ T' = [T EXCEPT ![t].passed = @ \cup {m}]
              /\ pc' = [pc EXCEPT ![t] = "cAdvance"] /\ UNCHANGED removed
       ELSE IF LeftBefore(m, t) \/ m \notin verdict[t]
         THEN pc' = [pc EXCEPT ![t] = "cAdvance"] /\ UNCHANGED <<T, removed>>
         ELSE pc' = [pc EXCEPT ![t] = "cTake"] /\ UNCHANGED <<T, removed>>
  /\ UNCHANGED <<stackVars, freelist, reserved, delivered, removedBy, claimTop, wakeVars, now, looperVars, qmode,
                 verdict, ghostVars>>
=============================================================================
