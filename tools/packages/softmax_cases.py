#!/usr/bin/env python3
"""Writes ai.onnx.Softmax's test.json and bench.json (build/webgpu/) from the case lists below.

test.json: every case's expected output is computed by wgk's CPU reference (no `data` in outputs).
Masked inputs (-inf entries, causal masks, fully masked rows) are explicit `values` lists, so the
cases that carry them stay small; the others use `fillFloat32` (scale for large magnitudes).
bench.json: decode and prefill shapes of real LLMs (attention scores and vocabulary rows), random
data; byte counts are distinct because the report matches torch peers by op and bytes.

  python3 tools/packages/softmax_cases.py   # then: build/wgk digest --write packages/webgpu-kernels/ai.onnx.Softmax
"""
import json
import math
import os

from case_json import dump, fill

PKG = os.path.join(os.path.dirname(__file__), "..", "..", "packages", "webgpu-kernels", "ai.onnx.Softmax", "build", "webgpu")
NEG_INF = "-Infinity"
TOL = {"float32": {"abs": 1e-8, "rel": 2e-5}, "float16": {"abs": 1e-7, "ulp": 1}}


def numel(shape):
    return math.prod(shape)


def case(name, dtype, shape, data, axis=None, description=None, nan=False, variant=None):
    c = {"name": name}
    if description:
        c["description"] = description
    if variant:
        c["variant"] = variant
    if axis is not None:
        c["attrs"] = {"axis": axis}
    c["inputs"] = {"x": {"dtype": dtype, "shape": shape, "data": data}}
    out = {"dtype": dtype, "shape": shape, "tolerance": TOL[dtype]}
    if nan:
        out["allowNaN"] = True
    c["outputs"] = {"y": out}
    return c


def scores(n, k, scale=4.0):
    # Deterministic attention-like scores in [-scale, scale].
    return round(scale * math.sin(0.37 * (n * 7919 + k) + 0.11 * k), 4)


def causal(batch_heads, q, kv, pad_rows=(), offset=None):
    """Scores [batch_heads * q, kv] with a causal mask: query i sees keys 0..offset+i; rows listed
    in pad_rows (a padded query) are fully masked."""
    offset = kv - q if offset is None else offset
    vals = []
    for h in range(batch_heads):
        for i in range(q):
            for j in range(kv):
                row = h * q + i
                if i in pad_rows or j > offset + i:
                    vals.append(NEG_INF)
                else:
                    vals.append(scores(row, j))
    return {"kind": "values", "values": vals}


def masked_rows(rows, cols, mask_every=3, full_rows=()):
    """Rows of scores where every mask_every-th entry (shifted per row) is -inf; full_rows are all -inf."""
    vals = []
    for r in range(rows):
        for c in range(cols):
            if r in full_rows or (c + r) % mask_every == 0:
                vals.append(NEG_INF)
            else:
                vals.append(scores(r, c, 6.0))
    return {"kind": "values", "values": vals}


def strided_masked(shape, axis, full=()):
    """Values with -inf entries spread through, and the (outer, inner) softmax lines in `full` all -inf."""
    rank = len(shape)
    a = axis % rank
    inner = numel(shape[a + 1:])
    n = shape[a]
    vals = []
    for i in range(numel(shape)):
        o, rest = divmod(i, n * inner)
        k, j = divmod(rest, inner)
        if (o, j) in full or (i * 5) % 7 == 0:
            vals.append(NEG_INF)
        else:
            vals.append(scores(o * inner + j, k, 5.0))
    return {"kind": "values", "values": vals}


