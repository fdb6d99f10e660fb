"""torch peers of ai.onnx.Add on a CUDA GPU (the H200), beside `wgk bench` (docs/h200.md).

For every case of the package's bench.json (smoke cases left out): torch eager `a + b` and
torch.compile of the same function, GPU time by CUDA events (median of 5 runs of 100 calls), the
minimum bytes moved (inputs + output, as `wgk bench` counts them: the report matches rows by op and
bytes) and GB/s. The rows are added to OUT/peers.json (written first by the per-op peer script,
../shared/peers/torch_peers.py, whose device-to-device copy of 1 GiB is the roofline there); without
that file one is started, with its own 1 GiB copy. Prints each row as JSON.

  OUT=out/bench python3 tools/peers/torch_add_peers.py [BENCH_JSON]
"""
import json, os, statistics, sys
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "packages", "webgpu-kernels", "ai.onnx.Add", "build", "webgpu", "bench.json")
OUT = os.environ.get("OUT", "out")
os.makedirs(OUT, exist_ok=True)
dev = "cuda"
DTYPES = {"float16": torch.float16, "float32": torch.float32, "int32": torch.int32, "int8": torch.int8,
          "uint8": torch.uint8}


def time_fn(fn, iters=100, warm=20):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(5):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(iters):
            fn()
        e.record()
        torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) / iters * 1e3)  # us per call
    return statistics.median(ts)


def make(spec):
    dt = DTYPES[spec["dtype"]]
    shape = spec["shape"]
    if dt.is_floating_point:
        return torch.randn(shape, dtype=dt, device=dev)
    return torch.randint(-100, 100, shape, device=dev).to(dt)


def add(a, b):
    return a + b


path = os.path.join(OUT, "peers.json")
if os.path.exists(path):
    res = json.load(open(path))
else:
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cases": []}
    x = torch.empty(1 << 30, dtype=torch.uint8, device=dev)
    y = torch.empty_like(x)
    us = time_fn(lambda: y.copy_(x), iters=20, warm=5)
    res["copy_1GiB"] = {"us": us, "GBps": 2 * x.numel() / us / 1e3}
    del x, y

compiled = torch.compile(add, dynamic=False)
for case in json.load(open(BENCH))["cases"]:
    if "smoke" in case.get("tags", []):
        continue
    a, b = make(case["inputs"]["a"]), make(case["inputs"]["b"])
    c = a + b
    nbytes = sum(t.numel() * t.element_size() for t in (a, b, c))
    row = {"op": "Add", "case": case["name"], "bytes": nbytes}
    for label, fn in (("eager", lambda: add(a, b)), ("compile", lambda: compiled(a, b))):
        try:
            us = time_fn(fn)
            row[label + "_us"] = round(us, 2)
            row[label + "_GBps"] = round(nbytes / us / 1e3, 1)
        except Exception as ex:  # a failed peer is a row with the error, never a lost run
            row[label + "_error"] = str(ex)[:200]
    res["cases"].append(row)
    print(json.dumps(row), flush=True)
    del a, b, c
    torch.cuda.empty_cache()

with open(path, "w") as f:
    json.dump(res, f, indent=1)
