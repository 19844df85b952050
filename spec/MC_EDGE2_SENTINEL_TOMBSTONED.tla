---------- MODULE MC_EDGE2_SENTINEL_TOMBSTONED ----------
(* Negative control (models.manifest: TLC must report QuitTerminates violated).
   upstream edge case 2: the sentinel is pushed without REMOVED and removeSyncBarrier(0) matches it
   (target null, arg1 0); its REMOVED CAS tombstones the sentinel, the sweep tests isRemoved first and
   never sees quit, and the Looper never tears down. *)
EXTENDS MC

MInit ==
  /\ top = Nil /\ next = [n \in Nodes |-> Nil] /\ ticket = [n \in Nodes |-> 0]
  /\ when = [n \in Nodes |-> IF n = Quit \/ Kind[n] = "barrier" THEN 0 ELSE When[n]]
  /\ removed = [n \in Nodes |-> FALSE]       \* the sentinel without FLAG_REMOVED
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

MIsQuitSentinel(n) == n = Quit /\ ~removed[n]

\* No message is needed: the remover's only match is the sentinel.
E2Msgs == {}
E2Kind == [m \in {} |-> "sync"]
E2When == [m \in {} |-> 0]
E2Pred == r1 :> {}

MVisit(t) ==
  /\ pc[t] = "tVisit"
  /\ LET m == T[t].cur IN
       IF m = Nil \/ ticket[m] <= T[t].floor
         THEN /\ pc' = [pc EXCEPT ![t] = "tRecheck"] /\ UNCHANGED T
       ELSE IF (m \in Pred[t] /\ ~(T[t].quit /\ DroppedByQuit(m))) \/ (m = Quit /\ ~removed[m])
         THEN /\ pc' = [pc EXCEPT ![t] = "tTest"] /\ UNCHANGED T
       ELSE IF m = Quit
         THEN /\ T' = [T EXCEPT ![t].quit = TRUE] /\ pc' = [pc EXCEPT ![t] = "tAdvance"]
         ELSE /\ pc' = [pc EXCEPT ![t] = "tAdvance"] /\ UNCHANGED T
  /\ UNCHANGED sharedVars /\ UNCHANGED <<wakeVars, now, looperVars, qmode, ghostVars>>
=============================================================================