def test_cases():
    c = []
    for t, s in (("float32", "f32"), ("float16", "f16")):
        big = 1.5e38 if t == "float32" else 3.0e4
        c += [
            # online_local_nosg / online_local_vec4_nosg (cols <= 32), packed rows (rows > 32).
            case(f"row1_{s}_3x1", t, [3, 1], fill(0.3, 0.7), description="Row length 1: every output is 1"),
            case(f"rank1_{s}_7", t, [7], fill(0.41, 0.13), description="Rank 1, 7 columns"),
            case(f"local_{s}_5x7", t, [5, 7], fill(0.21, 0.77, 3.0)),
            case(f"local_vec4_{s}_4x16", t, [4, 16], fill(0.17, 0.29, 4.0)),
            case(f"local_vec4_{s}_2x3x4_negaxis", t, [2, 3, 4], fill(0.5, 0.9, 2.0), axis=-1),
            case(f"local_vec4_{s}_2x3x4_axis2", t, [2, 3, 4], fill(0.5, 0.9, 2.0), axis=2),
            case(f"packed_{s}_40x13", t, [40, 13], fill(0.13, 0.07, 5.0)),
            case(f"packed_vec4_{s}_33x32", t, [33, 32], fill(0.11, 0.05, 5.0)),
            case(f"packed_{s}_2017x130", t, [2017, 130], fill(0.013, 0.0071, 3.0),
                 description="130 columns: packed rows need 64 groups of 32 rows past 32 columns"),
            case(f"packed_vec4_{s}_2049x128", t, [2049, 128], fill(0.019, 0.0031, 3.0)),
            case(f"fold_{s}_65537x4", t, [65537, 4], fill(0.31, 0.057, 2.0),
                 description="65,537 rows: the grid folds into y"),
            # online_wg_vec4 / online_wg / subgroup rows (H200) / stable_3pass.
            case(f"wg_{s}_3x77", t, [3, 77], fill(0.23, 0.61, 4.0)),
            case(f"wg_{s}_5x1001", t, [5, 1001], fill(0.031, 0.17, 6.0)),
            case(f"wg_vec4_{s}_4x1000", t, [4, 1000], fill(0.0123, 0.37, 8.0)),
            case(f"wg_vec4_{s}_2x4096", t, [2, 4096], fill(0.0077, 0.0011, 8.0)),
            case(f"wg_vec4_{s}_2x2x8192_large", t, [2, 2, 8192], fill(0.0033, 0.00071, big),
                 description="Magnitudes near the dtype's maximum: no overflow, no NaN"),
            case(f"wg_{s}_3x333_large", t, [3, 333], fill(0.0731, 0.011, big)),
            case(f"subgroup_rows_{s}_64x256", t, [64, 256], fill(0.0071, 0.013, 4.0),
                 description="64 rows of a multiple of 4 up to 1024 columns: subgroup rows where subgroups are >= 16 wide"),
            case(f"subgroup_rows_{s}_96x68", t, [96, 68], fill(0.051, 0.093, 4.0)),
            case(f"subgroup_rows_{s}_64x1024", t, [64, 1024], fill(0.0019, 0.0301, 4.0)),
            # longrow_split: >= 65536 columns, <= 32 rows.
            case(f"longrow_{s}_1x65536", t, [1, 65536], fill(0.00037, 0.0113, 6.0)),
            case(f"longrow_{s}_3x70001", t, [3, 70001], fill(0.00091, 0.00013, 4.0)),
            case(f"longrow_{s}_1x256000_large", t, [1, 256000], fill(0.000173, 0.0000331, big),
                 description="A Gemma vocabulary row at the dtype's largest magnitudes"),
            # Strided axes: strided_online_coop, strided_online_lane_large_inner, capacity fallback.
            case(f"strided_{s}_16x4_axis0", t, [16, 4], fill(0.31, 0.17, 3.0), axis=0),
            case(f"strided_{s}_4x8x3_axis1", t, [4, 8, 3], fill(0.19, 0.47, 3.0), axis=1),
            case(f"strided_{s}_2x5x6x7_axisneg3", t, [2, 5, 6, 7], fill(0.07, 0.23, 4.0), axis=-3),
            case(f"strided_{s}_3x1x5_axis1", t, [3, 1, 5], fill(0.5, 0.25), axis=1,
                 description="Axis of extent 1: every output is 1"),
            case(f"strided_{s}_600x37_axis0", t, [600, 37], fill(0.017, 0.029, 6.0), axis=0),
            case(f"strided_{s}_7x300x9_axis1_large", t, [7, 300, 9], fill(0.043, 0.0021, big), axis=1),
            case(f"strided_{s}_8x1024x129_axis1", t, [8, 1024, 129], fill(0.0013, 0.00029, 4.0), axis=1,
                 description="Axis 1024, inner 129, outer 8 (1,056,768 elements): the lane-per-column strided variant",
                 variant="strided_online_lane_large_inner"),
            # Variants that never win by priority, targeted (`variant`: what plain `wgk test` forces).
            case(f"fallback_{s}_4x8x3_axis1", t, [4, 8, 3], fill(0.29, 0.41, 3.0), axis=1,
                 variant="strided_online_capacity_fallback"),
            case(f"stable_{s}_7x9_masked", t, [7, 9], masked_rows(7, 9, 4, full_rows=(2,)), nan=True,
                 variant="stable_3pass"),
            # Masks.
            case(f"causal_{s}_1x2x8x8", t, [1, 2, 8, 8], causal(2, 8, 8),
                 description="Causal attention scores (query i sees keys 0..i)"),
            case(f"causal_{s}_1x1x64x64_padded", t, [1, 1, 64, 64], causal(1, 64, 64, pad_rows=(0, 63)), nan=True,
                 description="Causal mask with two fully masked (padded) query rows: NaN, as ONNX computes"),
            case(f"causal_{s}_1x2x4x200_padded", t, [1, 2, 4, 200], causal(2, 4, 200, pad_rows=(2,)), nan=True,
                 description="Decode-like: 4 queries over 200 keys, one padded query"),
            case(f"causal_{s}_1x1x3x1027", t, [1, 1, 3, 1027], causal(1, 3, 1027, offset=500)),
            case(f"masked_{s}_48x20_full", t, [48, 20], masked_rows(48, 20, 3, full_rows=(5, 47)), nan=True),
            case(f"masked_{s}_48x13_full", t, [48, 13], masked_rows(48, 13, 2, full_rows=(0,)), nan=True),
            case(f"masked_{s}_6x9_full", t, [6, 9], masked_rows(6, 9, 4, full_rows=(3,)), nan=True),
            case(f"masked_{s}_12x5_axis0_full", t, [12, 5], strided_masked([12, 5], 0, full=((0, 2),)), axis=0, nan=True),
            case(f"masked_{s}_3x40x6_axis1_full", t, [3, 40, 6], strided_masked([3, 40, 6], 1, full=((1, 4),)), axis=1,
                 nan=True),
            case(f"masked_{s}_2x300x4_axisneg2", t, [2, 300, 4], strided_masked([2, 300, 4], -2), axis=-2),
            # Zero-size dimensions: nothing to compute.
            case(f"empty_{s}_0x8", t, [0, 8], {"kind": "values", "values": []}),
            case(f"empty_{s}_3x0_axis0", t, [3, 0], {"kind": "values", "values": []}, axis=0),
        ]
    return c


