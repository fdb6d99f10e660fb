#!/usr/bin/env python3
"""Writes ai.onnx.Transpose's test.json and bench.json (build/webgpu/) from the case lists below.

test.json: every variant (copy, tiled, rows, generic) for every dtype of T, ranks 0 to 8, the
default perm (the reversed axes), perms that move only unit dimensions or mix them in, odd sizes
(7x33x1023 in several perms, tiles cut by the edges), zero-size dimensions, and float16 shapes on
both sides of the tiled/rows word rules (M, N or the row length odd -> generic). The full shape
list runs for float32, float16 and int64 (the three ways the kernels move elements: u32 words,
halves packed in u32 words, vec2<u32>); the other 4-byte dtypes (int32, uint32, int8, uint8,
int16, bool: all u32 words on the device) take one case per variant. Pinned cases hold expected
values worked out here (float16 NaN, infinities, -0 and subnormals; int64 words above 2^32 and
negative). Generated cases have no output data: wgk's CPU reference computes it. Every tolerance
is exact: a transpose moves bits. The `variant` of a case is the one this script's copy of the
manifest's classification expects with the default tunables (CLASSIFY below; wgk plan agrees).
bench.json: Gemma weight-load transposes ([out, in] -> [in, out], up to the 256,000 x 2048
embedding) and prefill head moves (tags large and prefill); byte counts distinct (the report matches torch peers by op and
bytes); `smoke` cases for lavapipe.

  python3 tools/packages/transpose_cases.py   # then: build/wgk digest --write packages/webgpu-kernels/ai.onnx.Transpose
"""
import math
import os

from case_json import dump, fill

PKG = os.path.join(os.path.dirname(__file__), "..", "..", "packages", "webgpu-kernels", "ai.onnx.Transpose", "build", "webgpu")
INF, NINF, NAN = "Infinity", "-Infinity", "NaN"
RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "uint32": (0, 2 ** 32 - 1), "int8": (-128, 127), "uint8": (0, 255),
         "int16": (-32768, 32767), "bool": (0, 1), "int64": (-2 ** 62, 2 ** 62)}
BYTES = {"float32": 4, "float16": 2, "int64": 8}
FULL_DTYPES = ["float32", "float16", "int64"]
WORD_DTYPES = ["int32", "uint32", "int8", "uint8", "int16", "bool"]

# (name, shape, perm or None for the default). The variant is derived (classify).
SHAPES = [
    # copy: no dimension of more than one element moves.
    ("identity_3x4x5", [3, 4, 5], [0, 1, 2]),
    ("units_only_1x5x1x7", [1, 5, 1, 7], [2, 1, 0, 3]),
    ("default_1x9", [1, 9], None),
    ("rank1_19", [19], None),
    ("rank0", [], None),
    ("rank6_units_1x1x4x1x1x3", [1, 1, 4, 1, 1, 3], [4, 2, 0, 5, 1, 3]),
    ("zero_3x0x2", [3, 0, 2], None),
    ("zero_swap_0x5", [0, 5], [1, 0]),
    # tiled: a (batched) swap of the last two canonical axes.
    ("swap_7x33", [7, 33], [1, 0]),
    ("swap_64x96", [64, 96], [1, 0]),
    ("default_33x70", [33, 70], None),
    ("swap_2x130", [2, 130], None),
    ("batched_3x40x66", [3, 40, 66], [0, 2, 1]),
    ("heads_keys_1x4x10x16", [1, 4, 10, 16], [0, 1, 3, 2]),
    ("units_swap_1x37x1x45", [1, 37, 1, 45], [3, 1, 2, 0]),
    ("merged_swap_4x6x5x7", [4, 6, 5, 7], [2, 3, 0, 1]),
    ("merged_swap_even_2x6x4x10", [2, 6, 4, 10], [2, 3, 0, 1]),
    ("rank6_batched_2x1x3x1x20x18", [2, 1, 3, 1, 20, 18], [0, 1, 2, 3, 5, 4]),
    ("odd_batched_7x33x1023", [7, 33, 1023], [0, 2, 1]),
    ("odd_merged_7x33x1023", [7, 33, 1023], [2, 0, 1]),
    ("odd_merged_front_7x33x1023", [7, 33, 1023], [1, 2, 0]),
    # rows: the innermost dimension stays innermost.
    ("heads_seq_8x10x16", [8, 10, 16], [1, 0, 2]),
    ("rows_odd_7x33x5", [7, 33, 5], [1, 0, 2]),
    ("rows_rank4_2x3x4x6", [2, 3, 4, 6], [2, 0, 1, 3]),
    ("rows_merged_3x4x5x6", [3, 4, 5, 6], [1, 0, 2, 3]),
    ("rows_units_1x6x1x5x8", [1, 6, 1, 5, 8], [3, 1, 0, 2, 4]),
    ("rows_rank6_2x3x1x2x3x8", [2, 3, 1, 2, 3, 8], [4, 1, 0, 3, 2, 5]),
    ("odd_rows_7x33x1023", [7, 33, 1023], [1, 0, 2]),
    # generic: anything else.
    ("default_3x4x5", [3, 4, 5], None),
    ("rank4_3x5x2x7", [3, 5, 2, 7], [3, 1, 0, 2]),
    ("rank5_2x3x2x3x2", [2, 3, 2, 3, 2], [4, 2, 0, 3, 1]),
    ("rank6_default_2x1x3x2x1x4", [2, 1, 3, 2, 1, 4], None),
    ("rank7_default_2x1x2x1x2x1x3", [2, 1, 2, 1, 2, 1, 3], None),
    ("rank8_1x2x1x2x2x1x2x3", [1, 2, 1, 2, 2, 1, 2, 3], [7, 3, 0, 6, 1, 4, 2, 5]),
    ("odd_reverse_7x33x1023", [7, 33, 1023], None),
]
# One case per variant for the other 4-byte dtypes.
WORD_SHAPES = ["units_only_1x5x1x7", "swap_7x33", "batched_3x40x66", "rows_odd_7x33x5", "rank5_2x3x2x3x2", "zero_3x0x2"]


