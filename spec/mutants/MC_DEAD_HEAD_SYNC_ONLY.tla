---------- MODULE MC_DEAD_HEAD_SYNC_ONLY ----------
(* Negative control (manifest.json: TLC must report DeliveryOrder violated). The Looper looks for a dead head (a
   removed message, or one a removal it has swept owns) in the sync heap alone: an async message that a swept
   removal owns stays at the head of the async heap and is delivered (a held-out audit's bug, 2026-11-27; MC's
   message is async so that a CI model reaches it). *)
EXTENDS MC

MDeadHead == IF SyncSide(heap) # {} /\ Dead(MinOf(SyncSide(heap))) THEN MinOf(SyncSide(heap)) ELSE Nil
=============================================================================
