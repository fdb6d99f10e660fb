#!/usr/bin/env python3
"""Writes ai.onnx.Mul's test.json and bench.json (build/webgpu/) from the case lists below.

test.json: every variant for every dtype of T (SHAPES: same shape, a splatted operand on either
side, a bias row, broadcasts on both sides with and without a row-aligned last dimension, odd
sizes, rank 0, rank 7, zero-size, outputs long enough that an
invocation loops over several words), plus hand-worked cases whose expected values are pinned
(float16 rounding ties, overflow to inf, the subnormal range, inf/NaN/zero products, integer
wrap). Generated cases have no output data: wgk's CPU reference computes it. Floats come from
fillFloat32 (|x| <= 2, so float32 products never reach the subnormal range, which WGSL lets a
device flush); integers from seeded random data over the dtype's range but its largest value, so products wrap.
Tolerances: float16 exact (one correctly rounded conversion), float32 `ulp: 1` for generated data
(WGSL lets a correctly rounded product be either neighbour) and exact for pinned values,
integers exact.
bench.json: Gemma decode and prefill shapes; byte counts distinct (the report matches torch
peers by op and bytes).

  python3 tools/packages/mul_cases.py   # then: build/wgk digest --write packages/webgpu-kernels/ai.onnx.Mul
"""
import math
import os

from case_json import dump, fill

PKG = os.path.join(os.path.dirname(__file__), "..", "..", "packages", "webgpu-kernels", "ai.onnx.Mul", "build", "webgpu")
INF, NINF, NAN = "Infinity", "-Infinity", "NaN"
RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "uint32": (0, 2 ** 32 - 1), "int8": (-128, 127), "uint8": (0, 255)}
BYTES = {"float32": 4, "float16": 2}

# (name, a shape, b shape, the variant the case is for).
SHAPES = [
    ("same_3x44", [3, 44], [3, 44], "flat_vec4"),
    ("splat_b_rank0_2x64", [2, 64], [], "flat_vec4"),
    ("splat_a_1_5x8", [1], [5, 8], "flat_vec4"),
    ("bias_row_6x16_16", [6, 16], [16], "broadcast_vec4"),
    ("outer_4x3x1_1x3x6", [4, 3, 1], [1, 3, 6], "broadcast_vec4"),
    ("rank7_alternating", [2, 1, 3, 1, 2, 1, 2], [1, 4, 1, 5, 1, 3, 1], "broadcast_vec4"),
    ("odd_3x7_7", [3, 7], [7], "broadcast"),
    ("same_odd_19", [19], [19], "broadcast"),
    ("rank0_rank0", [], [], "broadcast"),
    ("zero_size_3x0_1", [3, 0], [1], "broadcast"),
    # Long enough that an invocation loops (4 words / 4 elements a workgroup stride apart).
    ("long_2x1100", [2, 1100], [2, 1100], "flat_vec4"),
    ("long_splat_2x1100", [2, 1100], [1], "flat_vec4"),
    ("long_odd_3x401_401", [3, 401], [401], "broadcast"),
]


def broadcast_shape(a, b):
    rank = max(len(a), len(b))
    a = [1] * (rank - len(a)) + list(a)
    b = [1] * (rank - len(b)) + list(b)
    assert all(x == y or x == 1 or y == 1 for x, y in zip(a, b)), (a, b)
    return [y if x == 1 else x for x, y in zip(a, b)]


def data(dtype, operand, seed):
    if dtype in BYTES:
        return fill(0.13, 0.29) if operand == "a" else fill(0.31, 0.07)
    lo, hi = RANGE[dtype]
    return {"kind": "random", "seed": seed, "min": lo, "max": hi}  # floor of a uniform in [lo, hi)


