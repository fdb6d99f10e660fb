"""torch peers of ai.onnx.Softmax on a CUDA GPU (the H200), beside `wgk bench` (docs/h200.md).

For every case of the package's bench.json (smoke cases left out): torch eager
`torch.softmax(x, dim=axis)` and torch.compile of the same function, GPU time by CUDA events
(median of 5 runs of 100 calls), the minimum bytes moved (input + output, as `wgk bench` counts
them: the report matches rows by op and bytes) and GB/s. Inputs are uniform in the bench case's
[min, max] (bench.json's random data). The rows are added to OUT/peers.json (written first by
the per-op peer script, or by tools/peers/torch_add_peers.py); without that file one is started,
with its own 1 GiB device-to-device copy as the roofline. Prints each row as JSON.

  OUT=out/bench python3 tools/peers/torch_softmax_peers.py [BENCH_JSON]
"""
import os, sys
import torch

from bench_peers import dev, run  # the shared timing, peers.json and row loop

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "packages", "webgpu-kernels", "ai.onnx.Softmax", "build", "webgpu", "bench.json")
OUT = os.environ.get("OUT", "out")
DTYPES = {"float16": torch.float16, "float32": torch.float32}


def make(spec):
    data = spec.get("data", {})
    lo, hi = data.get("min", -1.0), data.get("max", 1.0)
    x = torch.rand(spec["shape"], dtype=torch.float32, device=dev) * (hi - lo) + lo
    return x.to(DTYPES[spec["dtype"]])


def softmax(x, axis):
    return torch.softmax(x, dim=axis)


run("Softmax", BENCH, OUT, softmax,
    lambda case: (make(case["inputs"]["x"]), int(case.get("attrs", {}).get("axis", -1))))
