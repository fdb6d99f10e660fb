#!/usr/bin/env bash
# expect.sh [--last REGEX] RC REGEX -- COMMAND...: runs COMMAND; passes when it exits with RC, its
# output (stdout + stderr) matches the extended regular expression REGEX and, with --last, its last
# non-empty stdout line matches that one too. REGEX is matched line by line (grep -E). A crash
# (signal) never passes.
set -u
last=
if [[ $1 == --last ]]; then last=$2; shift 2; fi
want_rc=$1 pattern=$2
shift 2
[[ $1 == -- ]] && shift
cmd="$*"
errfile=$(mktemp)
trap 'rm -f "$errfile"' EXIT
out=$("$@" 2>"$errfile")
rc=$?
all="$out"$'\n'"$(cat "$errfile")"
fail() {
  echo "FAIL: '$cmd' exited $rc (want $want_rc): $1"
  echo "$all"
  exit 1
}
[[ $rc == "$want_rc" ]] || fail "wrong exit code"
grep -Eq -- "$pattern" <<<"$all" || fail "output must match /$pattern/"
if [[ -n $last ]]; then
  line=$(grep -v '^[[:space:]]*$' <<<"$out" | tail -n 1)
  grep -Eq -- "$last" <<<"$line" || fail "last line '$line' must match /$last/"
fi
echo "PASS: exit $rc, output matches /$pattern/${last:+, last line matches /$last/}"
