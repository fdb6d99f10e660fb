#!/usr/bin/env bash
# One device call: wgk test --all-variants of every embedded package, a bench of ai.onnx.Mul and
# ai.onnx.ArgMax, and the quick `wgk chain` (docs/performance.md, "Mul and ArgMax"). Carry .gl and
# out/h200pack.tar.xz; start the command with `tar -xJf out/h200pack.tar.xz &&`.
set -u
cd "$(dirname "$0")/.."
o=$OUT; S=scripts/h200.sh; t0=$SECONDS
log() { echo "[$((SECONDS - t0))s] $*" >&2; }
: > $o/tests.txt
for p in ai.onnx.Mul ai.onnx.ArgMax ai.onnx.Add ai.onnx.Softmax ai.onnx.RMSNormalization com.microsoft.FastGelu com.microsoft.GemmaRotaryEmbedding ai.onnx.MatMul; do
  OUT=$o timeout 120 bash $S test webgpu-kernels/$p --all-variants --offline > $o/t.txt 2>&1; rc=$?
  { echo "== $p (rc $rc)"; grep -v "^PASS" $o/t.txt | tail -n 8; } >> $o/tests.txt; log "$p rc $rc: $(grep -E 'passed' $o/t.txt | tail -1)"
done
cp $o/t.txt $o/test-matmul-last.txt
OUT=$o timeout 150 bash $S bench webgpu-kernels/ai.onnx.Mul webgpu-kernels/ai.onnx.ArgMax --offline --overhead-calls 0 --spin-up-ms 300 --warmup-ms 100 --out $o/bench-mul-argmax.json > /dev/null 2>&1; log "bench rc $?"
cp $o/wgk.stdout $o/bench-mul-argmax-table.txt
OUT=$o timeout 90 bash $S chain --offline > /dev/null 2>&1; log "chain rc $?"
cp $o/wgk.stdout $o/chain-quick.txt
rm -f $o/wgk.stdout $o/h200.log $o/t.txt
log done
