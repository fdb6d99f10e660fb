"""torch peers of ai.onnx.MatMul on a CUDA GPU (the H200), beside `wgk bench` (docs/h200.md).

For every case of the package's bench.json (smoke cases left out): `torch.matmul(a, b)` eager,
which is cuBLAS, in the case's dtype. float32 runs with TF32 off (torch.backends.cuda.matmul and
cudnn allow_tf32 = False, float32 matmul precision "highest"): the same arithmetic wgk's f32
kernels do. float16 runs with the reduced-precision reduction off
(allow_fp16_reduced_precision_reduction = False): cuBLAS accumulates in f32 as wgk's contract
says. GPU time by CUDA events (median of 5 runs; each run long enough to time, at least 3 calls),
the minimum bytes moved (a, b and y, as `wgk bench` counts them), GB/s, the case's `flops` and
TFLOPS. Eager times include torch's per-call host cost (about 14 us on the H200: small GEMVs are
launch-bound); the same calls captured in a CUDA graph and replayed (`graph_*`) are the GPU's time,
what wgk's timestamps measure, and `wgk report` compares with those where present. Rows carry bench.json's case names, so `wgk report` matches them by name (a K x N GEMV and
its N x K twin move the same bytes). No torch.compile: it lowers the same call to cuBLAS.

The rows are added to OUT/peers.json (written first by another peer script, or started here with
its own 1 GiB device-to-device copy as the roofline). Prints each row as JSON.

  OUT=out/bench python3 tools/peers/torch_matmul_peers.py [BENCH_JSON] [--device cuda] [--dry-run]

--dry-run imports no torch: it prints the rows it would time (case, dtype, bytes, flops) and
writes nothing; --device cpu runs the same loop on the CPU (a check of the script, not a peer).
"""
import argparse, json, os, statistics, sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BENCH = os.path.join(HERE, "..", "..", "packages", "webgpu-kernels", "ai.onnx.MatMul", "build", "webgpu",
                             "bench.json")
ELEMENT_BYTES = {"float16": 2, "float32": 4}
RUN_MS = 20.0  # each timed run lasts about this long


def matmul_shape(a, b):
    """numpy.matmul's output shape (rank-1 promotion, broadcast batch dims)."""
    a2 = [1] + list(a) if len(a) == 1 else list(a)
    b2 = list(b) + [1] if len(b) == 1 else list(b)
    ab, bb = a2[:-2], b2[:-2]
    rank = max(len(ab), len(bb))
    ab, bb = [1] * (rank - len(ab)) + ab, [1] * (rank - len(bb)) + bb
    y = [max(x, z) if 1 in (x, z) else x for x, z in zip(ab, bb)]
    if len(a) > 1:
        y.append(a2[-2])
    if len(b) > 1:
        y.append(b2[-1])
    return y


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def plan(bench):
    """(case, a spec, b spec, bytes, flops) of every non-smoke case."""
    rows = []
    for case in json.load(open(bench))["cases"]:
        if "smoke" in case.get("tags", []):
            continue
        a, b = case["inputs"]["a"], case["inputs"]["b"]
        size = ELEMENT_BYTES[a["dtype"]]
        y = matmul_shape(a["shape"], b["shape"])
        nbytes = size * (numel(a["shape"]) + numel(b["shape"]) + numel(y))
        flops = case.get("flops", 2 * numel(y) * a["shape"][-1])
        rows.append((case, a, b, nbytes, flops))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bench", nargs="?", default=DEFAULT_BENCH)
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    rows = plan(args.bench)
    if args.dry_run:
        for case, a, b, nbytes, flops in rows:
            print(json.dumps({"op": "MatMul", "case": case["name"], "dtype": a["dtype"], "bytes": nbytes,
                              "flops": flops}))
        return

    import torch
    import bench_peers  # the shared peers.json (and its copy roofline)

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    dtypes = {"float16": torch.float16, "float32": torch.float32}
    dev = args.device
    cuda = dev.startswith("cuda")

    def sync():
        if cuda:
            torch.cuda.synchronize()

    def time_us(fn):
        """Median over 5 runs of n calls (n from one timed call, each run about RUN_MS), us per call."""
        import time
        for _ in range(3):
            fn()
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        one_ms = max((time.perf_counter() - t0) * 1e3, 1e-3)
        n = max(3, min(1000, int(RUN_MS / one_ms)))
        ts = []
        for _ in range(5):
            if cuda:
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record()
                for _ in range(n):
                    fn()
                e.record()
                torch.cuda.synchronize()
                ts.append(s.elapsed_time(e) * 1e3 / n)
            else:
                t0 = time.perf_counter()
                for _ in range(n):
                    fn()
                ts.append((time.perf_counter() - t0) * 1e6 / n)
        return statistics.median(ts)

    def graph_us(fn, calls):
        """`calls` calls captured in one CUDA graph, replayed 5 times: median us per call."""
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                fn()
        torch.cuda.current_stream().wait_stream(side)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            for _ in range(calls):
                fn()
        g.replay()
        torch.cuda.synchronize()
        ts = []
        for _ in range(5):
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record()
            g.replay()
            e.record()
            torch.cuda.synchronize()
            ts.append(s.elapsed_time(e) * 1e3 / calls)
        del g
        return statistics.median(ts)

    def make(spec):
        data = spec.get("data", {})
        lo, hi = data.get("min", -1.0), data.get("max", 1.0)
        x = torch.rand(spec["shape"], dtype=torch.float32, device=dev) * (hi - lo) + lo
        return x.to(dtypes[spec["dtype"]])

    out = os.environ.get("OUT", "out")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "peers.json")
    if cuda:
        res = bench_peers.open_peers(path)
    else:
        res = json.load(open(path)) if os.path.exists(path) else {"device": "cpu", "cases": []}
    res["matmul"] = {"backend": "torch.matmul (cuBLAS)" if cuda else "torch.matmul (CPU)", "allow_tf32": False,
                     "float32_matmul_precision": "highest", "allow_fp16_reduced_precision_reduction": False}
    for case, a_spec, b_spec, nbytes, flops in rows:
        row = {"op": "MatMul", "case": case["name"], "dtype": a_spec["dtype"], "bytes": nbytes, "flops": flops}
        try:
            a, b = make(a_spec), make(b_spec)
            y = torch.empty(matmul_shape(a_spec["shape"], b_spec["shape"]), dtype=a.dtype, device=dev)
            call = lambda: torch.matmul(a, b, out=y)
            us = time_us(call)
            row["eager_us"] = round(us, 3)
            row["eager_GBps"] = round(nbytes / us / 1e3, 1)
            row["eager_TFLOPS"] = round(flops / us / 1e6, 3)
            if cuda:
                try:
                    gus = graph_us(call, max(3, min(1000, int(RUN_MS * 1e3 / us))))
                    row["graph_us"] = round(gus, 3)
                    row["graph_GBps"] = round(nbytes / gus / 1e3, 1)
                    row["graph_TFLOPS"] = round(flops / gus / 1e6, 3)
                except Exception as ex:
                    row["graph_error"] = str(ex)[:200]
            del a, b, y
        except Exception as ex:  # a failed peer is a row with the error, never a lost run
            row["eager_error"] = str(ex)[:200]
        res["cases"].append(row)
        print(json.dumps(row), flush=True)
        if cuda:
            torch.cuda.empty_cache()
    with open(path, "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()
