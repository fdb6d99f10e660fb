#!/usr/bin/env bash
# info_priority.sh WGK: `wgk info` lists variants by priority, highest first, for every embedded package.
set -eu
wgk=$1
for p in ai.onnx.Add ai.onnx.RMSNormalization com.microsoft.FastGelu com.microsoft.GemmaRotaryEmbedding; do
  prios=$("$wgk" info webgpu-kernels/$p | sed -n 's/^  [^ ].*  priority \([-0-9.]*\).*/\1/p')
  [[ -n $prios ]] || { echo "FAIL: no variants listed for $p"; exit 1; }
  sorted=$(sort -g -r <<<"$prios")
  [[ $prios == "$sorted" ]] || { echo "FAIL: $p variants not highest priority first:"; echo "$prios"; exit 1; }
done
echo "info priority order: OK"
