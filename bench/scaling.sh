#!/usr/bin/env bash
# Insertion against producer count: ContentionBench (one insertion from every thread into one shared structure:
# a CAS loop, getAndSet, DelayQueue, ConcurrentLinkedQueue, DeliQueue.enqueueMessage) at each thread count, then
# the page docs/scaling-LABEL.md with its table, targets and plot (`make bench-scaling`).
#   bench/scaling.sh                 thread counts 1 2 on a machine with fewer than 16 cores, else 1 2 4 8 14
#   THREADS="1 2 4" bench/scaling.sh  the given counts
# LABEL (default coresN, N = this machine's cores) names the results (bench/results/scaling/LABEL-tT.json, LABEL.env)
# and the page, so a pass on another machine writes its own page. A thread count above the core count measures
# time-sharing, not contention: the page marks it.
# On a machine without Maven (a lent benchmark machine), set JAR to a benchmarks.jar built elsewhere; JAVA to the
# java to run (e.g. a jlink image's bin/java).
set -euo pipefail
cd "$(dirname "$0")/.."

CORES=$(nproc)
LABEL=${LABEL:-cores$CORES}
if [ -z "${THREADS:-}" ]; then
  if [ "$CORES" -ge 16 ]; then THREADS="1 2 4 8 14"; else THREADS="1 2"; fi
fi
JAVA=${JAVA:-java}
JAR=${JAR:-bench/target/benchmarks.jar}
OUT=bench/results/scaling
JMH_OPTS=${JMH_OPTS:--f 2 -wi 3 -w 1s -i 5 -r 1s}

if [ "$JAR" = bench/target/benchmarks.jar ]; then
  MVN=${MVN:-mvn}
  $MVN -B -ntp -q -pl impl -am install -DskipTests
  $MVN -B -ntp -q -f bench/pom.xml package -DskipTests
fi

mkdir -p "$OUT"
rm -f "$OUT/$LABEL"-t*.json
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cores=$CORES"
  echo "cpu=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
  echo "memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "jvm=$("$JAVA" -version 2>&1 | sed -n 2p)"
  echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' + local changes')"
  echo "command=LABEL=$LABEL THREADS='$THREADS' bench/scaling.sh"
  echo "jmh_options=$JMH_OPTS -jvmArgsAppend '-Xms2g -Xmx2g'"
} > "$OUT/$LABEL.env"

for t in $THREADS; do
  # shellcheck disable=SC2086 # JMH_OPTS is a list of options
  "$JAVA" -jar "$JAR" ContentionBench $JMH_OPTS -t "$t" -jvmArgsAppend "-Xms2g -Xmx2g" \
    -rf json -rff "$OUT/$LABEL-t$t.json"
done
echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/$LABEL.env"
"$JAVA" -cp "$JAR" org.deliqueue.bench.report.StripRawData "$OUT/$LABEL"-t*.json
"$JAVA" -cp "$JAR" org.deliqueue.bench.report.ScalingReport "$LABEL" "$OUT" docs
