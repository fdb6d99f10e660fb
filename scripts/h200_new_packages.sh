#!/usr/bin/env bash
# One device call: wgk test --all-variants on the H200 of the packages the Gemma decoder added
# (docs/performance.md, 2026-12-03). Carry .gl and out/h200pack.tar.xz; start the command with
# `tar -xJf out/h200pack.tar.xz &&`.
set -u
o=$OUT; S=scripts/h200.sh; t0=$SECONDS
for p in ai.onnx.Gather ai.onnx.Transpose ai.onnx.TensorScatter; do
  OUT=$o timeout 100 bash $S test webgpu-kernels/$p --all-variants --offline > $o/t-$p.txt 2>&1; rc=$?
  echo "== $p rc $rc [$((SECONDS-t0))s]: $(grep -E 'passed|failed' $o/t-$p.txt | tail -2)"
done
OUT=$o timeout 30 bash $S devices > $o/devices.txt 2>&1
rm -f $o/wgk.stdout $o/h200.log