def case(name, dtype, a_shape, b_shape, a_data, b_data, want=None, tolerance=None, variant=None, description=None):
    c = {"name": name}
    if description:
        c["description"] = description
    if variant:
        c["variant"] = variant
    c["inputs"] = {"a": {"dtype": dtype, "shape": a_shape, "data": a_data},
                   "b": {"dtype": dtype, "shape": b_shape, "data": b_data}}
    out = {"dtype": dtype, "shape": broadcast_shape(a_shape, b_shape)}
    if tolerance is not None:
        out["tolerance"] = tolerance
    if want is not None:
        out["data"] = {"kind": "values", "values": want}
        if NAN in want:
            out["allowNaN"] = True
    c["outputs"] = {"c": out}
    return c


def values(v):
    return {"kind": "values", "values": v}


def generated_cases():
    out = []
    for dtype in ["float32", "float16", "int32", "uint32", "int8", "uint8"]:
        for i, (name, a, b, variant) in enumerate(SHAPES):
            tol = {"ulp": 1} if dtype == "float32" else None
            out.append(case(f"{dtype}_{name}", dtype, a, b, data(dtype, "a", 2 * i + 1), data(dtype, "b", 2 * i + 2),
                            tolerance=tol, variant=variant))
    return out


def pinned_cases():
    p = 2.0 ** -12
    f16_a = [256, 255, 4095, -4094, 1 + 2 ** -10, 1 + 2 ** -10, p, p, 1.5 * p, 2 ** -24, 3 * 2 ** -24, 65504,
             INF, NAN, NINF, INF, -0.5, 0, -1, 2 ** -24]
    f16_b = [256, 256, 16, 16, 1 + 2 ** -10, 2047, p, p / 2, p, 0.5, 0.5, -1,
             0, 2, 0.5, NINF, 0, NINF, 0, INF]
    f16_c = [INF, 65280, INF, -65504, 1 + 2 ** -9, 2048, 2 ** -24, 0, 2 ** -23, 0, 2 ** -23, -65504,
             NAN, NAN, NINF, NINF, -0.0, NAN, -0.0, INF]
    f32_a = [3e38, -3e38, 2.0 ** 64, 2.0 ** 127, INF, INF, 0, NAN, NINF, 2.0 ** -100, -1, 1.5]
    f32_b = [2, 2, 2.0 ** 64, 1.99999988079071044921875, 0, -2, NINF, 1, NINF, 2.0 ** 127, 0, 2]
    f32_c = [INF, NINF, INF, 2.0 ** 127 * 1.99999988079071044921875, NAN, NINF, NAN, NAN, INF, 2.0 ** 27, -0.0, 3]
    i32_a = [65536, -2147483648, 46341, -7]
    i32_b = [65536, -1, 46341, 3]
    i32_c = [0, -2147483648, -2147479015, -21]
    out = [
        case("float16_rounding_overflow_subnormals_specials", "float16", [20], [20], values(f16_a), values(f16_b), f16_c,
             variant="flat_vec4",
             description="Ties to even (65520 -> inf, 2^-25 -> 0, 1.5 * 2^-24 -> 2^-23), overflow, subnormal operands, "
                         "inf * 0 = NaN, signed zeros"),
        case("float16_specials_odd_5", "float16", [5], [5], values(f16_a[12:17]), values(f16_b[12:17]), f16_c[12:17],
             variant="broadcast", description="inf/NaN/zero products on the scalar kernel"),
        case("float16_specials_broadcast_vec4", "float16", [2, 4], [4], values([INF, 0, NAN, -2, 1, 2, 3, 4]),
             values([0, INF, 7, NINF]), [NAN, NAN, NAN, INF, 0, INF, 21, NINF], variant="broadcast_vec4",
             description="inf/NaN products through a broadcast operand"),
        case("float32_overflow_and_specials", "float32", [12], [12], values(f32_a), values(f32_b), f32_c,
             variant="flat_vec4",
             description="Overflow decided from the 2^-64-scaled product (3e38 * 2, 2^64 * 2^64; the largest finite "
                         "product stays finite; 2^-100 * 2^127 is far from overflow), inf * 0, NaN, -1 * 0 = -0"),
        case("float32_specials_odd_3", "float32", [3], [3], values([INF, 3e38, NAN]), values([0, -4, 0]),
             [NAN, NINF, NAN], variant="broadcast", description="Specials and overflow on the scalar kernel"),
        case("float32_scalar_overflow_splat", "float32", [8], [], values([1e30, -1e30, 1, 0, INF, NINF, NAN, 1e-30]),
             values([1e10]), [INF, NINF, 1e10, 0, INF, NINF, NAN, 1e-20], tolerance={"ulp": 1}, variant="flat_vec4",
             description="A splatted operand that makes some products overflow"),
        case("int32_wrap", "int32", [4], [4], values(i32_a), values(i32_b), i32_c, variant="flat_vec4",
             description="Two's-complement wrap of the product modulo 2^32"),
        case("uint32_wrap", "uint32", [4], [4], values([4294967295, 65536, 3, 0]), values([4294967295, 65537, 5, 9]),
             [1, 65536, 15, 0], variant="flat_vec4"),
        case("int8_wrap_broadcast", "int8", [2, 3], [3], values([16, -128, 11, 127, -1, 0]), values([8, -1, 12]),
             [-128, -128, -124, -8, 1, 0], variant="broadcast", description="Wrap to 8 bits, sign-extended words"),
        case("uint8_wrap_splat", "uint8", [4], [1], values([16, 255, 15, 1]), values([16]), [0, 240, 240, 16],
             variant="flat_vec4", description="The low 8 bits of the product"),
    ]
    return out


