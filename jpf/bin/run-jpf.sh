#!/usr/bin/env bash
# `make jpf`: model-checks the real DeliQueue with Java PathFinder on the harnesses of jpf/src/main/java, each for
# DELI (JPF must find no error) and for the seeded mutants it must catch (JPF must report an error naming the
# violated obligation, or a deadlock). Prints one row per run: result, states, transitions, time; writes the same as
# a table (target/jpf-results.md) and as JUnit XML (target/jpf-junit.xml, one test case per run: a DELI run passes
# when JPF finds no error, a mutant run when JPF reports its obligation; a TIMEOUT, INCOMPLETE or crashed run is an
# error; without JPF every run is reported skipped, never passed).
#
# JPF is in no package registry and this repository never ships it. This script uses an installed jpf-core:
#   JPF_HOME=/path/to/jpf-core (a built checkout: build/jpf.jar, build/RunJPF.jar), or
#   ~/.jpf/site.properties with a line `jpf-core = /path/to/jpf-core` (JPF's own convention).
# With neither it prints one line and exits 0 (nothing was checked, and it says so).
#
# Environment: JPF_TIMEOUT (seconds per JPF run, default 300; RUN_BUDGET gives some runs more), JPF_XMX (JPF's
#   heap, default 3g), JPF_ONLY (a regex: only runs whose "Harness ARGS" matches), SKIP_BUILD=1 (reuse the last build), MVN.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MODULE=$ROOT/jpf
TARGET=$MODULE/target
JPF_TIMEOUT=${JPF_TIMEOUT:-300}
JPF_XMX=${JPF_XMX:-3g}
JPF_ONLY=${JPF_ONLY:-}
MVN=${MVN:-mvn}

