#!/bin/bash
# The short form of h200_check.sh (for little device time): generator timing, the torch peer on
# CUDA checked against reference.py (tiny f16 and gemma-2b), the peer's gemma-2b timing.
set -u
OUT=${OUT:-out/gemma}; mkdir -p "$OUT"; T=${TMPDIR:-/tmp}/gemma_h200; mkdir -p "$T"; PY=${PY:-python3}; G=tools/gemma
{
python3 -c 'import torch, os; print(torch.__version__, torch.cuda.get_device_name(), os.cpu_count())'
$PY $G/make_gemma.py $T/g2b --preset gemma-2b
$PY $G/make_gemma.py $T/tiny16 --dtype float16
$PY tools/peers/torch_gemma_peer.py $T/tiny16 --tokens 2,5,7,11,13 --new 40 --repeat 1 --logits $T/t.npy --out $OUT/peer_tiny16.json
toks=$($PY -c "import json; print(','.join(map(str, json.load(open('$OUT/peer_tiny16.json'))['tokens'])))")
$PY $G/check_generate.py --got-logits $T/t.npy --got-tokens $toks --model $T/tiny16 --tokens 2,5,7,11,13 --max-new 40 --follow | tail -4
$PY tools/peers/torch_gemma_peer.py $T/g2b --prompt-len 128 --new 128 --repeat 5 --out $OUT/peer_g2b.json
P=2,651,9713,45,17000,128000,3,77
$PY tools/peers/torch_gemma_peer.py $T/g2b --tokens $P --new 6 --repeat 1 --logits $T/g.npy --out $OUT/peer_g2b_short.json
toks=$($PY -c "import json; print(','.join(map(str, json.load(open('$OUT/peer_g2b_short.json'))['tokens'])))")
$PY $G/check_generate.py --got-logits $T/g.npy --got-tokens $toks --model $T/g2b --tokens $P --max-new 6 --follow
} 2>&1 | tee "$OUT/log.txt"
