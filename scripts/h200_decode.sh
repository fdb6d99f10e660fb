#!/usr/bin/env bash
# Issue 25 on the H200, one device call (docs/performance.md, "Decode as users write it"):
#   run(command="tar -xJf out/h200pack.tar.xz && bash scripts/h200_decode.sh", carry=[".gl", "out/h200pack.tar.xz"])
# Steps, each cut off by timeout and by the overall budget (WGK_DECODE_BUDGET_S, default 280 s):
#   1. wgk chain --full --process-start (every decode case of every package and the decode step:
#      unbatched, batched, replayed, the natural modes, warm call, call+wait; then a fresh `wgk run`
#      process of a small FastGelu case, cold and warm pipeline cache), deferred calls on (the
#      default), not pinned (users do not pin); WGK_DECODE_CALLS (500) calls, 3 repetitions.
#   2. the same chain with --no-defer on Add and ArgMax only (single calls submitted one by one).
#   3. `wgk overhead --processes 5`: the spread of the per-call host cost across fresh processes.
# Writes to $OUT (else out/decode/): chain-defer.json, chain-nodefer.json, chain-table.txt,
# overhead.txt, logs.tar.gz.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/decode}
mkdir -p "$out"
budget=${WGK_DECODE_BUDGET_S:-280}
say() { printf 'h200_decode: %s\n' "$*" >&2; }
left() { echo $((budget - SECONDS)); }
cap() { local l=$(($(left) - 10)); ((l < $1)) && echo $((l > 5 ? l : 5)) || echo "$1"; }
h200() { env OUT="$out" bash "$root/scripts/h200.sh" "$@"; }
export WGK_PACKAGES="$root/packages"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 \
  > "$out/clocks.csv" 2>/dev/null &
cpid=$!
rc=0
: > "$out/chain-table.txt"
calls=${WGK_DECODE_CALLS:-500}
say "1/3 wgk chain --full --process-start ($(left)s left)"
rm -f "$out/wgk.stdout"
timeout "$(cap 200)" env OUT="$out" bash "$root/scripts/h200.sh" chain --full --process-start --offline \
  --calls "$calls" --repeat 3 --out "$out/chain-defer.json" || { say "chain exit $?"; rc=1; }
[[ -f "$out/wgk.stdout" ]] && { echo "== chain --full --process-start"; cat "$out/wgk.stdout"; } >> "$out/chain-table.txt"

say "2/3 wgk chain --no-defer, Add and ArgMax ($(left)s left)"
rm -f "$out/wgk.stdout"
timeout "$(cap 60)" env OUT="$out" bash "$root/scripts/h200.sh" chain webgpu-kernels/ai.onnx.Add \
  webgpu-kernels/ai.onnx.ArgMax --full --no-step --no-defer --offline --calls "$calls" --repeat 3 \
  --out "$out/chain-nodefer.json" || { say "chain --no-defer exit $?"; rc=1; }
[[ -f "$out/wgk.stdout" ]] && { echo "== chain --no-defer"; cat "$out/wgk.stdout"; } >> "$out/chain-table.txt"

say "3/3 wgk overhead --processes 5 ($(left)s left)"
rm -f "$out/wgk.stdout"
timeout "$(cap 60)" env OUT="$out" bash "$root/scripts/h200.sh" overhead --offline --processes 5 --calls 500 \
  > /dev/null 2>&1 || { say "overhead exit $?"; rc=1; }
[[ -f "$out/wgk.stdout" ]] && cp "$out/wgk.stdout" "$out/overhead.txt"
kill $cpid 2>/dev/null
logs=()
for f in clocks.csv h200.log wgk.stdout; do [[ -f "$out/$f" ]] && logs+=("$f"); done
if ((${#logs[@]})) && tar -czf "$out/logs.tar.gz" -C "$out" "${logs[@]}"; then
  (cd "$out" && rm -f "${logs[@]}")
fi
say "exit $rc after ${SECONDS}s"
exit "$rc"
