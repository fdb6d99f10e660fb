#!/usr/bin/env python3
"""Writes ai.onnx.Gather's test.json and bench.json (build/webgpu/) from the case lists below.

test.json: every dtype of T (float32, float16, int32, uint32) over LAYOUTS: data of rank 1 to 4,
the first, a middle and the last axis, negative axes, scalar, 1-D and 2-D indices, repeated and
negative indices, out-of-range indices (a slice of zeros: wgk's definition of what ONNX leaves an
error), the weight-load swap of halves ([heads, 2, half, in], axis 1, indices [1, 0]), odd sizes,
outputs of several workgroups, and zero-size outputs (empty indices, an empty inner dimension) or
inputs (an empty gathered axis: every index out of range). Each layout takes int64 or int32
indices, alternating over the dtypes so that both meet every layout; the out-of-range layouts
take both for every dtype, and int64 values beyond 32 bits (2^32 + 1 is not 1). Row bytes decide
which variants are eligible (rows_vec4: a multiple of 16, rows_words: of 4; half_pairs: float16
with even element counts; elements: any); `wgk test --all-variants` runs each case on each
eligible one. Generated cases have no output
data (wgk's CPU reference computes it); pinned cases spell out the expected values, float16 bits
(NaN, -0, inf, subnormals) included. Everything is exact: the kernels copy bits.
Data: floats from fillFloat32, integers from seeded random data over the dtype's range, indices
from the formulas below (deterministic).
bench.json: Gemma's embedding lookup in a 256,000 x 2048 float16 table (decode: 1 row; prefill:
128 and 2048 rows) and the weight-load swap of halves; smoke cases small enough for lavapipe.

  python3 tools/packages/gather_cases.py   # then: build/src/cli/wgk digest --write packages/webgpu-kernels/ai.onnx.Gather
"""
import math
import os

from case_json import dump, fill

PKG = os.path.join(os.path.dirname(__file__), "..", "..", "packages", "webgpu-kernels", "ai.onnx.Gather", "build", "webgpu")
RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "uint32": (0, 2 ** 32 - 1)}
BYTES = {"float32": 4, "float16": 2, "int32": 4, "uint32": 4}
DTYPES = ["float32", "float16", "int32", "uint32"]
HUGE = [2 ** 32 + 1, -(2 ** 32) - 1, 2 ** 40, -(2 ** 40), 2 ** 31, -(2 ** 31) - 1]  # int64 only


def spread(n, size, seed, negative=True):
    """n indices in [-size, size - 1] (or [0, size - 1]), repeats included."""
    lo = -size if negative else 0
    return [lo + (i * 7919 + seed * 104729) % (size - lo) for i in range(n)]


# (name, data shape, axis, indices shape, indices values or None (spread over the axis), both index dtypes)
LAYOUTS = [
    ("rank1_8", [8], 0, [3], [5, -1, 0], False),
    ("rank1_scalar_index", [7], 0, [], [-3], False),
    ("embed_50x16", [50, 16], 0, [5], [49, 0, 17, 17, -50], False),
    ("embed_2d_indices_20x6", [20, 6], 0, [2, 3], [0, 19, -1, 7, 7, 3], False),
    ("odd_rows_9x5", [9, 5], 0, [4], [8, 0, -9, 4], False),
    ("middle_axis_3x7x8", [3, 7, 8], 1, [4], [6, -7, 2, 2], False),
    ("swap_halves_3x2x4x8", [3, 2, 4, 8], 1, [2], [1, 0], False),
    ("negative_axis_2x3x5x3", [2, 3, 5, 3], -2, [2, 2], [4, -1, 0, 2], False),
    ("last_axis_4x9", [4, 9], -1, [3], [8, -9, 3], False),
    ("last_axis_2d_indices_3x2x5", [3, 2, 5], 2, [2, 2], [4, 0, -5, 1], False),
    ("scalar_index_rank4_2x3x4x4", [2, 3, 4, 4], 2, [], [-2], False),
    ("scalar_index_first_axis_6x4", [6, 4], -2, [], [5], False),
    ("long_rows_300x40", [300, 40], 0, [64], None, False),
    ("long_middle_5x100x12", [5, 100, 12], 1, [30], None, False),
    ("long_odd_3x50x7", [3, 50, 7], 1, [40], None, False),
    ("out_of_range_6x4", [6, 4], 0, [7], [6, -7, 100, -1, 0, 2147483647, -2147483648], True),
    ("out_of_range_axis1_2x5x3", [2, 5, 3], 1, [4], [5, -6, 4, -5], True),
    ("zero_size_indices_4x3", [4, 3], 0, [0], [], False),
    ("zero_size_inner_3x0", [3, 0], 0, [2], [0, 2], False),
    ("zero_size_indices_axis1_2x3x4", [2, 3, 4], 1, [0, 2], [], False),
    ("empty_axis_0x4", [0, 4], 0, [2], [0, -1], True),
]


