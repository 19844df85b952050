#!/usr/bin/env bash
# Runs one benchmark pass and writes its page.
#   bench/run.sh quick   a few minutes: 1 fork, short warmup and measurement (`make bench`)
#   bench/run.sh full    about half an hour: 2 forks, longer iterations (`make bench-full`)
# Extra arguments go to JMH, e.g. `bench/run.sh quick BusyQueueBench` to run one class (the page then shows
# n/a for the rest).
# A pass is named LABEL, by default PASS-coresN (N: this machine's cores): results bench/results/LABEL.json (JMH),
# LABEL-singleshot.json, LABEL-backlog.jsonl (busy-queue harness statistics), LABEL.env (machine, load, command);
# page docs/results-LABEL.md and plots docs/results/LABEL-*.png. So no pass, on this machine or another, rewrites
# the committed reference (bench/results/full.*, docs/results.md, docs/results/full-*.png) unless asked:
# REFERENCE=1 with the full pass (`make bench-full REFERENCE=1`) replaces it. LABEL=name chooses another label.
set -euo pipefail
cd "$(dirname "$0")/.."

PASS=${1:?usage: [REFERENCE=1] bench/run.sh quick|full [JMH args]}
shift
if [ "${REFERENCE:-}" = 1 ]; then
  if [ "$PASS" != full ]; then
    echo "REFERENCE=1 replaces the reference page with a full pass only: REFERENCE=1 bench/run.sh full" >&2
    exit 2
  fi
  LABEL=full
  REPORT_OPTS=--reference
else
  LABEL=${LABEL:-$PASS-cores$(nproc)}
  REPORT_OPTS=
  if [ "$LABEL" = full ]; then
    echo "LABEL=full is the reference pass's: REFERENCE=1 bench/run.sh full replaces it" >&2
    exit 2
  fi
fi
# SINGLE_SHOT_OPTS: RemovalBench measures one call per iteration, so it needs many iterations to leave the
# interpreter; it runs apart, into LABEL-singleshot.json, which the report reads with LABEL.json.
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
rm -f "$OUT/$LABEL.json" "$OUT/$LABEL-singleshot.json" "$OUT/$LABEL-backlog.jsonl"
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cores=$(nproc)"
  echo "cpu=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)"
  echo "memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "load_before=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "jvm=$(java -version 2>&1 | sed -n 2p)"
  echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' + local changes')"
  echo "command=${REPORT_OPTS:+REFERENCE=1 }bench/run.sh $PASS${*:+ $*}"
  echo "jmh_options=$JMH_OPTS -jvmArgsAppend '-Xms2g -Xmx2g' (RemovalBench: $SINGLE_SHOT_OPTS)"
} > "$OUT/$LABEL.env"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

if [[ " $* " == " RemovalBench " ]]; then
  echo "[]" > "$OUT/$LABEL.json" # RemovalBench alone: nothing for the main run
else
  # shellcheck disable=SC2086 # JMH_OPTS is a list of options
  java -jar "$JAR" $JMH_OPTS -e RemovalBench -rf json -rff "$OUT/$LABEL.json" \
    -jvmArgsAppend "-Xms2g -Xmx2g -Ddeliqueue.bench.stats=$PWD/$OUT/$LABEL-backlog.jsonl" "${@:-.*}"
fi
if [ $# -eq 0 ] || [[ " $* " == *RemovalBench* ]]; then
  # shellcheck disable=SC2086 # SINGLE_SHOT_OPTS is a list of options
  java -jar "$JAR" $SINGLE_SHOT_OPTS -rf json -rff "$OUT/$LABEL-singleshot.json" -jvmArgsAppend "-Xms2g -Xmx2g" \
    RemovalBench
fi

echo "load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/$LABEL.env"
# The report reads scores, errors and percentiles; JMH's raw histograms would make each file tens of MB.
java -cp "$JAR" org.deliqueue.bench.report.StripRawData "$OUT/$LABEL.json" \
  $( [ -f "$OUT/$LABEL-singleshot.json" ] && echo "$OUT/$LABEL-singleshot.json" )
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086 # REPORT_OPTS is empty or one option
java -cp "$JAR" org.deliqueue.bench.report.Report $REPORT_OPTS "$LABEL" "$OUT" docs
