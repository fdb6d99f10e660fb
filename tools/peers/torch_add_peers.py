"""torch peers of ai.onnx.Add on a CUDA GPU (the H200), beside `wgk bench` (docs/h200.md).

For every case of the package's bench.json (smoke cases left out): torch eager `a + b` and
torch.compile of the same function, GPU time by CUDA events (median of 5 runs of 100 calls), the
minimum bytes moved (inputs + output, as `wgk bench` counts them: the report matches rows by op and
bytes) and GB/s. The rows are added to OUT/peers.json (written first by the per-op peer script,
../shared/peers/torch_peers.py, whose device-to-device copy of 1 GiB is the roofline there); without
that file one is started, with its own 1 GiB copy. Prints each row as JSON.

  OUT=out/bench python3 tools/peers/torch_add_peers.py [BENCH_JSON]
"""
import os, sys
import torch

from bench_peers import dev, run  # the shared timing, peers.json and row loop

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "packages", "webgpu-kernels", "ai.onnx.Add", "build", "webgpu", "bench.json")
OUT = os.environ.get("OUT", "out")
DTYPES = {"float16": torch.float16, "float32": torch.float32, "int32": torch.int32, "int8": torch.int8,
          "uint8": torch.uint8}


def make(spec):
    dt = DTYPES[spec["dtype"]]
    shape = spec["shape"]
    if dt.is_floating_point:
        return torch.randn(shape, dtype=dt, device=dev)
    return torch.randint(-100, 100, shape, device=dev).to(dt)


def add(a, b):
    return a + b


run("Add", BENCH, OUT, add, lambda case: (make(case["inputs"]["a"]), make(case["inputs"]["b"])))