def resolved(shape, perm):
    return list(range(len(shape)))[::-1] if perm is None else perm


def canonical(shape, perm):
    """Output-order canonical axes [(dim, input stride)] with unit dims dropped and input
    neighbours merged (the manifest's scan)."""
    perm = resolved(shape, perm)
    stride = [math.prod(shape[a + 1:]) for a in range(len(shape))]
    axes = []
    for a in perm:
        if shape[a] == 1:
            continue
        if axes and axes[-1][1] == stride[a] * shape[a]:
            axes[-1] = (axes[-1][0] * shape[a], stride[a])
        else:
            axes.append((shape[a], stride[a]))
    return axes


def classify(shape, dtype, perm):
    """The variant wgk picks with the default tunables (priority copy > tiled > rows > generic)."""
    n = math.prod(shape)
    axes = canonical(shape, perm)
    half = dtype == "float16"
    if n == 0 or len(axes) <= 1:
        return "copy"
    inner_dim, inner_stride = axes[-1]
    moved = inner_stride != 1
    lead = axes[0][0] * axes[0][1] == n
    if moved and (len(axes) == 2 or (len(axes) == 3 and lead)):
        if not half or (inner_dim % 2 == 0 and inner_stride % 2 == 0):
            return "tiled"
    if not moved and (not half or inner_dim % 2 == 0):
        return "rows"
    return "generic"


def data(dtype, seed):
    if dtype in ("float32", "float16"):
        return fill(0.13 + 0.01 * seed, 0.29, 100.0)
    lo, hi = RANGE[dtype]
    return {"kind": "random", "seed": seed, "min": lo, "max": hi + 1 if dtype == "bool" else hi}


def out_shape(shape, perm):
    return [shape[a] for a in resolved(shape, perm)]


def case(name, dtype, shape, perm, x_data, want=None, description=None):
    c = {"name": name}
    if description:
        c["description"] = description
    c["variant"] = classify(shape, dtype, perm)
    if perm is not None:
        c["attrs"] = {"perm": perm}
    c["inputs"] = {"x": {"dtype": dtype, "shape": shape, "data": x_data}}
    out = {"dtype": dtype, "shape": out_shape(shape, perm)}
    if want is not None:
        out["data"] = {"kind": "values", "values": want}
        if NAN in want:
            out["allowNaN"] = True
    c["outputs"] = {"y": out}
    return c


def values(v):
    return {"kind": "values", "values": v}


def transposed(v, shape, perm):
    perm = resolved(shape, perm)
    oshape = out_shape(shape, perm)
    stride = [math.prod(shape[a + 1:]) for a in range(len(shape))]
    out = []
    for o in range(math.prod(oshape)):
        rest, src = o, 0
        for d in range(len(oshape) - 1, -1, -1):
            src += (rest % oshape[d]) * stride[perm[d]]
            rest //= oshape[d]
        out.append(v[src])
    return out


def generated_cases():
    out = []
    by_name = {s[0]: s for s in SHAPES}
    for dtype in FULL_DTYPES:
        for i, (name, shape, perm) in enumerate(SHAPES):
            out.append(case(f"{dtype}_{name}", dtype, shape, perm, data(dtype, i + 1)))
    for dtype in WORD_DTYPES:
        for i, name in enumerate(WORD_SHAPES):
            _, shape, perm = by_name[name]
            out.append(case(f"{dtype}_{name}", dtype, shape, perm, data(dtype, 100 + i)))
    return out


