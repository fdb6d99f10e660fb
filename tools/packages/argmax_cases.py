#!/usr/bin/env python3
"""Writes ai.onnx.ArgMax's test.json and bench.json (build/webgpu/) from the case lists below.

test.json: every variant for every dtype of T (LAYOUTS: contiguous rows in vec4 words and in
scalars, short rows, a middle and a first axis, rows split across workgroups, rank 1 down to a
scalar, a reduced axis followed by ones, an empty outer dimension), each with keepdims 1 and 0
and select_last_index 0 and 1 across the list; plus cases whose expected indices are pinned:
ties (first or last), NaN (numpy's order: the first or last NaN wins), -0 == +0, infinities,
integer extremes, and a row_split row whose equal maxima sit in different blocks. Generated cases
have no output data: wgk's CPU reference computes it. The output is int64 (stored as int32 on
the device), compared exactly.
Data: floats from fillFloat32 or, where ties are wanted, small integers; integers from seeded
random data over the dtype's range (int8 / uint8 rows of thousands repeat their maximum).
bench.json: the vocabulary row of a Gemma decode step (256,000) and a few batched shapes; byte
counts distinct (the report matches torch peers by op and bytes).

  python3 tools/packages/argmax_cases.py   # then: build/wgk digest --write packages/webgpu-kernels/ai.onnx.ArgMax
"""
import json
import math
import os

from case_json import dump, fill

PKG = os.path.join(os.path.dirname(__file__), "..", "..", "packages", "webgpu-kernels", "ai.onnx.ArgMax", "build", "webgpu")
INF, NINF, NAN = "Infinity", "-Infinity", "NaN"
RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "uint32": (0, 2 ** 32 - 1), "int8": (-128, 127), "uint8": (0, 255)}
BYTES = {"float32": 4, "float16": 2}
DTYPES = ["float32", "float16", "int32", "uint32", "int8", "uint8"]

# (name, shape, axis, keepdims, select_last_index, variant, ties): ties = small-integer float data.
LAYOUTS = [
    ("rows_vec4_3x128", [3, 128], -1, 1, 0, "row", False),
    ("rows_vec4_ties_last_4x96", [4, 96], 1, 0, 1, "row", True),
    ("rows_scalar_2x67", [2, 67], -1, 0, 0, "row", False),
    ("rows_scalar_ties_3x70", [3, 70], -1, 1, 1, "row", True),
    ("axis_then_ones_3x80x1", [3, 80, 1], 1, 1, 0, "row", False),
    ("short_rows_5x9", [5, 9], -1, 1, 0, "strided", False),
    ("short_rows_ties_6x7", [6, 7], 1, 0, 1, "strided", True),
    ("middle_axis_2x5x6", [2, 5, 6], 1, 1, 0, "strided", False),
    ("first_axis_ties_7x3x4", [7, 3, 4], 0, 0, 0, "strided", True),
    ("first_axis_last_7x3x4", [7, 3, 4], -3, 1, 1, "strided", True),
    ("rank1_to_scalar_100", [100], 0, 0, 0, "row", False),
    ("empty_outer_0x5", [0, 5], 1, 1, 0, "strided", False),
    ("split_vec4_2x16388", [2, 16388], -1, 1, 0, "row_split", False),
    ("split_scalar_last_1x16385", [1, 16385], 1, 0, 1, "row_split", False),
]


def out_shape(shape, axis, keepdims):
    a = axis % len(shape)
    return shape[:a] + ([1] if keepdims else []) + shape[a + 1:]


def split_maxima():
    """A [16388] row of -1 with equal maxima 3 in blocks 0, 2, 4 and 8 (BLOCK_COLS 2048)."""
    row = [-1] * 16388
    for i in (7, 4100, 9000, 16387):
        row[i] = 3
    return row


def spikes(n, positions):
    """-1 everywhere but 3 at `positions`."""
    row = [-1] * n
    for i in positions:
        row[i] = 3
    return row