def out_shape(shape, axis, ishape):
    a = axis % len(shape)
    return shape[:a] + ishape + shape[a + 1:]


def variant_for(dtype, shape, axis, ishape):
    """The variant selection picks (the highest priority eligible one)."""
    row = math.prod(shape[axis % len(shape) + 1:]) * BYTES[dtype]
    if row % 16 == 0:
        return "rows_vec4"
    if row % 4 == 0:
        return "rows_words"
    if dtype == "float16" and math.prod(out_shape(shape, axis, ishape)) % 2 == 0 and math.prod(shape) % 2 == 0:
        return "half_pairs"
    return "elements"


def values(v):
    return {"kind": "values", "values": v}


def data(dtype, shape, seed):
    if dtype in ("float32", "float16"):
        return fill(0.13 + 0.01 * seed, 0.29, 4.0)
    lo, hi = RANGE[dtype]
    return {"kind": "random", "seed": seed, "min": lo, "max": hi}  # floor of a uniform in [lo, hi)


def case(name, dtype, shape, axis, idtype, ishape, idx, data_spec, want=None, description=None):
    c = {"name": name}
    if description:
        c["description"] = description
    c["variant"] = variant_for(dtype, shape, axis, ishape)
    c["attrs"] = {"axis": axis}
    c["inputs"] = {"data": {"dtype": dtype, "shape": shape, "data": data_spec},
                   "indices": {"dtype": idtype, "shape": ishape, "data": values(idx)}}
    out = {"dtype": dtype, "shape": out_shape(shape, axis, ishape)}
    if want is not None:
        out["data"] = values(want)
    c["outputs"] = {"output": out}
    return c


def generated_cases():
    out = []
    for di, dtype in enumerate(DTYPES):
        for li, (name, shape, axis, ishape, idx, both) in enumerate(LAYOUTS):
            size = shape[axis % len(shape)]
            if idx is None:
                idx = spread(math.prod(ishape), size, li)
            assert len(idx) == math.prod(ishape)
            idtypes = ["int64", "int32"] if both else ["int64" if (di + li) % 2 == 0 else "int32"]
            for idtype in idtypes:
                v, ish = idx, ishape
                if idtype == "int64" and name == "out_of_range_6x4":  # and values beyond 32 bits
                    v, ish = idx + HUGE, [len(idx) + len(HUGE)]
                out.append(case(f"{dtype}_{name}_{idtype}", dtype, shape, axis, idtype, ish, v,
                                data(dtype, shape, li + 1)))
    return out


