#!/usr/bin/env python3
"""tools/peers/torch_matmul_peers.py without a GPU or torch (--dry-run): one row per non-smoke case
of ai.onnx.MatMul's bench.json, named as there, with the bytes `wgk bench` counts (a, b and y) and
the case's flops, so `wgk report` can match the rows by name and bytes.
  matmul_peers_plan.py SOURCE_DIR"""
import json, os, subprocess, sys

src = sys.argv[1]
bench = os.path.join(src, "packages/webgpu-kernels/ai.onnx.MatMul/build/webgpu/bench.json")
out = subprocess.check_output([sys.executable, os.path.join(src, "tools/peers/torch_matmul_peers.py"), bench,
                               "--dry-run"], text=True)
rows = {r["case"]: r for r in map(json.loads, out.splitlines())}
sys.path.insert(0, os.path.join(src, "tools/packages/matmul"))
from bench import bytes_moved  # noqa: E402  (the generator's own count)

cases = [c for c in json.load(open(bench))["cases"] if "smoke" not in c.get("tags", [])]
assert cases and set(rows) == {c["name"] for c in cases}, set(rows) ^ {c["name"] for c in cases}
for c in cases:
    r = rows[c["name"]]
    assert r["op"] == "MatMul" and r["bytes"] == bytes_moved(c) and r["flops"] == c["flops"], (r, c["name"])
print("matmul peers plan: OK,", len(rows), "rows")
