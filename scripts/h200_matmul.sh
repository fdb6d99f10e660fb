#!/usr/bin/env bash
# One device call (docs/performance.md, "ai.onnx.MatMul on the H200"): wgk test --all-variants of
# ai.onnx.MatMul, wgk bench --all-variants of its decode and prefill cases (shorter warm-ups than
# h200_bench.sh so that all of it fits one 600 s call), the torch matmul peers, two more fresh-process
# runs of the large cases while time is left, and wgk report. Carry .gl and out/h200pack.tar.xz
# (scripts/build_h200.sh); start the command with `tar -xJf out/h200pack.tar.xz &&`.
set -u
cd "$(dirname "$0")/.."
export WGK_PACKAGES="$PWD/packages"; o=$OUT; S=scripts/h200.sh; P=webgpu-kernels/ai.onnx.MatMul
t0=$SECONDS
log() { echo "[$((SECONDS - t0))s] $*" >&2; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 200 > $o/clocks.csv 2>/dev/null & cpid=$!
log "devices"
OUT=$o timeout 40 bash $S devices --json > /dev/null 2>&1; cp $o/wgk.stdout $o/devices.json 2>/dev/null
log "test --all-variants"
OUT=$o timeout 110 bash $S test $P --all-variants --offline > $o/test-matmul.txt 2>&1; echo "test rc $?" >> $o/test-matmul.txt
tail -n 2 $o/test-matmul.txt >&2
log "bench decode --all-variants"
OUT=$o timeout 170 bash $S bench $P --tag decode --all-variants --offline --overhead-calls 0 --spin-up-ms 300 --warmup-ms 100 --out $o/bench-decode.json > /dev/null 2>&1; log "rc $?"
cp $o/wgk.stdout $o/bench-decode-table.txt 2>/dev/null
log "bench prefill --all-variants"
OUT=$o timeout 120 bash $S bench $P --tag prefill --all-variants --offline --overhead-calls 0 --spin-up-ms 300 --warmup-ms 100 --out $o/bench-prefill.json > /dev/null 2>&1; log "rc $?"
cp $o/wgk.stdout $o/bench-prefill-table.txt 2>/dev/null
log "torch peers"
(cd $o && OUT=$o timeout 100 python3 "$OLDPWD/tools/peers/torch_matmul_peers.py" > $o/peers.stdout 2> $o/peers.log); log "rc $?"
left=$((560 - (SECONDS - t0)))
log "repeat default-variant large cases ($left s left)"
for i in 1 2; do
  ((560 - (SECONDS - t0) > 60)) || break
  OUT=$o timeout 50 bash $S bench $P --tag large --offline --overhead-calls 0 --no-fma-roofline --spin-up-ms 300 --warmup-ms 100 --out $o/bench-large-rep$i.json > /dev/null 2>&1; log "rep $i rc $?"
done
kill $cpid 2>/dev/null
r=(--html $o/report.html --markdown $o/performance.md)
for f in $o/bench-decode.json $o/bench-prefill.json; do [[ -f $f ]] && r+=($f); done
[[ -s $o/peers.json ]] && r+=(--peers $o/peers.json)
OUT=$o bash $S report "${r[@]}" > /dev/null 2>&1; log "report rc $?"
tar -czf $o/logs.tar.gz -C $o clocks.csv peers.stdout peers.log h200.log 2>/dev/null && rm -f $o/clocks.csv $o/peers.stdout $o/peers.log
log done
