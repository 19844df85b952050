---------- MODULE MC_SLEEP_RECORDS_HEAD ----------
(* Negative control (manifest.json: TLC must report TypeOK violated).
   sleep records the head it waits for as the blocking barrier (sleepBarrier = head): a sync message
   where only a barrier may stand. *)
EXTENDS MCQuitTime

MBlockingBarrier(H) == IF SyncSide(H) # {} THEN MinOf(SyncSide(H)) ELSE Nil
=============================================================================