# ---- the runs ---------------------------------------------------------------------------------------------
# harness | args (queue,size) | listener (on/off) | expected: pass, or a regex the error report must match
RUNS=(
  "ProducersLooper|DELI,1|on|pass"
  "ProducersLooper|NON_ATOMIC_PUSH,1|on|NoLostMessage|ExactlyOnce"
  "ProducersLooper|SWEEP_SKIPS_BACKLINKS,1|on|BackLinksConsistent"
  "RemoverVsDelivery|DELI,1|on|pass"
  "RemoverVsDelivery|DELIVER_WITHOUT_REMOVED_CAS,1|on|ExactlyOnce"
  "TraversalRacingUnlink|DELI,2|on|pass"
  "TraversalRacingUnlink|UNLINK_CLEARS_NEXT,2|on|TraversalComplete"
  "TraversalRacingUnlink|SINGLE_PASS_TRAVERSAL,2|on|Refinement"
  "TraversalRacingUnlink|DRAIN_KEEPS_DESCRIPTORS,2|on|GoneNodesUnlinkedAtRest"
  "QuitVsWaker|DELI|on|pass"
  "QuitVsWaker|TEARDOWN_WITHOUT_WAIT|on|NoUseAfterTeardown"
  "QuitVsWaker|QUIT_WITHOUT_WAKE|on|NotDeadlockedProperty"
  "QuitVsWaker|TEARDOWN_TAG_READ_THEN_WRITE|on|NoUseAfterTeardown|NotDeadlockedProperty"
  "QuitVsWaker|DELI,interrupt|on|pass"
  "QuitVsWaker|TEARDOWN_WAIT_ENDS_ON_INTERRUPT,interrupt|on|NoUseAfterTeardown"
  "SleepRacingPush|DELI,2|on|pass"
  "SleepRacingPush|LOST_WAKEUP,2|on|NotDeadlockedProperty"
  "BulkRemovalVsDelivery|DELI,atomic|on|pass"
  "BulkRemovalVsDelivery|BULK_REMOVAL_PER_MESSAGE,atomic|on|AtomicRemoval|ExactlyOnce"
  "BulkRemovalVsDelivery|DELI,throw|on|pass"
  "BulkRemovalVsDelivery|REMOVAL_KEEPS_PAYLOAD,throw|on|PayloadReleased"
  "UserCodeRemoval|DELI,flip|on|pass"
  "UserCodeRemoval|LOOPER_ASKS_PREDICATE,flip|on|UserCodeOnCaller|ExactlyOnce|NoLostMessage"
  "UserCodeRemoval|DELI,block|on|pass"
  "UserCodeRemoval|LOOPER_ASKS_PREDICATE,block|on|UserCodeOnCaller|NotDeadlockedProperty"
  "SleepBehindBarrier|DELI,async|on|pass"
  "SleepBehindBarrier|ASYNC_HELD_BY_BARRIER,async|on|NotDeadlockedProperty"
  "SleepBehindBarrier|DELI,front|on|pass"
  "SleepBehindBarrier|WAKE_BY_CLOCK,front|on|NotDeadlockedProperty"
  "SleepBehindBarrier|DELI,remove|on|pass"
  "SleepBehindBarrier|BARRIER_REMOVAL_WITHOUT_WAKE,remove|on|NotDeadlockedProperty"
  "InterruptedLooper|DELI|on|pass"
  "InterruptedLooper|PARK_KEEPS_INTERRUPT|on|InterruptsIgnored"
  "QuitSafelyVsTick|DELI,10|on|pass"
  "QuitSafelyVsTick|DELI,0|on|pass"
  "QuitSafelyVsTick|QUIT_TIME_BEFORE_TOP,10|on|Refinement"
  "QuitSafelyBesideRemoval|DELI|on|pass"
  "QuitSafelyBesideRemoval|DUE_BY_FORGETS_QUIT|on|Refinement"
  # Ownership: a second remover, removal against quit.
  "SecondRemover|DELI,message|on|pass"
  "SecondRemover|RESOLVE_TAKES_LATEST_OWNER,message|on|RemovalReturnsItsSet|ExactlyOnce"
  "SecondRemover|DELI,barrier|on|pass"
  "SecondRemover|BARRIER_REMOVED_TWICE,barrier|on|Refinement"
  "RemovalVsQuit|DELI,quit|on|pass"
  "RemovalVsQuit|RESOLVE_TAKES_LATEST_OWNER,quit|on|RemovalReturnsItsSet"
  "RemovalVsQuit|BULK_REMOVAL_PER_MESSAGE,quit|on|ExactlyOnce"
  "RemovalVsQuit|DELI,safely|on|pass"
  "RemovalVsQuit|QUIT_OWNS_NOTHING,safely|on|Refinement"
  "RemovalVsQuit|DESCRIPTOR_FORGETS_QUIT,safely|on|NoPushAfterQuit"
  # The listener demonstration: the lost update is found with the listener only; NON_ATOMIC_PUSH is found
  # without it (its read and write of the volatile `top` are scheduling points of their own).
  "BarrierTokens|DELI|on|pass"
  "BarrierTokens|BARRIER_TOKEN_READ_THEN_WRITE|on|Refinement"
  "BarrierTokens|BARRIER_TOKEN_READ_THEN_WRITE|off|pass"
  "ProducersLooper|NON_ATOMIC_PUSH,1|off|NoLostMessage|ExactlyOnce"
)
# Seconds the largest DELI runs need, measured on 2 cores with two JPF runs side by side (2026-11-27): the ownership
# harnesses completed in about 13 minutes (3.7 million states each; up to 25 min 22 s with JPF at half a core beside
# jcstress and TLC), RemoverVsDelivery in 8 (2.2 million), ProducersLooper in 4 min 45 s (1.1 million: over 300 s
# when TLC shares the cores). A run's budget is this or JPF_TIMEOUT, whichever is larger.
declare -A RUN_BUDGET=(
  ["ProducersLooper DELI,1"]=600
  ["RemoverVsDelivery DELI,1"]=900
  ["SecondRemover DELI,message"]=1800
  ["SecondRemover DELI,barrier"]=1800
  ["RemovalVsQuit DELI,quit"]=1800
)

selected=()
for run in "${RUNS[@]}"; do
  IFS='|' read -r harness args _ <<< "$run"
  if [[ -z "$JPF_ONLY" || "$harness $args" =~ $JPF_ONLY ]]; then
    selected+=("$run")
  fi
done

# ---- JUnit XML: written on every exit; a script stopped early (a build failure) leaves an error case ----------
# shellcheck source=jpf/bin/junit.sh
. "$ROOT/jpf/bin/junit.sh"
junit_begin "$TARGET/jpf-junit.xml" jpf
finished=0
on_exit() {
  local rc=$?
  if [[ $finished == 0 ]]; then
    junit_case jpf run-jpf.sh 0 error "run-jpf.sh stopped before its end (exit $rc)" \
      "see its output; the runs reported before this one are complete"
  fi
  junit_end
}
trap on_exit EXIT

# ---- locate JPF -------------------------------------------------------------------------------------------
jpf_home=
jpf_from=JPF_HOME
if [[ -n "${JPF_HOME:-}" ]]; then
  jpf_home=$JPF_HOME
