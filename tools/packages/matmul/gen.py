#!/usr/bin/env python3
"""Writes ai.onnx.MatMul's test.json and bench.json (packages/webgpu-kernels/ai.onnx.MatMul/build/webgpu/)
from the case lists of this folder: one module per template family (cases_*.py, each a CASES list
of mm_case() dicts, see common.py) and bench.py (BENCH). Expected outputs come from wgk's CPU
reference; tolerances follow the rule of docs/tolerances.md (common.tolerance).

  python3 tools/packages/matmul/gen.py
  build/wgk digest --write packages/webgpu-kernels/ai.onnx.MatMul
"""
import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))  # tools/packages: case_json
from case_json import dump  # noqa: E402
PKG = os.path.join(HERE, "..", "..", "..", "packages", "webgpu-kernels", "ai.onnx.MatMul", "build", "webgpu")
MODULES = ["cases_fallback", "cases_tiled", "cases_notrans", "cases_gemv", "cases_sgmat"]


def main():
    cases = []
    for m in MODULES:
        cases += importlib.import_module(m).CASES
    names = [c["name"] for c in cases]
    dupes = sorted({n for n in names if names.count(n) > 1})
    assert not dupes, f"duplicate case names: {dupes}"
    dump({"cases": cases}, os.path.join(PKG, "test.json"))
    bench = importlib.import_module("bench")
    dump(bench.bench_file(), os.path.join(PKG, "bench.json"))
    print(f"test.json: {len(cases)} cases; bench.json: {len(bench.bench_file()['cases'])} cases")


if __name__ == "__main__":
    main()