def tie_values(n, seed):
    # Small integers (-3..3): every row has repeated maxima.
    return {"kind": "values", "values": [((i * 7919 + seed * 104729) % 7) - 3 for i in range(n)]}


def data(dtype, shape, seed, ties):
    n = math.prod(shape)
    if dtype in BYTES:
        return tie_values(n, seed) if ties else fill(0.13 + 0.01 * seed, 0.29, 4.0)
    lo, hi = RANGE[dtype]
    if ties:
        lo, hi = max(lo, -3), min(hi, 3)
    return {"kind": "random", "seed": seed, "min": lo, "max": hi}  # floor of a uniform in [lo, hi)


def case(name, dtype, shape, axis, keepdims, last, x_data, want=None, variant=None, description=None):
    c = {"name": name}
    if description:
        c["description"] = description
    if variant:
        c["variant"] = variant
    c["attrs"] = {"axis": axis, "keepdims": keepdims, "select_last_index": last}
    c["inputs"] = {"x": {"dtype": dtype, "shape": shape, "data": x_data}}
    out = {"dtype": "int64", "shape": out_shape(shape, axis, keepdims)}
    if want is not None:
        out["data"] = {"kind": "values", "values": want}
    c["outputs"] = {"y": out}
    return c


def values(v):
    return {"kind": "values", "values": v}


def generated_cases():
    out = []
    for dtype in DTYPES:
        for i, (name, shape, axis, keepdims, last, variant, ties) in enumerate(LAYOUTS):
            # The split rows are the costly cases on lavapipe: float32, float16 and int8 take them.
            if variant == "row_split" and dtype not in ("float32", "float16", "int8"):
                continue
            out.append(case(f"{dtype}_{name}", dtype, shape, axis, keepdims, last, data(dtype, shape, i + 1, ties),
                            variant=variant))
    return out


def pinned_cases():
    specials = [1, NAN, INF, NAN, 2, -0.0, 0.0, NINF]  # NaN above inf; the first NaN is 1, the last 3
    zeros = [-0.0, 0.0, -1, NINF, 0.0, -0.0, -5, -0.0]   # signed zeros tie
    pad = [-7.5] * 64
    out = []
    for dtype in ("float32", "float16"):
        out += [
            case(f"{dtype}_nan_first", dtype, [2, 8], -1, 0, 0, values(specials + zeros), [1, 0], variant="strided",
                 description="NaN is above every number (numpy.argmax): the first NaN; -0 and +0 tie"),
            case(f"{dtype}_nan_last", dtype, [2, 8], -1, 0, 1, values(specials + zeros), [3, 7], variant="strided",
                 description="select_last_index: the last NaN; the last of the tied zeros"),
            case(f"{dtype}_nan_first_rows", dtype, [2, 72], -1, 0, 0, values(specials + pad + zeros + pad), [1, 0],
                 variant="row", description="The same rows padded to 72 (a workgroup per row, vec4 words)"),
            case(f"{dtype}_nan_last_rows", dtype, [2, 72], -1, 0, 1, values(specials + pad + zeros + pad), [3, 7],
                 variant="row"),
            case(f"{dtype}_infinities_strided", dtype, [3, 2], 0, 1, 0, values([NINF, 1, INF, INF, NINF, NAN]),
                 [1, 2], variant="strided", description="+inf beats finite values, NaN beats +inf"),
            case(f"{dtype}_all_neg_inf_last", dtype, [5], 0, 1, 1, values([NINF] * 5), [4], variant="strided"),
        ]
    split = {"kind": "values", "values": {"$ref": "#/fixtureArrays/split_maxima_16388"}}
    # Equal maxima one workgroup stride apart (1,024 elements: the same invocation and vec4 lane,
    # two loop iterations; 256 elements on the scalar path): the order within an invocation.
    lane = values(spikes(2056, (9, 1033)))
    scalar = values(spikes(2051, (9, 265)))
    same_thread = {"kind": "values", "values": {"$ref": "#/fixtureArrays/lane_ties_16392"}}
    out += [
        case("float32_lane_ties_first", "float32", [1, 2056], -1, 0, 0, lane, [9], variant="row"),
        case("float32_lane_ties_last", "float32", [1, 2056], -1, 0, 1, lane, [1033], variant="row"),
        case("int8_thread_ties_first", "int8", [1, 2051], -1, 0, 0, scalar, [9], variant="row"),
        case("int8_thread_ties_last", "int8", [1, 2051], -1, 0, 1, scalar, [265], variant="row"),
        case("float16_split_lane_ties_first", "float16", [1, 16392], -1, 0, 0, same_thread, [9], variant="row_split"),
        case("float16_split_lane_ties_last", "float16", [1, 16392], -1, 0, 1, same_thread, [1033],
             variant="row_split"),
    ]
    out += [
        case("float16_split_ties_first", "float16", [1, 16388], -1, 1, 0, split, [7], variant="row_split",
             description="Equal maxima in different blocks: the first block's"),
        case("float16_split_ties_last", "float16", [1, 16388], -1, 1, 1, split, [16387], variant="row_split",
             description="Equal maxima in different blocks, select_last_index: the last block's"),
        case("int32_extremes", "int32", [2, 4], 1, 0, 0, values([-2147483648, -1, 2147483647, 0, -2147483648, -2147483648, -7, -2147483648]),
             [2, 2], variant="strided"),
        case("uint32_above_int32", "uint32", [4], 0, 0, 0, values([2147483647, 4294967295, 2147483648, 0]), [1],
             variant="strided", description="uint32 keys compare unsigned"),
        case("int8_extremes_last", "int8", [6], 0, 0, 1, values([127, -128, 127, 0, -1, 126]), [2], variant="strided"),
        case("uint8_extremes", "uint8", [5], 0, 1, 0, values([128, 255, 0, 255, 127]), [1], variant="strided"),
    ]
    return out


