#!/usr/bin/env python3
"""Writes ai.onnx.MatMul's test.json and bench.json (packages/webgpu-kernels/ai.onnx.MatMul/build/webgpu/)
from the case lists of this folder: one module per template family (cases_*.py, each a CASES list
of mm_case() dicts, see common.py) and bench.py (BENCH). Expected outputs come from wgk's CPU
reference; tolerances follow the rule of docs/tolerances.md (common.tolerance).

  python3 tools/packages/matmul/gen.py
  build/wgk digest --write packages/webgpu-kernels/ai.onnx.MatMul
"""
import importlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
PKG = os.path.join(HERE, "..", "..", "..", "packages", "webgpu-kernels", "ai.onnx.MatMul", "build", "webgpu")
MODULES = ["cases_fallback", "cases_tiled", "cases_notrans", "cases_gemv", "cases_sgmat"]


def dump(obj, path):
    """indent=1 JSON with each `values` list on one line."""
    lists = []

    def strip(o):
        if isinstance(o, dict):
            if o.get("kind") == "values":
                lists.append(json.dumps(o["values"]))
                return {**o, "values": f"@@{len(lists) - 1}@@"}
            return {k: strip(v) for k, v in o.items()}
        if isinstance(o, list):
            return [strip(v) for v in o]
        return o

    text = json.dumps(strip(obj), indent=1)
    for i, l in enumerate(lists):
        text = text.replace(f'"@@{i}@@"', l)
    with open(path, "w") as f:
        f.write(text + "\n")


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