elif [[ -f "$HOME/.jpf/site.properties" ]]; then
  jpf_home=$(sed -n 's/^[[:space:]]*jpf-core[[:space:]]*=[[:space:]]*//p' "$HOME/.jpf/site.properties" | tail -n 1)
  jpf_home=${jpf_home%%[[:space:]]}
  jpf_home=${jpf_home//\$\{user.home\}/$HOME}
  jpf_from="$HOME/.jpf/site.properties"
fi
if [[ -z "$jpf_home" ]]; then
  rm -f "$TARGET/jpf-results.md" # a skipped run must not leave an earlier run's verdicts behind
  why="no Java PathFinder found; set JPF_HOME to a built jpf-core (java-17 branch) or add 'jpf-core = /path/to/jpf-core' to ~/.jpf/site.properties (see jpf/README.md)"
  for run in "${selected[@]}"; do
    IFS='|' read -r harness args listener _ <<< "$run"
    junit_case "jpf.$harness" "$args listener $listener" 0 skipped "SKIPPED (nothing checked): $why" ""
  done
  finished=1
  echo "make jpf: SKIPPED (nothing checked): $why; ${#selected[@]} runs reported skipped in ${TARGET#"$ROOT"/}/jpf-junit.xml"
  exit 0
fi
for jar in jpf.jar RunJPF.jar; do
  if [[ ! -f "$jpf_home/build/$jar" ]]; then
    echo "make jpf: FAILED: JPF at '$jpf_home' (from $jpf_from) has no build/$jar; build jpf-core there first (see jpf/README.md)" >&2
    exit 2
  fi
done

# ---- build: impl (jar + test-jar with the mutants), the harnesses, then what needs JPF's jars ---------------
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  # $MVN unquoted: a command with its options, as make passes it (MVN="mvn -o")
  $MVN -B -ntp -q -Dstyle.color=never -f "$ROOT/pom.xml" -pl impl -am install -DskipTests
  $MVN -B -ntp -q -Dstyle.color=never -f "$MODULE/pom.xml" package -DskipTests
fi
rm -rf "$TARGET/jpf-classes" "$TARGET/jpf-listener" "$TARGET/jpf-logs"
mkdir -p "$TARGET/jpf-classes" "$TARGET/jpf-listener" "$TARGET/jpf-logs"
# JPF's FieldAccess: compiled against impl, first on JPF's class path (config/common.properties).
javac --release 17 -Xlint:all -Werror -cp "$TARGET/jpf-deps/deliqueue-impl.jar" -d "$TARGET/jpf-classes" \
  "$MODULE/src/jpf/java/org/deliqueue/FieldAccess.java"
# The listener: compiled against the installed JPF.
javac --release 17 -Xlint:all -cp "$jpf_home/build/jpf.jar" -d "$TARGET/jpf-listener" \
  "$MODULE"/src/listener/java/org/deliqueue/jpf/listener/*.java
plain_cp="$TARGET/classes:$TARGET/jpf-deps/deliqueue-impl.jar:$TARGET/jpf-deps/deliqueue-impl-tests.jar"
# Each mutant's queue class (JPF cannot run Mutant's enum lambdas: see JpfSteps.mutantByClass).
declare -A mutant_class
while read -r name cls; do mutant_class[$name]=$cls; done < <(java -cp "$plain_cp" org.deliqueue.jpf.MutantClasses)

results=$TARGET/jpf-results.md
{
  echo "| harness | queue,size | listener | expected | result | states | transitions | time | verdict |"
  echo "|---|---|---|---|---|---|---|---|---|"
} > "$results"
printf '%-22s %-30s %-4s %-8s %-70s %9s %11s %8s  %s\n' harness queue,size lsnr expected result states transitions time verdict
unexpected=0
ran=0
for run in "${selected[@]}"; do
  IFS='|' read -r harness args listener expected <<< "$run"
  ran=$((ran + 1))
  queue=${args%%,*}
  jpf_args=$args
  if [[ -n "${mutant_class[$queue]:-}" ]]; then
    jpf_args="$queue@${mutant_class[$queue]}${args#"$queue"}"
  fi
  # JPF's own BudgetChecker bounds the search in time and still prints the statistics; `timeout` is the backstop.
  budget=gov.nasa.jpf.listener.BudgetChecker
  if [[ $listener == off ]]; then
    extra=("+listener=$budget")
  else
    extra=("+listener+=,$budget")
  fi
  log=$TARGET/jpf-logs/$harness-${args//,/-}-listener-$listener.log
  seconds=${RUN_BUDGET["$harness $args"]:-0}
  if (( seconds < JPF_TIMEOUT )); then
    seconds=$JPF_TIMEOUT
  fi
  rc=0
  timeout "$((seconds + 120))" java "-Xmx$JPF_XMX" -jar "$jpf_home/build/RunJPF.jar" \
    "$MODULE/config/$harness.jpf" "+target.args=$jpf_args" "${extra[@]}" "+budget.max_time=$((seconds * 1000))" \
    > "$log" 2>&1 || rc=$?

  # The report: "no errors detected", or "error 1" followed by the property and its message.
  states=$(sed -n 's/^states: *new=\([0-9]*\),visited=\([0-9]*\).*/\1/p' "$log" | tail -n 1)
  visited=$(sed -n 's/^states: *new=\([0-9]*\),visited=\([0-9]*\).*/\2/p' "$log" | tail -n 1)
  time=$(sed -n 's/^elapsed time: *//p' "$log" | tail -n 1)
  transitions=
  if [[ -n "$states" && -n "$visited" ]]; then
    transitions=$((states + visited))
  fi
  errblock=$(sed -n '/^=* error 1$/,/^=* snapshot/p' "$log" | sed '1d;$d')
  if [[ $rc == 124 ]]; then
    result="TIMEOUT: killed after $((seconds + 120))s"
  elif grep -q '^=* search constraint' "$log"; then
    result="INCOMPLETE: $(sed -n '/^=* search constraint/{n;p;}' "$log" | head -n 1)" # never a pass
  elif grep -q '^no errors detected' "$log" && [[ $rc == 0 ]]; then
    result="no errors"
  elif [[ -n "$errblock" ]]; then
    prop=$(sed -n '1s/.*\.//p' <<< "$errblock")
    detail=$(sed -n '2p' <<< "$errblock" | sed 's/^java\.lang\.AssertionError: //; s/^java\.lang\.//')
    result="$prop: $detail"
  else
    result="JPF failed (rc $rc), see log"
  fi
  verdict=ok
  if [[ $expected == pass ]]; then
    [[ $result == "no errors" ]] || verdict=UNEXPECTED
  elif [[ -z "$errblock" ]] || ! grep -Eq "$expected" <<< "$errblock"; then
    verdict=UNEXPECTED
  fi
  if [[ $verdict != ok ]]; then
    unexpected=$((unexpected + 1))
  fi
  short=${result:0:70}
  printf '%-22s %-30s %-4s %-8s %-70s %9s %11s %8s  %s\n' "$harness" "$args" "$listener" \
    "$([[ $expected == pass ]] && echo pass || echo error)" "$short" "${states:--}" "${transitions:--}" \
    "${time:--}" "$verdict$([[ $verdict != ok ]] && echo " (log: ${log#"$ROOT"/})")"
  echo "| $harness | $args | $listener | $([[ $expected == pass ]] && echo 'no error' || echo "error ~ \`${expected//|/ or }\`") | ${short//|/\\|} | ${states:--} | ${transitions:--} | ${time:--} | $verdict |" >> "$results"

  # The JUnit case: the verdict above, with what went wrong in the message (the violated obligation first).
  seconds=0
  if [[ $time =~ ^([0-9]+):([0-9]+):([0-9]+)$ ]]; then
    seconds=$((10#${BASH_REMATCH[1]} * 3600 + 10#${BASH_REMATCH[2]} * 60 + 10#${BASH_REMATCH[3]}))
  fi
  details="states ${states:--}, transitions ${transitions:--}, time ${time:--}; log: ${log#"$ROOT"/}
$errblock"
  jpf_junit_verdict "$expected" "$result" "$verdict"
  junit_case "jpf.$harness" "$args listener $listener" "$seconds" "$kind" "$message" "$details"
done

finished=1
if [[ $ran == 0 ]]; then
  junit_case jpf run-jpf.sh 0 error "JPF_ONLY='$JPF_ONLY' matched no run" ""
  echo "make jpf: FAILED: JPF_ONLY='$JPF_ONLY' matched no run" >&2
  exit 2
fi
echo "$(grep -h -m 1 '^JavaPathfinder' "$TARGET"/jpf-logs/*.log | head -n 1 | cut -d' ' -f1-6) at $jpf_home; $ran runs; table in ${results#"$ROOT"/}; JUnit XML in ${TARGET#"$ROOT"/}/jpf-junit.xml; logs in jpf/target/jpf-logs/"
if [[ $unexpected != 0 ]]; then
  echo "make jpf: FAILED: $unexpected of $ran runs had an unexpected result" >&2
  exit 1
fi
echo "make jpf: OK: every DELI run found no error, every mutant run found its violation"