# (name, shape, dtype, description, tags)
BENCH = [
    ("smoke_4x1000_f32", [4, 1000], "float32", "Four short rows (CI on lavapipe)", ["smoke"]),
    ("decode_vocab_1x256000_f16", [1, 256000], "float16", "Greedy pick over the Gemma vocabulary (256,000) at one decode token", ["decode"]),
    ("decode_vocab_1x256000_f32", [1, 256000], "float32", "The same row in float32 logits", ["decode"]),
    ("batch8_vocab_8x256000_f16", [8, 256000], "float16", "Eight sequences decoding at once", ["decode"]),
    ("rows_128x32000_f32", [128, 32000], "float32", "Greedy picks for every prompt position of a 32,000-vocabulary model", ["prefill"]),
]


def bench_cases():
    out = []
    for name, shape, dtype, desc, tags in BENCH:
        out.append({"name": name, "description": desc, "tags": tags, "attrs": {"axis": -1, "keepdims": 1},
                    "inputs": {"x": {"dtype": dtype, "shape": shape}}})
    sizes = [BYTES[d] * math.prod(s) + 8 * math.prod(s[:-1]) for _, s, d, _, _ in BENCH]
    assert len(set(sizes)) == len(sizes), "bench byte counts must be distinct"
    return {"cases": out, "report": {"warmup": 5, "iterations": 50}}


def main():
    cases = generated_cases() + pinned_cases()
    assert len({c["name"] for c in cases}) == len(cases)
    path = os.path.join(PKG, "test.json")
    dump({"cases": cases}, path)
    # The long fixtures on one line (dump() keeps `values` lists on one line, not fixtures).
    text = open(path).read()
    assert text.startswith('{\n "cases"')
    fixture = json.dumps({"split_maxima_16388": split_maxima(), "lane_ties_16392": spikes(16392, (9, 1033))})
    open(path, "w").write('{\n "fixtureArrays": ' + fixture + ",\n" + text[2:])
    dump(bench_cases(), os.path.join(PKG, "bench.json"))


if __name__ == "__main__":
    main()
