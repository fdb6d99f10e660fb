#!/usr/bin/env bash
# quiet_log.sh WGK: Dawn's messages go through wgk's log: nothing from Dawn on stderr by default,
# and whatever Dawn says appears as "wgk: info: [dawn] ..." with --verbose or WGK_LOG=info.
set -u
wgk=$1
err=$("$wgk" devices 2>&1 >/dev/null)
grep -qiE "^Warning:|artificially" <<<"$err" && { echo "FAIL: Dawn's text on stderr by default:"; echo "$err"; exit 1; }
loud=$(WGK_LOG=info "$wgk" devices 2>&1 >/dev/null)
verbose=$("$wgk" devices --verbose 2>&1 >/dev/null)
# Dawn may say nothing on some drivers; when it does, it must come through the log.
if grep -qi "dawn" <<<"$loud$verbose"; then
  grep -q "^wgk: info: \[dawn\] " <<<"$loud" || { echo "FAIL: WGK_LOG=info: $loud"; exit 1; }
  grep -q "^wgk: info: \[dawn\] " <<<"$verbose" || { echo "FAIL: --verbose: $verbose"; exit 1; }
fi
grep -qiE "^Warning:" <<<"$loud" && { echo "FAIL: raw Dawn text with WGK_LOG=info: $loud"; exit 1; }
echo "quiet log: OK"
