#!/usr/bin/env bash
# Issue 27: tune Softmax's bench shapes on the device machine and measure the table against the
# default path and torch in the same call (about 420 s):
#   run(command="tar -xJf out/h200pack.tar.xz && bash scripts/h200_tune_softmax.sh",
#       carry=[".gl", "out/h200pack.tar.xz"])
# Steps, each cut off by timeout and by the overall budget (WGK_TUNE_BUDGET_S, default 420 s):
#   1. wgk tune (joint coordinate search, --budget WGK_TUNE_SETTINGS, default 24 settings) of the
#      cases in WGK_TUNE_CASES (default: the Softmax shapes behind torch.compile or the target), one
#      run per case into $OUT/tuning.json, so a run cut off by its timeout loses only its own case.
#   2. wgk bench --passes of the same cases twice: the default path and WGK_TUNING=tuning.json, with
#      the copy roofline of the same bytes in the same run.
#   3. the torch peers of every Softmax shape (eager and torch.compile).
# Writes to $OUT (else out/tune-softmax/): tuning.json, tune.log, bench-default.json,
# bench-tuned.json, bench-table.txt, peers.json and the logs (h200.log, peers.log): tar $OUT into one
# file in the call (the device tool brings back at most 8 files).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$root/out/tune-softmax}
mkdir -p "$out"
budget=${WGK_TUNE_BUDGET_S:-420}
settings=${WGK_TUNE_SETTINGS:-24}
say() { printf 'h200_tune_softmax: %s\n' "$*" >&2; }
left() { echo $((budget - SECONDS)); }
cap() { local l=$(($(left) - 10)); ((l < $1)) && echo $((l > 5 ? l : 5)) || echo "$1"; }
run_wgk() { local t=$1; shift; rm -f "$out/wgk.stdout"; timeout "$t" env OUT="$out" bash "$root/scripts/h200.sh" "$@"; }
S=webgpu-kernels/ai.onnx.Softmax
export WGK_PACKAGES="$root/packages"  # the staged binary's compiled-in source path is the build machine's
rc=0
: > "$out/bench-table.txt"
# WGK_TUNE_SEED: a table to extend: one wgk tune wrote on this device, or one whose match rule
# accepts it (a shipped table); wgk tune refuses any other.
[[ -n ${WGK_TUNE_SEED:-} ]] && cp "$WGK_TUNE_SEED" "$out/tuning.json"

cases=${WGK_TUNE_CASES:-prefill_attn_1x16x1024x1024_f16 prefill_attn_1x32x2048x2048_f32 prefill_vocab_512x151936_f16 decode_vocab_64x128256_f16 prefill_attn_1x32x512x512_f16}
say "1/3 tune, one case per run so each result is kept ($(left)s left): $cases"
for c in $cases; do
  run_wgk "$(cap 60)" tune $S --case "$c" --offline --budget "$settings" --out "$out/tuning.json" \
    >> "$out/tune.log" 2>&1 || { say "tune $c exit $?"; rc=1; }
done

bench_pass() {  # name, extra env...
  local name=$1
  shift
  run_wgk "$(cap 90)" bench $S --tag prefill --passes --offline --out "$out/bench-$name.json" &&
    run_wgk "$(cap 40)" bench $S --case decode_vocab_64x128256_f16 --passes --offline \
      --out "$out/bench-$name.json" --append || { say "bench $name exit $?"; rc=1; }
  [[ -f "$out/wgk.stdout" ]] && { echo "== $name"; cat "$out/wgk.stdout"; } >> "$out/bench-table.txt"
}
say "2/3 bench default path ($(left)s left)"
bench_pass default
if [[ -s "$out/tuning.json" ]]; then
  say "2/3 bench with the new table ($(left)s left)"
  WGK_TUNING="$out/tuning.json" bench_pass tuned
fi

if [[ ${WGK_TUNE_PEERS:-1} == 1 ]] && (($(left) > 25)); then
  say "3/3 torch peers of Softmax ($(left)s left)"
  (cd "$out" && OUT="$out" timeout "$(cap 60)" python3 "$root/tools/peers/torch_softmax_peers.py" \
    > "$out/peers.stdout" 2> "$out/peers.log") || say "Softmax peers exit $?: see peers.log"
fi
say "exit $rc after ${SECONDS}s"
exit "$rc"
