#!/usr/bin/env bash
# The benchmark run on the H200, in ONE device-tool call (docs/benchmarks.md, docs/h200.md):
#   run(command="bash scripts/h200_bench.sh", carry=[".gl", "out/h200", "out/peers"], kind="nvidia-h200")
# Needs, carried: .gl/ and out/h200/ (scripts/fetch_h200_debs.sh, scripts/build_h200.sh) and the
# torch peer script copied beforehand into an ignored folder (default out/peers/torch_peers.py;
# it is never committed: mkdir -p out/peers && cp ../shared/peers/torch_peers.py out/peers/).
#   bash scripts/h200_bench.sh [PEERS_SCRIPT]
# Writes to $OUT (else out/bench/): bench-h200.json (evidence), bench-table.txt, peers.json,
# report.html, performance.md, test-*.txt (wgk test --all-variants first; WGK_H200_TEST=0 skips
# it), clocks.csv (nvidia-smi clocks every 100 ms), tuning-h200.json and tune.txt (only with
# WGK_H200_TUNE=1: wgk tune on the cases tagged large), plus h200.log; the logs (clocks, tests,
# tune, peers' output, h200.log) end up in one logs.tar.gz. Every package, every bench
# case, every eligible variant; budget about 9 minutes (tests <= 3 x 150 s but about 1 minute in
# practice, bench <= 330 s, peers <= 200 s, each cut off by timeout).
# Decode chains (issue 14, docs/performance.md "Decode chains"): `wgk chain --full --out chain-h200.json`
# (every embedded package's decode cases and the decode step, unbatched / batched / replayed, pinned
# to CPUs ${WGK_H200_PIN:-4,5}) and its torch peers (tools/peers/torch_chain_peers.py: eager and CUDA
# graph, rows under "chains" in peers.json) run after the other peers, only while the call's budget
# (WGK_H200_BUDGET_S, default 470 s from the start) leaves at least 90 s; WGK_H200_CHAIN=0 skips
# them, WGK_H200_CHAIN=only runs nothing else (no tests, bench, tune or per-op peers: about 2 minutes).
# WGK_H200_PKGS="webgpu-kernels/ai.onnx.Add ..." replaces the package list (the default is the three
# seed packages; a run of all four would not fit one call). When ai.onnx.Add is in the list, its
# torch peers (tools/peers/torch_add_peers.py, in the repository: nothing to carry) are added to
# peers.json, after the per-op peer script's rows when that one is carried too; likewise
# ai.onnx.Softmax's (tools/peers/torch_softmax_peers.py) and ai.onnx.MatMul's
# (tools/peers/torch_matmul_peers.py: torch.matmul on cuBLAS, f16 and f32 with TF32 off, TFLOPS).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
peers=${1:-$root/out/peers/torch_peers.py}
out=${OUT:-$root/out/bench}
mkdir -p "$out"
say() { printf 'h200_bench: %s\n' "$*" >&2; }
read -r -a pkgs <<< "${WGK_H200_PKGS:-webgpu-kernels/ai.onnx.RMSNormalization webgpu-kernels/com.microsoft.FastGelu webgpu-kernels/com.microsoft.GemmaRotaryEmbedding}"
rc=0
chain=${WGK_H200_CHAIN:-1}
budget=${WGK_H200_BUDGET_S:-470}

# Clock log beside the run (reading clocks changes nothing): SM/memory clocks and load every
# 100 ms, to tell a slow kernel from a GPU that had dropped to idle clocks.
clocks_pid=
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv \
    -lms 100 > "$out/clocks.csv" 2>/dev/null &
  clocks_pid=$!
fi
stop_clocks() { [[ -n "$clocks_pid" ]] && kill "$clocks_pid" 2>/dev/null; }
trap stop_clocks EXIT

if [[ "$chain" == only ]]; then
  say "WGK_H200_CHAIN=only: decode chains and their peers alone"
elif [[ "${WGK_H200_TEST:-1}" == 1 ]]; then
  say "wgk test --all-variants (correctness of every variant on this GPU first)"
  for p in "${pkgs[@]}"; do
    timeout 150 env OUT="$out" bash "$root/scripts/h200.sh" test "$p" --all-variants --offline \
      > "$out/test-$(basename "$p").txt" 2>&1 || { say "wgk test $p failed: see test-$(basename "$p").txt"; rc=1; }
    tail -n 3 "$out/test-$(basename "$p").txt" >&2
  done
fi

if [[ "$chain" != only ]]; then
say "wgk bench ${pkgs[*]} --all-variants"
timeout 330 env OUT="$out" bash "$root/scripts/h200.sh" bench "${pkgs[@]}" --all-variants --offline \
  --out "$out/bench-h200.json" || rc=$?