# (name, dtype, shape, description, tags, axis)
BENCH = [
    ("smoke_4x64_f16", "float16", [4, 64], "Smallest row case (CI on lavapipe)", ["smoke"], None),
    ("smoke_3x7_f32", "float32", [3, 7], "Short odd rows", ["smoke"], None),
    ("smoke_16x4x8_axis0_f32", "float32", [16, 4, 8], "Strided axis 0", ["smoke"], 0),
    ("decode_attn_1x32x1x4096_f16", "float16", [1, 32, 1, 4096], "One token's attention scores, 32 heads over 4096 keys (Llama 3.1 8B)", ["decode"], None),
    ("decode_attn_1x32x1x8192_f16", "float16", [1, 32, 1, 8192], "32 heads over 8192 keys (Llama 3.1 8B)", ["decode"], None),
    ("decode_attn_1x28x1x4096_f32", "float32", [1, 28, 1, 4096], "28 heads over 4096 keys in float32 (Qwen 2.5 7B)", ["decode"], None),
    ("decode_attn_1x8x1x2048_f16", "float16", [1, 8, 1, 2048], "8 heads over 2048 keys (Gemma 2 2B)", ["decode"], None),
    ("decode_vocab_1x128256_f16", "float16", [1, 128256], "Sampling softmax over the Llama 3 vocabulary", ["decode"], None),
    ("decode_vocab_1x128256_f32", "float32", [1, 128256], "Llama 3 vocabulary in float32", ["decode"], None),
    ("decode_vocab_8x151936_f16", "float16", [8, 151936], "8 sequences over the Qwen 2.5 vocabulary", ["decode"], None),
    ("decode_vocab_8x151936_f32", "float32", [8, 151936], "8 sequences, Qwen 2.5 vocabulary, float32", ["decode"], None),
    ("decode_vocab_1x256000_f16", "float16", [1, 256000], "The Gemma vocabulary", ["decode"], None),
    ("decode_vocab_1x256000_f32", "float32", [1, 256000], "The Gemma vocabulary in float32", ["decode"], None),
    ("decode_vocab_64x128256_f16", "float16", [64, 128256], "64 sequences over the Llama 3 vocabulary (batched sampling)", ["decode", "large"], None),
    ("prefill_attn_1x32x2048x2048_f16", "float16", [1, 32, 2048, 2048], "Attention scores of a 2048-token prompt, 32 heads (Llama 3.1 8B)", ["prefill", "large"], None),
    ("prefill_attn_1x32x2048x2048_f32", "float32", [1, 32, 2048, 2048], "The same in float32", ["prefill", "large"], None),
    ("prefill_attn_1x28x2048x2048_f16", "float16", [1, 28, 2048, 2048], "28 heads, 2048 tokens (Qwen 2.5 7B)", ["prefill", "large"], None),
    ("prefill_attn_1x8x4096x4104_f16", "float16", [1, 8, 4096, 4096 + 8], "8 heads, 4096 tokens (Gemma 2 2B), 8 extra keys of a cache", ["prefill", "large"], None),
    ("prefill_attn_1x16x1024x1024_f16", "float16", [1, 16, 1024, 1024], "16 heads, 1024 tokens (Llama 3.2 1B)", ["prefill"], None),
    ("prefill_attn_1x32x512x512_f16", "float16", [1, 32, 512, 512], "32 heads, 512 tokens: rows of 512 (Llama 3.1 8B)", ["prefill"], None),
    ("prefill_vocab_512x151936_f16", "float16", [512, 151936], "Logits of a 512-token prompt over the Qwen 2.5 vocabulary", ["prefill", "large"], None),
    ("prefill_seq_axis2_1x32x2048x96_f16", "float16", [1, 32, 2048, 96], "Softmax over the sequence axis of [1, heads, seq, 96] (axis 2, strided; Phi-3 head size)", ["prefill"], 2),
    ("prefill_short_rows_65536x64_f16", "float16", [65536, 64], "65,536 rows of 64 (grouped-query scores, short context)", ["prefill"], None),
]


def bench_cases():
    out = []
    for name, dtype, shape, desc, tags, axis in BENCH:
        c = {"name": name, "description": desc, "tags": tags}
        if axis is not None:
            c["attrs"] = {"axis": axis}
        c["inputs"] = {"x": {"dtype": dtype, "shape": shape, "data": {"kind": "random", "seed": 1 + len(out), "min": -8, "max": 8}}}
        out.append(c)
    sizes = [numel(c["inputs"]["x"]["shape"]) * (2 if c["inputs"]["x"]["dtype"] == "float16" else 4) for c in out]
    assert len(set(sizes)) == len(sizes), "bench byte counts must be distinct"
    return {"cases": out, "report": {"warmup": 5, "iterations": 50}}


def main():
    cases = test_cases()
    names = {c["name"] for c in cases}
    assert len(names) == len(cases)
    # Cases added to test.json by hand (not generated here) are kept, after the generated ones.
    path = os.path.join(PKG, "test.json")
    if os.path.exists(path):
        cases += [c for c in json.load(open(path))["cases"] if c["name"] not in names]
    dump({"cases": cases}, path)
    dump(bench_cases(), os.path.join(PKG, "bench.json"))


if __name__ == "__main__":
    main()
