#!/usr/bin/env bash
# help_all.sh WGK: `wgk --help` and `wgk SUB --help` for every subcommand it lists exit 0 and print
# a usage line; an unknown subcommand is a usage error (exit 2).
set -u
wgk=$1
subs=$("$wgk" --help | awk '/^Subcommands:/ {on = 1; next} on && NF {print $1}')
[[ -n $subs ]] || { echo "FAIL: no subcommands listed by wgk --help"; exit 1; }
n=0
for sub in $subs; do
  out=$("$wgk" "$sub" --help 2>&1)
  rc=$?
  if [[ $rc != 0 ]] || ! grep -q "Usage:" <<<"$out"; then
    echo "FAIL: wgk $sub --help exited $rc"; echo "$out"; exit 1
  fi
  n=$((n + 1))
done
"$wgk" no-such-command >/dev/null 2>&1
rc=$?
[[ $rc == 2 ]] || { echo "FAIL: unknown subcommand exited $rc, want 2"; exit 1; }
echo "PASS: --help of $n subcommands ($(echo $subs)) exits 0; unknown subcommand exits 2"
