---------- MODULE MC_DELIVER_PAST_BARRIER ----------
(* Negative control (manifest.json: TLC must report DeliveryOrder violated).
   firstDeliverable ignores barriers: the Looper delivers a sync message that a barrier before it holds
   back. *)
EXTENDS MCBarrier

MFirstDeliverable(H) == IF H \ Barriers = {} THEN Nil ELSE MinOf(H \ Barriers)
=============================================================================
