---------- MODULE MC_EDGE2_SENTINEL_TOMBSTONED ----------
(* Negative control (models.manifest: TLC must report QuitTerminates violated).
   upstream edge case 2: the sentinel is pushed without REMOVED and removeSyncBarrier(0) matches it
   (target null, arg1 0); its REMOVED CAS tombstones the sentinel, the sweep tests isRemoved first and
   never sees quit, and the Looper never tears down. *)
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
                             ELSE IF Op[t] = "remove" THEN "dRead" ELSE "tStart"]
  /\ qmode \in QModes
  /\ T = [t \in Traversers |-> TraverserInit]
  /\ dcount = [m \in Msgs |-> 0] /\ lastPost = 0 /\ took = [t \in Traversers |-> {}]

MIsQuitSentinel(n) == n = Quit /\ ~removed[n]

\* No message is needed: the remover's only match is the sentinel.
E2Msgs == {}
E2Kind == [m \in {} |-> "sync"]
E2When == [m \in {} |-> 0]
E2Pred == r1 :> {}

\* collect offers a node that is not REMOVED to its predicate before it tests
\* for owner nodes, and token 0 matches the sentinel: its REMOVED CAS wins.
MCollectVisit(t) ==
  /\ pc[t] = "cVisit"
  /\ LET m == T[t].cur IN
       IF m = Nil
         THEN pc' = [pc EXCEPT ![t] = "rFree"] /\ UNCHANGED <<T, removed>>
       ELSE IF m = Quit /\ ~removed[m]
         THEN removed' = [removed EXCEPT ![m] = TRUE] /\ pc' = [pc EXCEPT ![t] = "cAdvance"] /\ UNCHANGED T
       ELSE IF m \in Owners
         THEN /\ T' = [T EXCEPT ![t].passed = @ \cup {m}]
              /\ pc' = [pc EXCEPT ![t] = "cAdvance"] /\ UNCHANGED removed
       ELSE IF LeftBefore(m, t) \/ m \notin Pred[t]
         THEN pc' = [pc EXCEPT ![t] = "cAdvance"] /\ UNCHANGED <<T, removed>>
         ELSE pc' = [pc EXCEPT ![t] = "cTake"] /\ UNCHANGED <<T, removed>>
  /\ UNCHANGED <<top, next, ticket, when, freelist, reserved, delivered, removedBy, claimTop>>
  /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>
=============================================================================
