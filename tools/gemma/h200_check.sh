#!/bin/bash
# On a CUDA machine (the H200 device): generator timing, the self-test, the torch peer checked
# against reference.py (tiny f16 / f32 and gemma-2b), and the peer's gemma-2b timing.
#   OUT=out/gemma bash tools/gemma/h200_check.sh      (writes OUT/*.json, OUT/log.txt)
set -u
OUT=${OUT:-out/gemma}
mkdir -p "$OUT"
T=${TMPDIR:-/tmp}/gemma_h200
mkdir -p "$T"
PY=${PY:-python3}
G=tools/gemma
step() { echo "== $*"; }
{
step "python, torch, cores"; $PY -c 'import torch, numpy, os; print(torch.__version__, numpy.__version__, torch.cuda.get_device_name(), os.cpu_count())'
step "self-test"; $PY $G/test_gemma.py
step "gemma-2b generator"; $PY $G/make_gemma.py $T/g2b --preset gemma-2b
$PY $G/make_gemma.py $T/tiny16 --dtype float16
$PY $G/make_gemma.py $T/tiny32
for m in tiny16 tiny32; do
  step "peer cuda f16 vs reference: $m"
  $PY tools/peers/torch_gemma_peer.py $T/$m --tokens 2,5,7,11,13 --new 40 --repeat 1 --logits $T/$m.npy --out $OUT/peer_$m.json
  toks=$($PY -c "import json; print(','.join(map(str, json.load(open('$OUT/peer_$m.json'))['tokens'])))")
  $PY $G/check_generate.py --got-logits $T/$m.npy --got-tokens $toks --model $T/$m --tokens 2,5,7,11,13 --max-new 40 --follow --json > $OUT/check_$m.json
  echo "check rc=$?"; $PY -c "import json; d=json.load(open('$OUT/check_$m.json')); s=d['steps']; print('ok', d['ok'], 'max diff', max(x['max_diff'] for x in s), 'max diff/tol', max(x['max_diff']/x['tol'] for x in s), d['notes'][:3])"
done
P=2,651,9713,45,17000,128000,3,77,200,4096,31337,255000,12,9,1000,5
step "peer cuda f16 vs reference: gemma-2b (16-token prompt, 8 new)"
$PY tools/peers/torch_gemma_peer.py $T/g2b --tokens $P --new 8 --repeat 1 --logits $T/g2b.npy --out $OUT/peer_g2b_short.json
toks=$($PY -c "import json; print(','.join(map(str, json.load(open('$OUT/peer_g2b_short.json'))['tokens'])))")
$PY $G/check_generate.py --got-logits $T/g2b.npy --got-tokens $toks --model $T/g2b --tokens $P --max-new 8 --follow --json > $OUT/check_g2b.json
echo "check rc=$?"; $PY -c "import json; d=json.load(open('$OUT/check_g2b.json')); s=d['steps']; print('ok', d['ok'], [(x['max_diff'], x['tol'], x['margin']) for x in s], d['notes'])"
step "f16 emulation vs reference: gemma-2b"
rt=$($PY $G/reference.py $T/g2b --tokens $P --max-new 8 --json --logits $T/g2b_ref.npy | tee $OUT/ref_g2b.json | $PY -c "import json,sys; print(','.join(map(str, json.load(sys.stdin)['tokens'])))")
$PY $G/reference.py $T/g2b --tokens $P --max-new 8 --feed $rt --emulate float16 --json --logits $T/g2b_emu.npy > $OUT/emu_g2b.json
$PY -c "
import numpy as np; r=np.load('$T/g2b_ref.npy'); e=np.load('$T/g2b_emu.npy'); p=np.load('$T/g2b.npy')
m=np.abs(r).max(1); print('emu  abs', np.abs(e-r).max(1).round(4), 'rel', (np.abs(e-r).max(1)/m).round(5))
print('peer abs', np.abs(p-r).max(1).round(4), 'rel', (np.abs(p-r).max(1)/m).round(5), '(peer rows follow its own tokens)')"
step "peer timing: gemma-2b, prompt 128, new 128"
$PY tools/peers/torch_gemma_peer.py $T/g2b --prompt-len 128 --new 128 --repeat 5 --out $OUT/peer_g2b.json
} 2>&1 | tee "$OUT/log.txt"
