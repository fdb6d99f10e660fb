#!/usr/bin/env bash
# Issue 27 roofline check on the H200, sized to run inside a bigger device call (about 300 s):
#   bash scripts/h200_roofline.sh        # from the repository root, on the device machine
# Needs, carried like scripts/h200_bench.sh: .gl/ and out/h200/ (scripts/fetch_h200_debs.sh,
# scripts/build_h200.sh). Uses the staged binary through scripts/h200.sh. Steps, each cut off by
# timeout and by the overall budget (WGK_ROOFLINE_BUDGET_S, default 300 s; the 2026-12-06 run showed
# each bench takes 70-120 s with its copy and FMA rooflines):
#   1. wgk bench, default path (the shipped nvidia-h200 table applies): every case tagged large of
#      Add, RMSNormalization, FastGelu and GemmaRotaryEmbedding, and every Softmax bench case
#      (large or not); bench measures the copy roofline of the same bytes in the same run.
#   2. wgk bench --all-variants on the large cases of Softmax and Add (every variant's GB/s).
#   3. torch peers of every Softmax bench shape (tools/peers/torch_softmax_peers.py: eager and
#      torch.compile; it starts peers.json with its own copy roofline).
#   4. wgk report of both evidence files with the peers.
# Writes to $OUT (else out/roofline/): roofline-default.json, roofline-variants.json,
# roofline-table.txt (both bench tables), peers.json, report.md, report.html, logs.tar.gz.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/roofline}
mkdir -p "$out"
budget=${WGK_ROOFLINE_BUDGET_S:-300}
say() { printf 'h200_roofline: %s\n' "$*" >&2; }
left() { echo $((budget - SECONDS)); }
# cap N: the smaller of N and what the budget leaves (minus a reserve for the report).
cap() { local l=$(($(left) - 15)); ((l < $1)) && echo $((l > 5 ? l : 5)) || echo "$1"; }
wgk() { env OUT="$out" bash "$root/scripts/h200.sh" "$@"; }
run_wgk() { local t=$1; shift; rm -f "$out/wgk.stdout"; timeout "$t" env OUT="$out" bash "$root/scripts/h200.sh" "$@"; }
P=webgpu-kernels
rc=0
: > "$out/roofline-table.txt"

say "1/4 bench default path: Softmax (all cases)"
run_wgk "$(cap 120)" bench $P/ai.onnx.Softmax --offline --out "$out/roofline-default.json" || { say "Softmax bench exit $?"; rc=1; }
[[ -f "$out/wgk.stdout" ]] && { echo "== default: Softmax (all)"; cat "$out/wgk.stdout"; } >> "$out/roofline-table.txt"

say "1/4 bench default path: large cases of Add, RMSNormalization, FastGelu, GemmaRotaryEmbedding"
run_wgk "$(cap 120)" bench $P/ai.onnx.Add $P/ai.onnx.RMSNormalization $P/com.microsoft.FastGelu \
  $P/com.microsoft.GemmaRotaryEmbedding --tag large --offline --out "$out/roofline-default.json" --append || { say "large bench exit $?"; rc=1; }
[[ -f "$out/wgk.stdout" ]] && { echo "== default: large"; cat "$out/wgk.stdout"; } >> "$out/roofline-table.txt"

if (($(left) > 100)); then
  say "2/4 bench --all-variants: large cases of Softmax and Add ($(left)s left)"
  run_wgk "$(cap 60)" bench $P/ai.onnx.Softmax $P/ai.onnx.Add --tag large --all-variants --offline \
    --out "$out/roofline-variants.json" || { say "all-variants bench exit $?"; rc=1; }
  [[ -f "$out/wgk.stdout" ]] && { echo "== all variants: large"; cat "$out/wgk.stdout"; } >> "$out/roofline-table.txt"
else
  say "2/4 bench --all-variants skipped: $(left)s left"
fi

if (($(left) > 25)); then
  say "3/4 torch peers of Softmax ($(left)s left)"
  (cd "$out" && OUT="$out" timeout "$(cap 50)" python3 "$root/tools/peers/torch_softmax_peers.py" \
    > "$out/peers.stdout" 2> "$out/peers.log") || say "Softmax peers exit $?: see peers.log"
else
  say "3/4 torch peers skipped: $(left)s left"
fi

say "4/4 report"
report=(--html "$out/report.html" --markdown "$out/report.md")
for f in roofline-default.json roofline-variants.json; do [[ -f "$out/$f" ]] && report+=("$out/$f"); done
[[ -s "$out/peers.json" ]] && report+=(--peers "$out/peers.json")
wgk report "${report[@]}" > /dev/null || rc=1
logs=()
for f in peers.stdout peers.log h200.log wgk.stdout; do [[ -f "$out/$f" ]] && logs+=("$f"); done
if ((${#logs[@]})) && tar -czf "$out/logs.tar.gz" -C "$out" "${logs[@]}"; then
  (cd "$out" && rm -f "${logs[@]}")
fi
say "exit $rc after ${SECONDS}s"
exit "$rc"
