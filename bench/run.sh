#!/usr/bin/env bash
# Runs one benchmark pass and regenerates docs/results.md from it.
#   bench/run.sh quick   a few minutes: 1 fork, short warmup and measurement (`make bench`)
#   bench/run.sh full    about half an hour: 2 forks, longer iterations (`make bench-full`)
# Extra arguments go to JMH, e.g. `bench/run.sh quick BusyQueueBench` to run one class (the page then shows
# n/a for the rest). Results: bench/results/PASS.json (JMH), PASS-backlog.jsonl (busy-queue harness statistics),
# PASS.env (machine, load, command); page: docs/results.md and docs/results/PASS-*.png.
set -euo pipefail
cd "$(dirname "$0")/.."

PASS=${1:?usage: bench/run.sh quick|full [JMH args]}
shift
# SINGLE_SHOT_OPTS: RemovalBench measures one call per iteration, so it needs many iterations to leave the
# interpreter; it runs apart, into PASS-singleshot.json, which the report reads with PASS.json.
case "$PASS" in
  quick) JMH_OPTS="-f 1 -wi 1 -w 1s -i 2 -r 1s"; SINGLE_SHOT_OPTS="-f 1 -wi 30 -i 30" ;;
  full)  JMH_OPTS="-f 2 -wi 3 -w 2s -i 5 -r 2s"; SINGLE_SHOT_OPTS="-f 2 -wi 100 -i 100" ;;
  *) echo "unknown pass '$PASS' (quick|full)" >&2; exit 2 ;;
esac
MVN=${MVN:-mvn}
OUT=bench/results
JAR=bench/target/benchmarks.jar

$MVN -B -ntp -q -pl impl -am install -DskipTests
$MVN -B -ntp -q -f bench/pom.xml package -DskipTests

mkdir -p "$OUT"
rm -f "$OUT/$PASS.json" "$OUT/$PASS-singleshot.json" "$OUT/$PASS-backlog.jsonl"
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cores=$(nproc)"
  echo "memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "jvm=$(java -version 2>&1 | sed -n 2p)"
  echo "command=bench/run.sh $PASS${*:+ $*}"
  echo "jmh_options=$JMH_OPTS -jvmArgsAppend '-Xms2g -Xmx2g' (RemovalBench: $SINGLE_SHOT_OPTS)"
} > "$OUT/$PASS.env"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ " $* " == " RemovalBench " ]]; then
  echo "[]" > "$OUT/$PASS.json" # RemovalBench alone: nothing for the main run
else
  # shellcheck disable=SC2086 # JMH_OPTS is a list of options
  java -jar "$JAR" $JMH_OPTS -e RemovalBench -rf json -rff "$OUT/$PASS.json" \
    -jvmArgsAppend "-Xms2g -Xmx2g -Ddeliqueue.bench.stats=$PWD/$OUT/$PASS-backlog.jsonl" "${@:-.*}"
fi
if [ $# -eq 0 ] || [[ " $* " == *RemovalBench* ]]; then
  # shellcheck disable=SC2086 # SINGLE_SHOT_OPTS is a list of options
  java -jar "$JAR" $SINGLE_SHOT_OPTS -rf json -rff "$OUT/$PASS-singleshot.json" -jvmArgsAppend "-Xms2g -Xmx2g" \
    RemovalBench
fi

echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/$PASS.env"
# The report reads scores, errors and percentiles; JMH's raw histograms would make each file tens of MB.
java -cp "$JAR" org.deliqueue.bench.report.StripRawData "$OUT/$PASS.json" \
  $( [ -f "$OUT/$PASS-singleshot.json" ] && echo "$OUT/$PASS-singleshot.json" )
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
java -cp "$JAR" org.deliqueue.bench.report.Report "$PASS" "$OUT" docs