[[ -f "$out/wgk.stdout" ]] && cp "$out/wgk.stdout" "$out/bench-table.txt"
[[ -f "$out/bench-h200.json" ]] || { say "no evidence written (exit $rc)"; exit $((rc ? rc : 1)); }

# Optional: wgk tune on the large cases (variants and workgroup sizes) -> tuning-h200.json.
if [[ "${WGK_H200_TUNE:-0}" == 1 ]]; then
  say "wgk tune --tag large"
  timeout 240 env OUT="$out" bash "$root/scripts/h200.sh" tune "${pkgs[@]}" --tag large --offline \
    --out "$out/tuning-h200.json" > "$out/tune.txt" 2>&1 || say "tune failed (exit $?): see tune.txt"
fi

# torch peers (the image has torch and CUDA); it writes $OUT/peers.json itself.
if [[ -f "$peers" ]]; then
  say "torch peers: $peers"
  (cd "$out" && OUT="$out" timeout 200 python3 "$peers" > "$out/peers.stdout" 2> "$out/peers.log") ||
    say "peers failed (exit $?): see peers.log"
else
  say "no peer script at $peers: report without its torch numbers"
fi
if [[ " ${pkgs[*]} " == *" webgpu-kernels/ai.onnx.Add "* ]]; then
  say "torch peers of ai.onnx.Add"
  (cd "$out" && OUT="$out" timeout 240 python3 "$root/tools/peers/torch_add_peers.py" \
    >> "$out/peers.stdout" 2>> "$out/peers.log") || say "Add peers failed (exit $?): see peers.log"
fi
if [[ " ${pkgs[*]} " == *" webgpu-kernels/ai.onnx.Softmax "* ]]; then
  say "torch peers of ai.onnx.Softmax"
  (cd "$out" && OUT="$out" timeout 240 python3 "$root/tools/peers/torch_softmax_peers.py" \
    >> "$out/peers.stdout" 2>> "$out/peers.log") || say "Softmax peers failed (exit $?): see peers.log"
fi
if [[ " ${pkgs[*]} " == *" webgpu-kernels/ai.onnx.MatMul "* ]]; then
  say "torch peers of ai.onnx.MatMul (cuBLAS)"
  (cd "$out" && OUT="$out" timeout 240 python3 "$root/tools/peers/torch_matmul_peers.py" \
    >> "$out/peers.stdout" 2>> "$out/peers.log") || say "MatMul peers failed (exit $?): see peers.log"
fi
fi  # not WGK_H200_CHAIN=only

# Decode chains and their torch peers, within what is left of the call's budget.
if [[ "$chain" != 0 ]]; then
  left=$((budget - SECONDS))
  if ((left < 90)); then
    say "decode chains skipped: ${left}s of the ${budget}s budget left (WGK_H200_CHAIN=only runs them alone)"
  else
    pin=()
    command -v taskset >/dev/null && [[ -n "${WGK_H200_PIN:-4,5}" ]] && pin=(taskset -c "${WGK_H200_PIN:-4,5}")
    say "wgk chain (${left}s left)"
    timeout $((left - 60 < 150 ? left - 60 : 150)) env OUT="$out" "${pin[@]}" bash "$root/scripts/h200.sh" chain \
      --full --offline --out "$out/chain-h200.json" || { say "wgk chain failed (exit $?)"; rc=1; }
    [[ -f "$out/wgk.stdout" ]] && cp "$out/wgk.stdout" "$out/chain-table.txt"
    left=$((budget - SECONDS))
    if ((left >= 30)); then
      say "torch chain peers (${left}s left)"
      (cd "$out" && OUT="$out" timeout $((left - 15 < 120 ? left - 15 : 120)) python3 \
        "$root/tools/peers/torch_chain_peers.py" >> "$out/peers.stdout" 2>> "$out/peers.log") ||
        say "chain peers failed (exit $?): see peers.log"
    fi
  fi
fi
report=(--html "$out/report.html" --markdown "$out/performance.md")
[[ -f "$out/bench-h200.json" ]] && report+=("$out/bench-h200.json")
[[ -f "$out/chain-h200.json" ]] && report+=("$out/chain-h200.json")
[[ -s "$out/peers.json" ]] && report+=(--peers "$out/peers.json")
OUT="$out" bash "$root/scripts/h200.sh" report "${report[@]}" || rc=1
# The device tool brings back only a few files: the logs travel as one archive.
stop_clocks
logs=()
for f in "$out"/clocks.csv "$out"/test-*.txt "$out"/tune.txt "$out"/peers.stdout "$out"/peers.log \
         "$out"/h200.log "$out"/wgk.stdout; do
  [[ -f "$f" ]] && logs+=("$(basename "$f")")
done
if ((${#logs[@]})) && tar -czf "$out/logs.tar.gz" -C "$out" "${logs[@]}"; then
  (cd "$out" && rm -f "${logs[@]}")
fi
say "exit $rc"
exit "$rc"
