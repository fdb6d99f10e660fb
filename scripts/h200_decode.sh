#!/usr/bin/env bash
# Issue 25 on the H200, one device call (docs/performance.md, "Decode as users write it"):
#   run(command="tar -xJf out/h200pack.tar.xz && bash scripts/h200_decode.sh", carry=[".gl", "out/h200pack.tar.xz"])
# Steps, each cut off by timeout and by the overall budget (WGK_DECODE_BUDGET_S, default 330 s):
#   1. wgk chain --full (every decode case of every package and the decode step: unbatched, batched,
#      replayed, the natural modes, warm call, call+wait), deferred calls on (the default), then with
#      --no-defer, in two fresh processes, not pinned (users do not pin).
#   2. process start: `wgk run` of a small FastGelu case in WGK_DECODE_RUNS (5) fresh processes, wall
#      time each, with the pipeline cache of an empty folder (cold) and then of the folder the first
#      process left (warm; the same as cold where this build has no persistent pipeline cache).
#   3. `wgk overhead` in 5 fresh processes: the spread of the per-call host cost across processes.
# Writes to $OUT (else out/decode/): chain-defer.json, chain-nodefer.json, chain-table.txt,
# start.txt, overhead.txt, logs.tar.gz.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/decode}
mkdir -p "$out"
budget=${WGK_DECODE_BUDGET_S:-330}
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
for mode in defer nodefer; do
  flag=(); [[ $mode == nodefer ]] && flag=(--no-defer)
  say "1/3 wgk chain --full ${flag[*]} ($(left)s left)"
  rm -f "$out/wgk.stdout"
  timeout "$(cap 150)" env OUT="$out" bash "$root/scripts/h200.sh" chain --full --offline "${flag[@]}" \
    --out "$out/chain-$mode.json" || { say "chain $mode exit $?"; rc=1; }
  [[ -f "$out/wgk.stdout" ]] && { echo "== chain --full ${flag[*]}"; cat "$out/wgk.stdout"; } >> "$out/chain-table.txt"
done

say "2/3 process start ($(left)s left)"
python3 -c "import numpy as n; n.save('/tmp/x.npy', n.random.rand(4, 64).astype('float32'))" 2>/dev/null ||
  say "no numpy: start figures skipped"
if [[ -f /tmp/x.npy ]]; then
  h200 devices > /dev/null 2>&1  # unpack the loader once, outside the timings
  pc=$(mktemp -d)
  {
    echo "wgk run webgpu-kernels/com.microsoft.FastGelu --input X=x.npy (4x64 f32), wall ms per fresh process"
    for phase in cold warm; do
      [[ $phase == cold ]] && rm -rf "$pc" && mkdir -p "$pc"
      for i in $(seq "${WGK_DECODE_RUNS:-5}"); do
        [[ $phase == cold ]] && rm -rf "$pc" && mkdir -p "$pc"
        t0=$(date +%s%N)
        WGK_CACHE=$pc timeout 30 bash "$root/scripts/h200.sh" run webgpu-kernels/com.microsoft.FastGelu \
          --offline --input X=/tmp/x.npy --output-dir /tmp/run-out > /dev/null 2>&1
        r=$?
        echo "$phase $i $(( ($(date +%s%N) - t0) / 1000000 )) ms exit $r"
      done
    done
  } > "$out/start.txt" 2>&1
  cat "$out/start.txt" >&2
fi

say "3/3 wgk overhead in 5 fresh processes ($(left)s left)"
for i in 1 2 3 4 5; do
  (($(left) > 20)) || break
  rm -f "$out/wgk.stdout"
  timeout "$(cap 30)" env OUT="$out" bash "$root/scripts/h200.sh" overhead --offline --json > /dev/null 2>&1
  [[ -f "$out/wgk.stdout" ]] && { echo "== process $i"; cat "$out/wgk.stdout"; } >> "$out/overhead.txt"
done
kill $cpid 2>/dev/null
logs=()
for f in clocks.csv h200.log wgk.stdout; do [[ -f "$out/$f" ]] && logs+=("$f"); done
if ((${#logs[@]})) && tar -czf "$out/logs.tar.gz" -C "$out" "${logs[@]}"; then
  (cd "$out" && rm -f "${logs[@]}")
fi
say "exit $rc after ${SECONDS}s"
exit "$rc"
