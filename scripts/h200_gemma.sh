#!/usr/bin/env bash
# One device call (docs/performance.md, "Gemma decoder on the H200"): a random Gemma-2B-shaped
# checkpoint (tools/gemma/make_gemma.py --preset gemma-2b, float16) written to the H200's disk,
# `wgk generate --bench` on it in five fresh processes (128-token prompt, 128 new tokens, the
# weight-streaming roofline measured in the same process), and the torch peer of the same model
# and prompt (tools/peers/torch_gemma_peer.py: eager and CUDA-graph decode loops, prefill). Carry
# .gl and out/h200pack.tar.xz; start the command with `tar -xJf out/h200pack.tar.xz &&`.
set -u
cd "$(dirname "$0")/.."
export WGK_PACKAGES="$PWD/packages"; o=$OUT; S=scripts/h200.sh; M=/tmp/g2b
t0=$SECONDS
log() { echo "[$((SECONDS - t0))s] $*" >&2; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw --format=csv -lms 500 > $o/clocks.csv 2>/dev/null & cpid=$!
log "devices"
OUT=$o timeout 40 bash $S devices --json > /dev/null 2>&1; cp $o/wgk.stdout $o/devices.json 2>/dev/null
# A package folder without metadata.json (one being written) is signed here, on this copy only.
for p in packages/webgpu-kernels/*/; do
  [[ -f $p/build/webgpu/metadata.json ]] || { OUT=$o bash $S digest "$p" --write > /dev/null 2>&1; log "signed $p here"; }
done
log "make gemma-2b"
timeout 150 python3 tools/gemma/make_gemma.py $M --preset gemma-2b > $o/make.json 2> $o/make.log; log "rc $?"
P=$(python3 -c "import random; r=random.Random(7); print(','.join(['2']+[str(r.randrange(3, 256000)) for _ in range(127)]))")
# Processes 1-3: the default path (process 1 also profiles a prefill block and a decode step);
# 4: a token readback after every step; 5: the cache at the default 4096 positions.
extra=("--profile" "" "" "--readback-every 1" "--max-length 4096")
for i in 1 2 3 4 5; do
  ((560 - (SECONDS - t0) > 150)) || break
  log "wgk generate --bench, process $i ${extra[$((i - 1))]}"
  OUT=$o timeout 120 bash $S generate $M --bench --tokens $P --max-new 128 --json --quiet ${extra[$((i - 1))]} > /dev/null 2>&1; log "rc $?"
  cp $o/wgk.stdout $o/generate-$i.json 2>/dev/null
done
log "torch peer"
timeout 150 python3 tools/peers/torch_gemma_peer.py $M --tokens $P --new 128 --repeat 3 --out $o/peer.json > $o/peer.stdout 2> $o/peer.log; log "rc $?"
kill $cpid 2>/dev/null
tar -czf $o/logs.tar.gz -C $o clocks.csv make.log peer.log peer.stdout h200.log 2>/dev/null
log done