def pinned_cases():
    # float16: NaN, infinities, -0, the smallest subnormal, the largest finite, the tiny normal.
    specials = [NAN, INF, NINF, -0.0, 2 ** -24, -(2 ** -24), 65504, -65504, 2 ** -14, 1, -2.5, 0]
    out = []
    for name, shape, perm in [("tiled", [4, 6], [1, 0]), ("rows", [3, 2, 2], [1, 0, 2]),
                              ("generic", [2, 3, 2], None), ("copy", [1, 12], [1, 0])]:
        v = (specials * 2)[:math.prod(shape)]
        out.append(case(f"float16_specials_{name}", "float16", shape, perm, values(v), transposed(v, shape, perm),
                        description="NaN, infinities, -0, subnormals and the extremes move as bits"))
    big = [-(2 ** 62), 2 ** 62 + 2 ** 40, -1, 2 ** 32, 2 ** 32 - 1, -(2 ** 31) - 1, 0, 7, -(2 ** 53), 2 ** 53, 12345678901, -2]
    for name, shape, perm in [("tiled", [3, 4], [1, 0]), ("rows", [2, 3, 2], [1, 0, 2]), ("generic", [2, 3, 2], [2, 1, 0]),
                              ("copy", [12, 1], [1, 0])]:
        out.append(case(f"int64_words_{name}", "int64", shape, perm, values(big), transposed(big, shape, perm),
                        description="int64 elements whose high word is not zero, negatives included"))
    return out


# (name, shape, perm, dtype, description, tags)
BENCH = [
    ("smoke_swap_64x96_f16", [64, 96], [1, 0], "float16", "A small matrix transpose (CI on lavapipe)", ["smoke"]),
    ("smoke_heads_8x16x64_f32", [8, 16, 64], [1, 0, 2], "float32", "A small [heads, seq, dim] move (CI on lavapipe)",
     ["smoke"]),
    # Gemma's tied embedding is [256000, 2048] (1 GB each way, 128,000 tiles); bench data stop at 2^28
    # elements, so the bench takes its first 131,072 rows (512 MiB, 65,536 tiles: still folded).
    ("load_embedding_131072x2048_f16", [131072, 2048], [1, 0], "float16",
     "Half of Gemma's tied embedding [vocab, hidden] -> [hidden, vocab] at weight load (512 MiB each way)",
     ["large"]),
    ("load_ffn_up_16384x2048_f16", [16384, 2048], [1, 0], "float16",
     "A Gemma-2B FFN gate/up weight [out, in] -> [in, out] at weight load", ["large"]),
    ("load_ffn_down_2048x16384_f32", [2048, 16384], [1, 0], "float32",
     "The FFN down weight [2048, 16384] -> [16384, 2048], in float32", ["large"]),
    ("load_q_proj_2048x2048_f16", [2048, 2048], [1, 0], "float16", "The query projection [2048, 2048]", ["large"]),
    ("prefill_seq_heads_128x8x256_f16", [128, 8, 256], [1, 0, 2], "float16",
     "Queries [seq, heads, dim] -> [heads, seq, dim] for a 128-token prompt", ["prefill"]),
    ("prefill_heads_seq_8x512x256_f16", [8, 512, 256], [1, 0, 2], "float16",
     "Attention output [heads, seq, dim] -> [seq, heads, dim] for a 512-token prompt", ["prefill"]),
    ("prefill_keys_1x8x192x256_f16", [1, 8, 192, 256], [0, 1, 3, 2], "float16",
     "Keys [1, heads, seq, dim] -> [1, heads, dim, seq] for a 192-token prompt", ["prefill"]),
    ("prefill_keys_1x1x2048x256_f16", [1, 1, 2048, 256], [0, 1, 3, 2], "float16",
     "One KV head's keys [1, 1, seq, dim] -> [1, 1, dim, seq] for a 2048-token prompt", ["prefill"]),
]


def bench_cases():
    out = []
    for name, shape, perm, dtype, desc, tags in BENCH:
        out.append({"name": name, "description": desc, "tags": tags, "attrs": {"perm": perm},
                    "inputs": {"x": {"dtype": dtype, "shape": shape}}})
    sizes = [2 * BYTES[d] * math.prod(s) for _, s, _, d, _, _ in BENCH]
    assert len(set(sizes)) == len(sizes), "bench byte counts must be distinct"
    return {"cases": out, "report": {"warmup": 5, "iterations": 50}}


def main():
    cases = generated_cases() + pinned_cases()
    assert len({c["name"] for c in cases}) == len(cases)
    variants = {c["variant"] for c in cases}
    assert variants == {"copy", "tiled", "rows", "generic"}, variants
    dump({"cases": cases}, os.path.join(PKG, "test.json"))
    dump(bench_cases(), os.path.join(PKG, "bench.json"))


if __name__ == "__main__":
    main()
