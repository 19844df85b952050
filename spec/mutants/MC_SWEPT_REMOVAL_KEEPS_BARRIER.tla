---------- MODULE MC_SWEPT_REMOVAL_KEEPS_BARRIER ----------
(* Negative control (manifest.json: TLC must report DeliveryOrder violated).
   The Looper takes a heap head for dead when it is tombstoned or a pending removal owns it, but a barrier only
   once tombstoned ("removeSyncBarrier tombstones its own barrier"): a barrier whose removal the Looper has swept
   keeps holding back the sync message behind it, and the Looper delivers the async message due later first
   (held-out spec audit S33). *)
EXTENDS MCBarrierAsync

MDead(h) == removed[h] \/ (h \notin Barriers /\ PendingOwner(h) # Nil)
=============================================================================
