#!/usr/bin/env bash
# wgk test shows progress on a terminal only (issue 29 item 3): under a pseudo-terminal (script(1))
# stderr gets "[###   ] i/n case" lines and every row still reaches stdout; piped, stderr gets no
# progress at all and stdout holds the header, one row per case and variant, and the summary.
#   progress_tty.sh WGK
set -euo pipefail
wgk=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pkg=webgpu-kernels/ai.onnx.Add
script -qec "$wgk --quiet test $pkg" /dev/null > "$tmp/tty.txt"
grep -aqE '\[#* *\] [0-9]+/[0-9]+ ' "$tmp/tty.txt" || { echo "no progress line on a terminal"; exit 1; }
"$wgk" --quiet test "$pkg" > "$tmp/out.txt" 2> "$tmp/err.txt"
if grep -qE '\] [0-9]+/[0-9]+|\[[0-9]+/[0-9]+\]' "$tmp/err.txt"; then
  echo "progress printed where stderr is not a terminal:"; head -3 "$tmp/err.txt"; exit 1
fi
rows=$(grep -cE '^(PASS|FAIL|SKIP|ERROR) ' "$tmp/out.txt")
tty_rows=$(grep -acE '(^|\r|K)(PASS|FAIL|SKIP|ERROR) ' "$tmp/tty.txt")
tail -1 "$tmp/out.txt" | grep -qE "^[0-9]+ passed, 0 failed" || { tail -1 "$tmp/out.txt"; exit 1; }
((rows > 0 && tty_rows == rows)) || { echo "rows: piped $rows, terminal $tty_rows"; exit 1; }
echo "PASS: progress on a terminal only; $rows rows either way"