def pinned_cases():
    out = []
    # float16 bits copied unchanged: NaN, -0, +-inf, the smallest subnormal, 65504; odd rows (elements)
    # and even rows (words).
    f16 = [1.5, "NaN", -0.0, "Infinity", "-Infinity", 5.960464477539063e-08, 65504, -2]
    out.append(case("float16_bits_odd_rows", "float16", [8, 1], 0, "int64", [5], [3, -3, 2, 9, 5],
                    values(f16), want=["Infinity", 5.960464477539063e-08, -0.0, 0, 5.960464477539063e-08],
                    description="Special values pass through as bits; index 9 is out of range (zero)"))
    out.append(case("float16_bits_pairs", "float16", [4, 2], 0, "int32", [3], [0, -2, 1], values(f16),
                    want=[1.5, "NaN", "-Infinity", 5.960464477539063e-08, -0.0, "Infinity"],
                    description="Rows of one u32 word"))
    out[-1]["outputs"]["output"]["allowNaN"] = True
    out.append(case("float16_bits_columns", "float16", [4, 2], 1, "int64", [3], [1, 0, -1], values(f16),
                    want=["NaN", 1.5, "NaN", "Infinity", -0.0, "Infinity", 5.960464477539063e-08, "-Infinity",
                          5.960464477539063e-08, -2, 65504, -2],
                    description="Columns: output words hold halves of two rows (half_pairs)"))
    out[-1]["outputs"]["output"]["allowNaN"] = True
    table = [10 * r + c for r in range(5) for c in range(4)]
    out.append(case("int32_rows_pinned", "int32", [5, 4], 0, "int64", [2, 2], [4, -5, 2 ** 32 + 2, -1],
                    values(table), want=[40, 41, 42, 43, 0, 1, 2, 3, 0, 0, 0, 0, 40, 41, 42, 43],
                    description="A 2-D index block: the last row, the first from the end, 2^32 + 2 out of range"))
    w = list(range(2 * 2 * 3 * 4))  # [2, 2, 3, 4]: swap the halves of axis 1
    want = [w[(h * 2 + (1 - s)) * 12 + i] for h in range(2) for s in range(2) for i in range(12)]
    out.append(case("uint32_swap_halves_pinned", "uint32", [2, 2, 3, 4], 1, "int64", [2], [1, 0], values(w),
                    want=want, description="The weight-load swap: [heads, 2, half, in], axis 1, indices [1, 0]"))
    return out


# (name, data shape, axis, indices shape, index range (or explicit values), description, tags)
VOCAB, HIDDEN = 256000, 2048
BENCH = [
    ("smoke_embed_64x256_f16_8", [64, 256], 0, [8], 64, "Embedding lookup in a small float16 table (CI on lavapipe)", ["smoke"]),
    ("smoke_swap_halves_4x2x16x64_f16", [4, 2, 16, 64], 1, [2], [1, 0], "Swap of halves in a small weight (CI on lavapipe)", ["smoke"]),
    ("decode_embed_256000x2048_f16_1", [VOCAB, HIDDEN], 0, [1], VOCAB, "Gemma's embedding row of one decode token (256,000 x 2048 float16 table)", ["decode"]),
    ("prefill_embed_256000x2048_f16_128", [VOCAB, HIDDEN], 0, [128], VOCAB, "The embedding rows of a 128-token prompt", ["prefill"]),
    ("prefill_embed_256000x2048_f16_2048", [VOCAB, HIDDEN], 0, [2048], VOCAB, "The embedding rows of a 2048-token prompt", ["prefill"]),
    ("weights_swap_halves_8x2x128x2048_f16", [8, 2, 128, HIDDEN], 1, [2], [1, 0], "Weight-load swap of the rotary halves of a [heads, 2, half, in] projection", ["large"]),
]


def bench_cases():
    out = []
    for name, shape, axis, ishape, idx, desc, tags in BENCH:
        n = math.prod(ishape)
        # Token ids spread over the whole table (a cache-cold row per token), all in range.
        v = idx if isinstance(idx, list) else [(i * 104729 + 7919) % idx for i in range(n)]
        out.append({"name": name, "description": desc, "tags": tags, "attrs": {"axis": axis},
                    "inputs": {"data": {"dtype": "float16", "shape": shape},
                               "indices": {"dtype": "int64", "shape": ishape, "data": values(v)}}})
    return {"cases": out, "report": {"warmup": 5, "iterations": 50}}


def main():
    cases = generated_cases() + pinned_cases()
    assert len({c["name"] for c in cases}) == len(cases)
    for dtype in DTYPES:  # every variant meets every dtype where its rows allow it
        got = {c["variant"] for c in cases if c["inputs"]["data"]["dtype"] == dtype}
        want = {"rows_vec4", "rows_words", "half_pairs", "elements"} if dtype == "float16" else {"rows_vec4", "rows_words"}
        assert got >= want, (dtype, got)
    dump({"cases": cases}, os.path.join(PKG, "test.json"))
    dump(bench_cases(), os.path.join(PKG, "bench.json"))


if __name__ == "__main__":
    main()
