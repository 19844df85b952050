#!/usr/bin/env bash
# Checks jpf/bin/junit.sh without JPF: every way a JPF run can end gets the verdict it must (a DELI run that finds a
# violation and a mutant JPF misses are failures, a timeout is an error, a run that did not happen is skipped), the
# XML counts them, and escapes what JPF prints. Exits 1 on the first wrong answer. Usage: bash jpf/bin/junit-selftest.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=jpf/bin/junit.sh
. "$ROOT/jpf/bin/junit.sh"

fail() { echo "junit-selftest: FAILED: $*" >&2; exit 1; }

# expected | result | verdict (as run-jpf.sh decides them) | kind | message it must start with
CASES=(
  "pass|no errors|ok|pass|no errors detected"
  "ExactlyOnce|gov.nasa.jpf.vm.NoUncaughtExceptionsProperty: ExactlyOnce: m1 delivered twice|ok|pass|negative control: JPF reports"
  "pass|NoUncaughtExceptionsProperty: NoLostMessage: m1 <lost> & \"gone\"|UNEXPECTED|failure|violated: NoUncaughtExceptionsProperty: NoLostMessage"
  "NoUseAfterTeardown|no errors|UNEXPECTED|failure|mutant not caught: JPF found no error; expected an error matching 'NoUseAfterTeardown'"
  "Refinement|NoUncaughtExceptionsProperty: TraversalComplete: x not visited|UNEXPECTED|failure|mutant caught by another property"
  "pass|TIMEOUT: killed after 420s|UNEXPECTED|error|TIMEOUT"
  "TraversalComplete|INCOMPLETE: max time exceeded|UNEXPECTED|error|INCOMPLETE"
  "pass|JPF failed (rc 1), see log|UNEXPECTED|error|JPF failed"
)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
junit_begin "$out/jpf-junit.xml" jpf
n=0
for c in "${CASES[@]}"; do
  IFS='|' read -r expected result verdict want_kind want_message <<< "$c"
  jpf_junit_verdict "$expected" "$result" "$verdict"
  [[ $kind == "$want_kind" ]] || fail "'$result' (expected $expected, $verdict): kind $kind, not $want_kind"
  [[ $message == "$want_message"* ]] || fail "'$result': message '$message' does not start with '$want_message'"
  n=$((n + 1))
  junit_case jpf.Selftest "case $n" 1 "$kind" "$message" "details of case $n"
done
junit_case jpf.Selftest "not run" 0 skipped "SKIPPED (nothing checked): no JPF" ""
if junit_case jpf.Selftest "bad" 0 passed "" "" 2> /dev/null; then
  fail "an unknown kind was accepted"
fi
junit_end

xml=$out/jpf-junit.xml
head -n 2 "$xml" | grep -q '<testsuite name="jpf" tests="9" failures="3" errors="3" skipped="1" time="8.0">' ||
  fail "suite counts: $(sed -n 2p "$xml")"
[[ $(grep -c '<testcase ' "$xml") == 9 ]] || fail "not 9 test cases"
grep -q 'message="violated: NoUncaughtExceptionsProperty: NoLostMessage: m1 &lt;lost&gt; &amp; &quot;gone&quot;"' "$xml" ||
  fail "the failure message is not escaped"
grep -q '<skipped message="SKIPPED (nothing checked): no JPF"/>' "$xml" || fail "the skipped case"
grep -q '^    <failure message="violated: [^"]*">details of case 3</failure>$' "$xml" || fail "the failure element"
echo "junit-selftest: OK: $n verdicts, the skipped case, the counts and the escaping"
