---------- MODULE MC_EDGE5_QUIT_SAFELY_DROPS_ACCEPTED ----------
(* Negative control (manifest.json: TLC must report NoLostMessage violated).
   upstream edge case 5: under quitSafely a post returns true and never runs; here the sweep handles
   quit as soon as it meets the sentinel and never sweeps what was pushed before it. *)
EXTENDS MC

MSweepStep ==
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
                 THEN L' = [L EXCEPT !.cur = swept, !.quitSeen = TRUE] /\ UNCHANGED <<heap, pending>>   \* stops here
               ELSE IF m \in Removers
                 THEN pending' = pending \cup {m} /\ L' = [L EXCEPT !.cur = n] /\ UNCHANGED heap
                 ELSE /\ heap' = IF ~removed[m] THEN heap \cup {m} ELSE heap
                      /\ L' = [L EXCEPT !.cur = n]
                      /\ UNCHANGED pending
            /\ UNCHANGED <<swept, deferred>>
  /\ UNCHANGED <<sharedVars, wakeVars, now, threadVars, ghostVars>>
=============================================================================
