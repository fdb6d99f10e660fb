"""Shared helpers of ai.onnx.MatMul's case lists (gen.py writes test.json and bench.json).

mm_case() builds one test.json case: inputs a and b with deterministic data (fillFloat32 for
floats, explicit values for integers), the output shape of numpy.matmul, and the tolerance of the
rule in docs/tolerances.md ("MatMul"): exact for integers; for floats
    abs = 1.01 * K^2 * u * A * B,   rel = 2^-10 (float16 output) or 2^-23 (float32)
where A, B bound |a| and |b| (fillFloat32 with scale s is bounded by 2 s), K is the reduction
length and u = 2^-24 (every kernel accumulates in float32). The expected output has no data: the
harness computes it with the CPU reference (double accumulation, one rounding).
"""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from case_json import fill  # noqa: E402  (tools/packages; re-exported to the case lists)

U_ACC = 2.0 ** -24
REL_OUT = {"float16": 2.0 ** -10, "float32": 2.0 ** -23}
U32 = 2 ** 32


def matmul_shape(a, b):
    """numpy.matmul's output shape (rank-1 promotion, broadcast batch dims); raises on mismatch."""
    a2 = [1] + list(a) if len(a) == 1 else list(a)
    b2 = list(b) + [1] if len(b) == 1 else list(b)
    if a2[-1] != b2[-2]:
        raise ValueError(f"K mismatch: {a} @ {b}")
    ab, bb = a2[:-2], b2[:-2]
    rank = max(len(ab), len(bb))
    ab = [1] * (rank - len(ab)) + ab
    bb = [1] * (rank - len(bb)) + bb
    batch = []
    for x, y in zip(ab, bb):
        if x != y and x != 1 and y != 1:
            raise ValueError(f"batch dims do not broadcast: {a} @ {b}")
        batch.append(y if x == 1 else x)
    y = batch
    if len(a) > 1:
        y = y + [a2[-2]]
    if len(b) > 1:
        y = y + [b2[-1]]
    return y


def numel(shape):
    return math.prod(shape)


def bound(data):
    """An upper bound of |x| for a data spec."""
    if data["kind"] == "fillFloat32":
        return 2.0 * abs(data.get("scale", 1.0))
    if data["kind"] == "values":
        return max([abs(float(v)) for v in data["values"]] or [0.0])
    if data["kind"] == "fill":
        return abs(data["value"])
    return max(abs(data.get("min", -1)), abs(data.get("max", 1)))


def int_values(count, seed, lo, hi):
    """Deterministic integers in [lo, hi] (a 64-bit LCG), as a values spec."""
    state = (seed * 6364136223846793005 + 1442695040888963407) % 2 ** 64
    out = []
    span = hi - lo + 1
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2 ** 64
        out.append(lo + (state >> 11) % span)
    return {"kind": "values", "values": out}


def tolerance(dtype, k, a_bound, b_bound):
    if dtype in ("int32", "uint32"):
        return {"abs": 0}
    # Any summation order of K terms errs by at most (K - 1) u sum|terms| (+ O(u^2)), and
    # sum|terms| <= K A B: the bound holds for every kernel's order (docs/tolerances.md).
    return {"abs": 1.01 * k * k * U_ACC * a_bound * b_bound + 1e-30, "rel": REL_OUT[dtype]}


def default_data(dtype, count, seed, int_range=None):
    if dtype == "int32":
        lo, hi = int_range or (-9, 9)
        return int_values(count, seed, lo, hi)
    if dtype == "uint32":
        lo, hi = int_range or (0, 9)
        return int_values(count, seed, lo, hi)
    # Distinct steps per seed, so a and b (and cases) never share a pattern.
    return fill(0.1 + 0.013 * (seed % 29), 0.07 + 0.011 * (seed % 31), 0.5)


def mm_case(name, dtype, a_shape, b_shape, a_data=None, b_data=None, variant=None, description=None,
            int_range=None):
    """One test.json case for y = a @ b. `variant` names the variant the case is meant to reach
    (tests/unit/plan/render_test.cpp plans each case on it and checks every variant is reached)."""
    y_shape = matmul_shape(a_shape, b_shape)
    seed = sum(ord(c) for c in name)
    a_data = a_data or default_data(dtype, numel(a_shape), seed, int_range)
    b_data = b_data or default_data(dtype, numel(b_shape), seed + 17, int_range)
    k = a_shape[-1]
    c = {"name": name}
    if description:
        c["description"] = description
    if variant:
        c["variant"] = variant
    c["inputs"] = {
        "a": {"dtype": dtype, "shape": list(a_shape), "data": a_data},
        "b": {"dtype": dtype, "shape": list(b_shape), "data": b_data},
    }
    c["outputs"] = {"y": {"dtype": dtype, "shape": y_shape,
                          "tolerance": tolerance(dtype, k, bound(a_data), bound(b_data))}}
    return c
