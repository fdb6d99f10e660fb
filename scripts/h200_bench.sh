#!/usr/bin/env bash
# The benchmark run on the H200, in ONE device-tool call (docs/benchmarks.md, docs/h200.md):
#   run(command="bash scripts/h200_bench.sh", carry=[".gl", "out/h200", "out/peers"], kind="nvidia-h200")
# Needs, carried: .gl/ and out/h200/ (scripts/fetch_h200_debs.sh, scripts/build_h200.sh) and the
# torch peer script copied beforehand into an ignored folder (default out/peers/torch_peers.py;
# it is never committed: mkdir -p out/peers && cp ../shared/peers/torch_peers.py out/peers/).
#   bash scripts/h200_bench.sh [PEERS_SCRIPT]
# Writes to $OUT (else out/bench/): bench-h200.json (evidence), bench-table.txt, peers.json,
# report.html, performance.md, plus h200.log. Every package, every bench case, every eligible
# variant; budget about 6 minutes (bench <= 330 s, peers <= 200 s, each cut off by timeout).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
peers=${1:-$root/out/peers/torch_peers.py}
out=${OUT:-$root/out/bench}
mkdir -p "$out"
say() { printf 'h200_bench: %s\n' "$*" >&2; }
pkgs=(webgpu-kernels/ai.onnx.RMSNormalization webgpu-kernels/com.microsoft.FastGelu
      webgpu-kernels/com.microsoft.GemmaRotaryEmbedding)
rc=0

say "wgk bench ${pkgs[*]} --all-variants"
timeout 330 env OUT="$out" bash "$root/scripts/h200.sh" bench "${pkgs[@]}" --all-variants --offline \
  --json "$out/bench-h200.json" || rc=$?
[[ -f "$out/wgk.stdout" ]] && cp "$out/wgk.stdout" "$out/bench-table.txt"
[[ -f "$out/bench-h200.json" ]] || { say "no evidence written (exit $rc)"; exit $((rc ? rc : 1)); }

# torch peers (the image has torch and CUDA); it writes $OUT/peers.json itself.
if [[ -f "$peers" ]]; then
  say "torch peers: $peers"
  (cd "$out" && OUT="$out" timeout 200 python3 "$peers" > "$out/peers.stdout" 2> "$out/peers.log") ||
    say "peers failed (exit $?): see peers.log"
else
  say "no peer script at $peers: report without torch numbers"
fi
report=("$out/bench-h200.json" --html "$out/report.html" --markdown "$out/performance.md")
[[ -s "$out/peers.json" ]] && report+=(--peers "$out/peers.json")
OUT="$out" bash "$root/scripts/h200.sh" report "${report[@]}" || rc=1
say "exit $rc"
exit "$rc"
