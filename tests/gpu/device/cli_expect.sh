#!/usr/bin/env bash
# cli_expect.sh RC REGEX -- COMMAND...: runs COMMAND, passes when it exits with RC and its output
# (stdout + stderr) matches the extended regular expression REGEX. Also fails on a crash signal.
set -u
want_rc=$1 pattern=$2
shift 2
[[ $1 == -- ]] && shift
out=$("$@" 2>&1)
rc=$?
if [[ $rc != "$want_rc" ]] || ! grep -Eq -- "$pattern" <<<"$out"; then
  echo "FAIL: '$*' exited $rc (want $want_rc); output must match /$pattern/:"
  echo "$out"
  exit 1
fi
echo "PASS: exit $rc, output matches /$pattern/"
