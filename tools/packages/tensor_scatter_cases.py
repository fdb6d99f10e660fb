#!/usr/bin/env python3
"""Writes ai.onnx.TensorScatter's test.json and bench.json (build/webgpu/) from the case lists below.

test.json: every dtype of T over LAYOUTS: the sequence axis -2 (decode and prefill rows), -1 (the
transposed key cache: rows of one element), a positive axis, ranks 3 to 5, write_indices given and
absent, batch > 1 with different write indices, linear positions past the end and before the start
(not written: ONNX makes them an error, a kernel cannot raise one), write indices with a non-zero
high word, the whole sequence replaced, an empty update. The layouts reach every variant: vec4
(rows of a multiple of 16 bytes), words (of 4) and halves (float16 rows of odd length, words shared
by two rows and by two batch samples); --all-variants runs each case on every eligible one.
Linear cases have no output data: wgk's CPU reference computes it. Circular cases (and one with an
explicit mode "linear") carry their expected output, computed here, because the harness passes only
numeric attributes to the CPU reference; tests/unit/reference/tensor_scatter_test.cpp checks those
pinned outputs against the reference. Pinned data are small integers (exact in every dtype); one
float case copies NaN, infinities, -0 and subnormals. Everything is compared exactly (a copy).
bench.json: Gemma decode steps (cache [1, kv_heads, 8192, 256] float16, one token, axis -2, and the
transposed key cache [1, kv_heads, 256, 8000], axis -1), a sliding-window ring buffer (circular), prefill updates of 2,048
tokens; small smoke cases. Byte counts distinct (the report matches torch peers by op and bytes).

  python3 tools/packages/tensor_scatter_cases.py   # then: build/src/cli/wgk digest --write packages/webgpu-kernels/ai.onnx.TensorScatter
"""
import math
import os

from case_json import dump, fill

PKG = os.path.join(os.path.dirname(__file__), "..", "..", "packages", "webgpu-kernels", "ai.onnx.TensorScatter", "build",
                   "webgpu")
DTYPES = ["float32", "float16", "int32", "uint32", "int64", "int8", "uint8", "int16", "bool"]
BYTES = {"float32": 4, "float16": 2, "int64": 8}  # device bytes; the rest are 4-byte words
RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "uint32": (0, 2 ** 32 - 1), "int64": (-2 ** 31, 2 ** 31 - 1),
         "int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767), "bool": (0, 1)}

# Linear layouts, expected data from the CPU reference:
# (name, cache shape, update length, axis, write_indices or None).
LINEAR = [
    ("decode_axis_m2_1x2x16x8", [1, 2, 16, 8], 1, -2, [5]),
    ("prefill_axis_m2_2x3x12x6", [2, 3, 12, 6], 5, -2, [0, 7]),
    ("odd_rows_axis_m2_2x2x9x3", [2, 2, 9, 3], 4, -2, [2, 5]),
    ("transposed_axis_m1_2x1x3x5", [2, 1, 3, 5], 3, -1, [2, 0]),
    ("transposed_decode_axis_m1_1x2x8x9", [1, 2, 8, 9], 1, -1, [8]),
    ("absent_indices_rank3_3x10x4", [3, 10, 4], 6, 1, None),
    ("past_the_end_3x2x8x4", [3, 2, 8, 4], 3, -2, [6, 8, -2]),
    ("high_word_3x1x6x4", [3, 1, 6, 4], 2, -2, [2 ** 32 + 1, -(2 ** 32 - 1), 2]),
    ("rank5_axis2_2x2x7x3x2", [2, 2, 7, 3, 2], 2, 2, [5, 0]),
    ("rank5_axis_m1_past_end_1x2x3x2x9", [1, 2, 3, 2, 9], 4, -1, [7]),
    ("whole_sequence_2x4x6", [2, 4, 6], 4, -2, None),
    ("axis1_rank4_2x6x3x2", [2, 6, 3, 2], 2, 1, [4, 1]),
    ("empty_update_2x3x5x4", [2, 3, 5, 4], 0, -2, [1, 2]),
]

# Circular layouts, expected data computed here: (name, cache shape, update length, axis, write_indices).
CIRCULAR = [
    ("circular_wrap_2x2x8x4", [2, 2, 8, 4], 3, -2, [6, 1]),
    ("circular_transposed_axis_m1_2x1x3x7", [2, 1, 3, 7], 5, -1, [4, 9]),
    ("circular_negative_and_large_4x1x5x2", [4, 1, 5, 2], 3, -2, [-1, 2 ** 32 + 5, -(2 ** 32 + 3), 2 ** 53 - 1]),
    ("circular_batch_above_max_seq_5x4x1", [5, 4, 1], 2, 1, [3, 3, 3, 3, 3]),
    ("circular_absent_indices_2x5x3", [2, 5, 3], 5, 1, None),
    ("circular_whole_sequence_2x3x6x2", [2, 3, 6, 2], 6, -2, [4, 11]),
    ("circular_rank5_halves_1x2x3x5x3", [1, 2, 3, 5, 3], 4, 3, [3]),
    ("circular_rank3_decode_axis_m1_2x4x5", [2, 4, 5], 1, -1, [9, -6]),
]


