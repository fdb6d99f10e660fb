"""What the per-package torch peer scripts share (torch_add_peers.py, torch_softmax_peers.py):
timing by CUDA events, OUT/peers.json (read, or started with its own 1 GiB copy roofline), and
the row loop over a bench.json's cases (smoke cases left out), eager and torch.compile.
"""
import json, os, statistics
import torch

dev = "cuda"


def time_fn(fn, iters=100, warm=20):
    """Median over 5 runs of `iters` calls, in microseconds per call."""
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


def open_peers(path):
    """The peers.json an earlier peer script wrote, or a new one with a 1 GiB device copy."""
    if os.path.exists(path):
        return json.load(open(path))
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "cases": []}
    x = torch.empty(1 << 30, dtype=torch.uint8, device=dev)
    y = torch.empty_like(x)
    us = time_fn(lambda: y.copy_(x), iters=20, warm=5)
    res["copy_1GiB"] = {"us": us, "GBps": 2 * x.numel() / us / 1e3}
    del x, y
    return res


def run(op, bench, out, fn, make_args):
    """Times `fn(*make_args(case))` eager and compiled for every non-smoke case of `bench`; the
    bytes are the tensor arguments' plus the output's (as `wgk bench` counts them)."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "peers.json")
    res = open_peers(path)
    for case in json.load(open(bench))["cases"]:
        if "smoke" in case.get("tags", []):
            continue
        # A fresh compile per case: dynamo stops recompiling one function after
        # config.recompile_limit (8) shapes and dtypes, and then runs it eagerly, so later cases
        # would have timed eager twice (the 2026-12-06 H100 run: 'compile' equal to 'eager').
        torch._dynamo.reset()
        compiled = torch.compile(fn, dynamic=False)
        args = make_args(case)
        y = fn(*args)
        tensors = [t for t in args if isinstance(t, torch.Tensor)] + [y]
        nbytes = sum(t.numel() * t.element_size() for t in tensors)
        row = {"op": op, "case": case["name"], "bytes": nbytes}
        for label, f in (("eager", lambda: fn(*args)), ("compile", lambda: compiled(*args))):
            try:
                us = time_fn(f)
                row[label + "_us"] = round(us, 2)
                row[label + "_GBps"] = round(nbytes / us / 1e3, 1)
            except Exception as ex:  # a failed peer is a row with the error, never a lost run
                row[label + "_error"] = str(ex)[:200]
        res["cases"].append(row)
        print(json.dumps(row), flush=True)
        del args, y, tensors
        torch.cuda.empty_cache()
    with open(path, "w") as f:
        json.dump(res, f, indent=1)
