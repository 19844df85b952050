# JUnit XML for run-jpf.sh (sourced, not run): one test case per JPF run, in the format of jcstress's runner
# (jcstress/target/jcstress-junit.xml): <testsuite name tests failures errors skipped time>, <properties>, then per
# case an optional <failure message>, <error message> or <skipped message> element and the details in <system-out>.
#
#   junit_begin FILE SUITE                              start a report (cases are kept in FILE.cases until written)
#   junit_case CLASS NAME SECONDS KIND MESSAGE DETAILS  KIND: pass | failure | error | skipped
#   junit_end                                           write FILE (idempotent: the EXIT trap may call it again)
#   jpf_junit_verdict EXPECTED RESULT VERDICT           sets kind and message for one run of run-jpf.sh
#
# A run that did not happen is "skipped" with the reason, never "pass". jpf/bin/junit-selftest.sh checks this file.

junit_file=
junit_suite=

junit_escape() { # XML text: & < > " ' escaped, control characters other than tab and newline dropped
  printf '%s' "$1" | tr -d '\000-\010\013\014\016-\037' |
    sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' -e "s/'/\&apos;/g"
}

junit_begin() {
  junit_file=$1
  junit_suite=$2
  mkdir -p "$(dirname "$junit_file")"
  : > "$junit_file.cases"
  : > "$junit_file.counts"
}

junit_case() {
  local class=$1 name=$2 seconds=$3 kind=$4 message=$5 details=$6
  case $kind in
    pass | failure | error | skipped) ;;
    *) echo "junit_case: unknown kind '$kind'" >&2; return 2 ;;
  esac
  {
    printf '  <testcase classname="%s" name="%s" time="%s">\n' "$(junit_escape "$class")" \
      "$(junit_escape "$name")" "${seconds:-0}"
    case $kind in
      failure | error) printf '    <%s message="%s">%s</%s>\n' "$kind" "$(junit_escape "$message")" \
        "$(junit_escape "$details")" "$kind" ;;
      skipped) printf '    <skipped message="%s"/>\n' "$(junit_escape "$message")" ;;
    esac
    printf '    <system-out>%s</system-out>\n  </testcase>\n' "$(junit_escape "$message
$details")"
  } >> "$junit_file.cases"
  printf '%s %s\n' "$kind" "${seconds:-0}" >> "$junit_file.counts"
}

junit_end() {
  [[ -n "$junit_file" && -f "$junit_file.cases" ]] || return 0
  local tests failures errors skipped time
  read -r tests failures errors skipped time < <(awk '{ n++; c[$1]++; t += $2 }
    END { printf "%d %d %d %d %.1f\n", n, c["failure"], c["error"], c["skipped"], t }' "$junit_file.counts")
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    printf '<testsuite name="%s" tests="%d" failures="%d" errors="%d" skipped="%d" time="%s">\n' \
      "$(junit_escape "$junit_suite")" "$tests" "$failures" "$errors" "$skipped" "$time"
    printf '  <properties><property name="os.arch" value="%s"/><property name="java.version" value="%s"/></properties>\n' \
      "$(uname -m)" "$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.version = //p')"
    cat "$junit_file.cases"
    echo '</testsuite>'
  } > "$junit_file"
  rm -f "$junit_file.cases" "$junit_file.counts"
}

# One JPF run's test case. EXPECTED: "pass" or the regex its error must match; RESULT: run-jpf.sh's result column
# ("no errors", "PROPERTY: detail", "TIMEOUT: ...", "INCOMPLETE: ...", "JPF failed ..."); VERDICT: ok or UNEXPECTED.
# Sets kind (pass | failure | error) and message (for a failure, the violated obligation or the missed one first).
jpf_junit_verdict() {
  local expected=$1 result=$2 verdict=$3
  if [[ $verdict == ok && $expected == pass ]]; then
    kind=pass message="no errors detected"
  elif [[ $verdict == ok ]]; then
    kind=pass message="negative control: JPF reports $result"
  elif [[ $result =~ ^(TIMEOUT|INCOMPLETE|JPF\ failed) ]]; then
    kind=error message="$result"
  elif [[ $expected == pass ]]; then
    kind=failure message="violated: $result"
  elif [[ $result == "no errors" ]]; then
    kind=failure message="mutant not caught: JPF found no error; expected an error matching '$expected'"
  else
    kind=failure message="mutant caught by another property: $result; expected an error matching '$expected'"
  fi
}
