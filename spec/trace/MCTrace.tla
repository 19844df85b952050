------------------------------- MODULE MCTrace -------------------------------
(* The model of one trace: TraceDeliQueue over the constants and events of  *)
(* TraceLog, the module that trace/ (org.deliqueue.trace.TraceModule)       *)
(* generates from each logged run, in that run's own directory.             *)
EXTENDS TraceDeliQueue, TraceLog
=============================================================================
