# Shared by the CLI test scripts (sourced, after TMP is set): counted failures, and the checks
# of a command's exit status and of its one error line. Each command's stdout and stderr are
# kept as $TMP/NAME.out and $TMP/NAME.err.
FAILURES=0
fail() { echo "FAIL: $*"; FAILURES=$((FAILURES + 1)); }
pass() { echo "ok:   $*"; }

run() {  # run NAME EXPECTED_STATUS COMMAND...
  local name=$1 expected=$2; shift 2
  "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  local status=$?
  if [ "$status" -ne "$expected" ]; then
    fail "$name: exit status $status, expected $expected"
    sed 's/^/    /' "$TMP/$name.out" "$TMP/$name.err" | head -20
    return 1
  fi
  pass "$name: exit status $status"
}

one_error_line() {  # one_error_line NAME PATTERN
  local lines
  lines=$(wc -l <"$TMP/$1.err")
  if [ "$lines" -eq 1 ] && grep -q -- "$2" "$TMP/$1.err"; then pass "$1: one line naming $2"
  else fail "$1: expected one error line with '$2', got:"; sed 's/^/    /' "$TMP/$1.err"; fi
}
