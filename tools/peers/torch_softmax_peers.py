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
import json, os, statistics, sys
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    HERE, "..", "..", "packages", "webgpu-kernels", "ai.onnx.Softmax", "build", "webgpu", "bench.json")
OUT = os.environ.get("OUT", "out")
os.makedirs(OUT, exist_ok=True)
dev = "cuda"
DTYPES = {"float16": torch.float16, "float32": torch.float32}


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
    data = spec.get("data", {})
    lo, hi = data.get("min", -1.0), data.get("max", 1.0)
    x = torch.rand(spec["shape"], dtype=torch.float32, device=dev) * (hi - lo) + lo
    return x.to(DTYPES[spec["dtype"]])


def softmax(x, axis):
    return torch.softmax(x, dim=axis)


path = os.path.join(OUT, "peers.json")
if os.path.exists(path):
    res = json.load(open(path))
else:
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cases": []}
    a = torch.empty(1 << 30, dtype=torch.uint8, device=dev)
    b = torch.empty_like(a)
    us = time_fn(lambda: b.copy_(a), iters=20, warm=5)
    res["copy_1GiB"] = {"us": us, "GBps": 2 * a.numel() / us / 1e3}
    del a, b

compiled = torch.compile(softmax, dynamic=False)
for case in json.load(open(BENCH))["cases"]:
    if "smoke" in case.get("tags", []):
        continue
    axis = int(case.get("attrs", {}).get("axis", -1))
    x = make(case["inputs"]["x"])
    y = softmax(x, axis)
    nbytes = sum(t.numel() * t.element_size() for t in (x, y))
    row = {"op": "Softmax", "case": case["name"], "bytes": nbytes}
    for label, fn in (("eager", lambda: softmax(x, axis)), ("compile", lambda: compiled(x, axis))):
        try:
            us = time_fn(fn)
            row[label + "_us"] = round(us, 2)
            row[label + "_GBps"] = round(nbytes / us / 1e3, 1)
        except Exception as ex:  # a failed peer is a row with the error, never a lost run
            row[label + "_error"] = str(ex)[:200]
    res["cases"].append(row)
    print(json.dumps(row), flush=True)
    del x, y
    torch.cuda.empty_cache()

with open(path, "w") as f:
    json.dump(res, f, indent=1)
