#!/usr/bin/env bash
# make_inputs.sh DIR: writes the .npy inputs the CLI tests use (fixture cli_inputs).
set -eu
dir=$1
npy="python3 $(dirname "$0")/npy.py write"
mkdir -p "$dir"
# FastGelu(0) = 0 and FastGelu(20) = 20 exactly in float32; the others are checked with a tolerance.
$npy "$dir/gelu_x.npy" f4 2,4 0,1,-1,20,-20,0.5,2,-3
$npy "$dir/gelu_x_f16.npy" f2 2,4 0,1,-1,20,-20,0.5,2,-3
$npy "$dir/gelu_x_i32.npy" i4 2,4 0,1,2,3,4,5,6,7
$npy "$dir/gelu_bias.npy" f4 4 0.5,0,0,0
$npy "$dir/gelu_bias_rank2.npy" f4 2,4 0,0,0,0,0,0,0,0
# RMSNormalization of [3, 4] with epsilon 0 is [3, 4] / sqrt(12.5).
$npy "$dir/rms_x.npy" f4 1,2 3,4
$npy "$dir/rms_scale.npy" f4 2 1,2
# GemmaRotaryEmbedding with float32 q (its contract allows float16 only) and a mismatched emb.
$npy "$dir/gemma_emb.npy" f4 1,2,4 0,1,2,3,4,5,6,7
$npy "$dir/gemma_emb_bad.npy" f4 1,2,3 0,1,2,3,4,5
$npy "$dir/gemma_q_f32.npy" f4 1,1,2,4 0,1,2,3,4,5,6,7
$npy "$dir/gemma_q.npy" f2 1,1,2,4 0,1,2,3,4,5,6,7
# Not tensors: no magic, and a header announcing 2x4 values followed by only 4 of them.
echo "not a numpy file" >"$dir/bad_magic.npy"
$npy "$dir/truncated.npy" f4 2,4 0,1,2,3
echo "inputs in $dir"