# (name, a shape, b shape, dtype, description, tags): Gemma-2B decode / prefill shapes.
BENCH = [
    ("smoke_4x64_f16", [4, 64], [4, 64], "float16", "Smallest same-shape case (CI on lavapipe)", ["smoke"]),
    ("decode_gelu_up_1x16384_f16", [1, 16384], [1, 16384], "float16",
     "Gated FFN product gelu(gate) * up at one decode token (Gemma-2B FFN 16384)", ["decode"]),
    ("decode_hidden_1x2048_f16", [1, 2048], [1, 2048], "float16", "Hidden-size product (Gemma-2B hidden 2048)", ["decode"]),
    ("decode_embed_scale_1x2048_f16", [1, 2048], [1], "float16",
     "Embedding scale: one decode row times sqrt(hidden) (a splatted scalar)", ["decode"]),
    ("decode_row_broadcast_1x16384_f32", [1, 16384], [16384], "float32",
     "A [16384] row broadcast over [1, 16384] (broadcast_vec4)", ["decode"]),
    ("prefill_gelu_up_128x16384_f16", [128, 16384], [128, 16384], "float16",
     "Gated FFN product over a 128-token prompt", ["prefill"]),
    ("prefill_row_scale_128x2048_f16", [128, 2048], [2048], "float16",
     "A per-channel scale row over a 128-token prompt (broadcast_vec4)", ["prefill"]),
]


def bench_cases():
    out = []
    for name, a, b, dtype, desc, tags in BENCH:
        out.append({"name": name, "description": desc, "tags": tags,
                    "inputs": {"a": {"dtype": dtype, "shape": a}, "b": {"dtype": dtype, "shape": b}}})
    sizes = [BYTES[d] * (math.prod(a) + math.prod(b) + math.prod(broadcast_shape(a, b))) for _, a, b, d, _, _ in BENCH]
    assert len(set(sizes)) == len(sizes), "bench byte counts must be distinct"
    return {"cases": out, "report": {"warmup": 5, "iterations": 50}}


def main():
    cases = generated_cases() + pinned_cases()
    assert len({c["name"] for c in cases}) == len(cases)
    dump({"cases": cases}, os.path.join(PKG, "test.json"))
    dump(bench_cases(), os.path.join(PKG, "bench.json"))


if __name__ == "__main__":
    main()
