#!/usr/bin/env bash
# stdout_full.sh WGK SRC: a command whose standard output cannot be written (/dev/full) fails with
# exit 5 and says so, whether its output is one line or many; the same command to /dev/null
# succeeds. (Before issue 28, `wgk lock > /dev/full` exited 0 and the lock file was empty.)
set -u
wgk=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export WGK_OFFLINE=1 WGK_CACHE=$tmp/cache WGK_PACKAGES=$src/packages
gelu=webgpu-kernels/com.microsoft.FastGelu
profile=$src/tests/data/profiles/h200.json
failed=0
for cmd in "lock $gelu" "info $gelu --json" "info $gelu" "card $gelu" "list" "digest $src/packages/$gelu --json" \
  "plan $gelu --input X=float32:2x8 --device-profile $profile --json" "cache list --json" "devices --json"; do
  # shellcheck disable=SC2086
  "$wgk" $cmd >/dev/null 2>"$tmp/err.null"
  ok=$?
  if [[ $cmd == devices* && $ok != 0 ]]; then echo "SKIP: wgk $cmd (no adapter here: $(tail -1 "$tmp/err.null"))"; continue; fi
  [[ $ok == 0 ]] || { echo "FAIL: wgk $cmd >/dev/null exited $ok: $(cat "$tmp/err.null")"; failed=1; continue; }
  # shellcheck disable=SC2086
  "$wgk" $cmd >/dev/full 2>"$tmp/err"
  rc=$?
  if [[ $rc == 5 ]] && grep -q "wgk: error \[io\]: cannot write to standard output" "$tmp/err"; then
    echo "PASS: wgk $cmd >/dev/full: exit 5, $(cat "$tmp/err")"
  else
    echo "FAIL: wgk $cmd >/dev/full exited $rc (want 5 and 'cannot write to standard output'): $(cat "$tmp/err")"
    failed=1
  fi
done
exit $failed