def update_shape(shape, seq, axis):
    a = axis % len(shape)
    return shape[:a] + [seq] + shape[a + 1:]


def pinned_values(dtype, n, role):
    """Small integers, exact in every dtype; the update's differ from the cache's."""
    if dtype == "bool":
        return [0] * n if role == "cache" else [1] * n
    if role == "update":
        return [100 + (i % 27) for i in range(n)]
    if dtype in ("uint32", "uint8"):
        return [i % 61 for i in range(n)]
    return [(i % 61) - 30 for i in range(n)]


def generated_data(dtype, n, seed, role):
    if dtype in ("float32", "float16"):
        return fill(0.11 + 0.01 * seed, 0.23 + (0.05 if role == "update" else 0.0), 3.0 if role == "cache" else 7.0)
    lo, hi = RANGE[dtype]
    return {"kind": "random", "seed": seed * 2 + (role == "update"), "min": lo, "max": hi + 1 if dtype == "bool" else hi}


def scatter(cache, update, shape, seq, axis, indices, circular):
    """The op on flat lists: the layout of src/reference/tensor_scatter.cpp, independently written."""
    a = axis % len(shape)
    outer, m, row = math.prod(shape[:a]), shape[a], math.prod(shape[a + 1:])
    per_batch = outer // shape[0] if shape[0] else 0
    out = list(cache)
    for o in range(outer):
        w = indices[o // per_batch] if indices is not None else 0
        for s in range(seq):
            p = (w % m + s) % m if circular else w + s  # Python's % is non-negative, like numpy's
            if not 0 <= p < m:
                continue
            out[(o * m + p) * row:(o * m + p + 1) * row] = update[(o * seq + s) * row:(o * seq + s + 1) * row]
    return out


def values(v):
    return {"kind": "values", "values": v}


def case(name, dtype, shape, seq, axis, indices, cache_data, update_data, attrs, want=None, allow_nan=False):
    c = {"name": name, "attrs": attrs}
    c["inputs"] = {"cache": {"dtype": dtype, "shape": shape, "data": cache_data},
                   "update": {"dtype": dtype, "shape": update_shape(shape, seq, axis), "data": update_data}}
    if indices is not None:
        c["inputs"]["write_indices"] = {"dtype": "int64", "shape": [len(indices)], "data": values(indices)}
    out = {"dtype": dtype, "shape": shape}
    if want is not None:
        out["data"] = values(want)
    if allow_nan:
        out["allowNaN"] = True
    c["outputs"] = {"cache": out}
    return c


def linear_cases():
    out = []
    for dtype in DTYPES:
        for i, (name, shape, seq, axis, indices) in enumerate(LINEAR):
            n, nu = math.prod(shape), math.prod(update_shape(shape, seq, axis))
            out.append(case(f"{dtype}_{name}", dtype, shape, seq, axis, indices, generated_data(dtype, n, i + 1, "cache"),
                            generated_data(dtype, nu, i + 1, "update") if nu else values([]), {"axis": axis}))
    return out


def circular_cases():
    out = []
    for dtype in DTYPES:
        for name, shape, seq, axis, indices in CIRCULAR:
            us = update_shape(shape, seq, axis)
            cache, update = pinned_values(dtype, math.prod(shape), "cache"), pinned_values(dtype, math.prod(us), "update")
            want = scatter(cache, update, shape, seq, axis, indices, True)
            out.append(case(f"{dtype}_{name}", dtype, shape, seq, axis, indices, values(cache), values(update),
                            {"axis": axis, "mode": "circular"}, want))
    # mode "linear" given explicitly (a string attribute: pinned like the circular cases).
    shape, seq, axis, indices = [2, 2, 6, 4], 3, -2, [4, 1]
    cache, update = pinned_values("float16", 96, "cache"), pinned_values("float16", 48, "update")
    out.append(case("float16_explicit_linear_past_end_2x2x6x4", "float16", shape, seq, axis, indices, values(cache),
                    values(update), {"axis": axis, "mode": "linear"},
                    scatter(cache, update, shape, seq, axis, indices, False)))
    # Bits, not numbers: NaN, infinities, -0 and subnormals are copied unchanged, wrapping.
    special = ["NaN", "Infinity", "-Infinity", -0.0, 1e-40, -3.5, 65504, 2.0 ** -24]
    for dtype, sub in (("float32", 1e-40), ("float16", 2.0 ** -24)):
        upd = [sub if v == 1e-40 else v for v in special] * 2
        shape, seq, axis, indices = [2, 3, 4], 2, -1, [3, -1]
        cache = [(i % 9) - 4 for i in range(24)]
        out.append(case(f"{dtype}_circular_special_values_2x3x4", dtype, shape, seq, axis, indices, values(cache),
                        values(upd[:12]), {"axis": axis, "mode": "circular"},
                        scatter(cache, upd[:12], shape, seq, axis, indices, True), allow_nan=True))
    return out


# (name, cache shape, update length, axis, write_indices or None, mode, description, tags)
BENCH = [
    ("smoke_decode_1x2x64x32_f16", [1, 2, 64, 32], 1, -2, [17], "linear", "One token into a small cache (CI on lavapipe)", ["smoke"]),
    ("smoke_decode_transposed_1x2x32x48_f16", [1, 2, 32, 48], 1, -1, [17], "linear", "One token into a small transposed key cache", ["smoke"]),
    ("smoke_prefill_1x2x64x32_f16", [1, 2, 64, 32], 16, -2, None, "linear", "Sixteen prompt tokens at position 0", ["smoke"]),
    ("decode_1x1x8192x256_f16", [1, 1, 8192, 256], 1, -2, [4095], "linear", "Gemma decode step, one KV head (head_dim 256)", ["decode"]),
    ("decode_1x4x8192x256_f16", [1, 4, 8192, 256], 1, -2, [4095], "linear", "Gemma decode step, four KV heads", ["decode"]),
    ("decode_1x8x8192x256_f16", [1, 8, 8192, 256], 1, -2, [4095], "linear", "Gemma decode step, eight KV heads", ["decode"]),
    ("decode_transposed_1x1x256x8000_f16", [1, 1, 256, 8000], 1, -1, [4095], "linear", "Transposed key cache [b, kv, head_dim, max_seq], one KV head (8,000 positions)", ["decode"]),
    ("decode_transposed_1x8x256x8000_f16", [1, 8, 256, 8000], 1, -1, [4095], "linear", "Transposed key cache, eight KV heads", ["decode"]),
    ("decode_sliding_window_1x4x1024x256_f16", [1, 4, 1024, 256], 1, -2, [5000], "circular", "A sliding-window layer's ring buffer (1,024 positions) at token 5,000", ["decode"]),
    ("decode_1x8x8192x256_f32", [1, 8, 8192, 256], 1, -2, [4095], "linear", "Decode step with a float32 cache", ["decode"]),
    ("prefill_1x8x8192x256_f16", [1, 8, 8192, 256], 2048, -2, None, "linear", "A 2,048-token prompt written at position 0", ["prefill"]),
    ("prefill_transposed_1x8x256x8000_f16", [1, 8, 256, 8000], 2048, -1, None, "linear", "The same prompt into the transposed key cache", ["prefill"]),
    ("prefill_chunk_1x8x8192x256_f16", [1, 8, 8192, 256], 512, -2, [2048], "linear", "A 512-token prompt chunk after 2,048 cached tokens", ["prefill"]),
]


def bench_cases():
    out, sizes = [], []
    for name, shape, seq, axis, indices, mode, desc, tags in BENCH:
        dtype = "float32" if name.endswith("_f32") else "float16"
        inputs = {"cache": {"dtype": dtype, "shape": shape}, "update": {"dtype": dtype, "shape": update_shape(shape, seq, axis)}}
        c = {"name": name, "description": desc, "tags": tags, "attrs": {"axis": axis, "mode": mode}, "inputs": inputs}
        if indices is not None:
            inputs["write_indices"] = {"dtype": "int64", "shape": [1], "data": values(indices)}
        else:
            c["absent"] = ["write_indices"]
        out.append(c)
        # What the harness counts: every input and output whole (the cache twice), not the update alone.
        sizes.append(BYTES[dtype] * (2 * math.prod(shape) + math.prod(update_shape(shape, seq, axis))) +
                     (8 if indices is not None else 0))
    assert len(set(sizes)) == len(sizes), "bench byte counts must be distinct"
    return {"cases": out, "report": {"warmup": 5, "iterations": 50}}


def main():
    cases = linear_cases() + circular_cases()
    assert len({c["name"] for c in cases}) == len(cases)
    dump({"cases": cases}, os.path.join(PKG, "test.json"))
    dump(bench_cases(), os.path.join(PKG, "bench.json"))


if __name__ == "__main__":
    main()
