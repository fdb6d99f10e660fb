"""torch peers of `wgk chain` (issue 14) on a CUDA GPU (the H200), beside scripts/h200_bench.sh.

The same chains as `wgk chain`: the bench.json cases tagged decode of FastGelu, RMSNormalization,
GemmaRotaryEmbedding and Add (other packages have no torch equivalent here), each op fed
back to itself (an output goes to the first input of the same dtype and shape, as wgk does), and
the decode step FastGelu -> RMSNormalization -> GemmaRotaryEmbedding -> Add at hidden 2048 (heads
of 256), the Add's output feeding the next FastGelu. Torch equivalents: FastGelu = gelu(x + bias,
approximate="tanh"), RMSNormalization = F.rms_norm over the last axis, GemmaRotaryEmbedding = q *
cos(emb) + q_rot * sin(emb) (and the same for k), Add = a + b. Per chain, in us per op:
  eager   N back-to-back calls, wall clock from the first call to torch.cuda.synchronize() / N
          (median of --repeat runs after one warm-up run), and the host part (the loop alone)
  graph   the same N calls captured once in a CUDA graph (torch.cuda.graph), one replay / N
Torch runs several kernels for some ops (RoPE: cos, sin, casts, multiplies, adds; FastGelu: add,
gelu): per op means per wgk op, as in `wgk chain`.

Rows go under "chains" in OUT/peers.json (or --out FILE), beside the per-op peer rows ("cases")
that `wgk report --peers` reads; the file is created when absent. Chain names equal `wgk chain`'s,
so the report puts them side by side.

  OUT=out/bench python3 tools/peers/torch_chain_peers.py [--calls 2000] [--repeat 5]
  python3 tools/peers/torch_chain_peers.py --device cpu --calls 4 --repeat 1 --out /tmp/p.json
  python3 tools/peers/torch_chain_peers.py --dry-run --out /tmp/p.json   # no torch: the plan only

--device cpu runs eager only (no graphs), for a test where torch has no GPU; --dry-run imports no
torch and writes each chain's inputs, feedback and bytes (the test of tests/cli keeps it so).
"""
import argparse, json, os, statistics, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES = os.path.join(HERE, "..", "..", "packages", "webgpu-kernels")
OPS = ("com.microsoft.FastGelu", "ai.onnx.RMSNormalization", "com.microsoft.GemmaRotaryEmbedding", "ai.onnx.Add")
STORAGE_BYTES = {"float16": 2, "float32": 4}


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def broadcast(a, b):
    r = max(len(a), len(b))
    a, b = [1] * (r - len(a)) + list(a), [1] * (r - len(b)) + list(b)
    return [max(x, y) for x, y in zip(a, b)]


def outputs_of(op, ins, attrs):
    """Output name -> (dtype, shape), as the manifests say."""
    if op == "com.microsoft.FastGelu":
        return {"Y": ins["X"]}
    if op == "ai.onnx.RMSNormalization":
        return {"y": (ins["scale"][0], ins["x"][1])}
    if op == "com.microsoft.GemmaRotaryEmbedding":
        return {"output1T": ins["qT"], "output2T": ins["qT"]}
    return {"c": (ins["a"][0], broadcast(ins["a"][1], ins["b"][1]))}


def feedback(outs, ins):
    """output -> input it feeds: the first input (by name) of the same dtype and shape not taken."""
    feeds, taken = {}, set()
    for o, spec in outs.items():
        for name in sorted(ins):
            if name not in taken and ins[name][0] == spec[0] and list(ins[name][1]) == list(spec[1]):
                feeds[o] = name
                taken.add(name)
                break
    return feeds


def case_chains(tag):
    chains = []
    for op in OPS:
        path = os.path.join(PACKAGES, op, "build", "webgpu", "bench.json")
        if not os.path.exists(path):
            continue
        for case in json.load(open(path))["cases"]:
            if tag not in case.get("tags", []):
                continue
            ins = {k: (v["dtype"], list(v["shape"])) for k, v in case["inputs"].items()}
            outs = outputs_of(op, ins, case.get("attrs", {}))
            chains.append({"name": f"{op}/{case['name']}", "case": case["name"], "ops": [op], "inputs": ins,
                           "outputs": outs, "feeds": feedback(outs, ins), "attrs": case.get("attrs", {})})
    return chains


def step_chain(hidden):
    heads = [1, hidden // 256, 1, 256]
    return {"name": f"decode_step/decode_step_1x{hidden}_f16", "case": f"decode_step_1x{hidden}_f16",
            "ops": list(OPS), "hidden": hidden, "heads": heads}


def plan_row(c, calls):
    row = {"name": c["name"], "case": c["case"], "ops": c["ops"], "calls": calls}
    if "inputs" in c:
        row["feeds"] = c["feeds"]
        row["bytes"] = sum(numel(s) * STORAGE_BYTES[d] for d, s in list(c["inputs"].values()) + list(c["outputs"].values()))
    return row


# ---------------------------------------------------------------- torch (imported only when running)
def make_fn(torch, F, c):
    """(inputs dict, call) for a case chain: call(inputs) -> outputs dict."""
    op, attrs = c["ops"][0], c["attrs"]
    if op == "com.microsoft.FastGelu":
        return lambda t: {"Y": F.gelu(t["X"] + t["bias"] if "bias" in t else t["X"], approximate="tanh")}
    if op == "ai.onnx.RMSNormalization":
        eps = float(attrs.get("epsilon", 1e-5))
        return lambda t: {"y": F.rms_norm(t["x"].to(t["scale"].dtype), (t["x"].shape[-1],), t["scale"], eps)}
    if op == "com.microsoft.GemmaRotaryEmbedding":
        def rope(t):
            cos = torch.cos(t["embT"]).to(t["qT"].dtype).unsqueeze(1)
            sin = torch.sin(t["embT"]).to(t["qT"].dtype).unsqueeze(1)
            return {"output1T": t["qT"] * cos + t["qRotT"] * sin, "output2T": t["kT"] * cos + t["kRotT"] * sin}
        return rope
    return lambda t: {"c": t["a"] + t["b"]}


def run_chain_loop(call, feeds, t, calls):
    for _ in range(calls):
        out = call(t)
        for o, i in feeds.items():
            t[i] = out[o]
    return t


def step_call(torch, F, hidden, dev):
    """(initial state, call, feeds) of the decode step: one call runs its four ops."""
    dt = torch.float16
    heads = [1, hidden // 256, 1, 256]
    g = torch.Generator(device="cpu").manual_seed(0)
    rnd = lambda shape, dtype=dt: (torch.rand(shape, generator=g) * 2 - 1).to(dtype).to(dev)
    bias, scale, resid = rnd([hidden]), rnd([hidden]), rnd([1, hidden])
    emb, q_rot, k, k_rot = rnd([1, 1, 256], torch.float32), rnd(heads), rnd(heads), rnd(heads)

    def call(t):
        x = F.gelu(t["h"] + bias, approximate="tanh")                       # FastGelu
        x = F.rms_norm(x, (hidden,), scale, 1e-6)                            # RMSNormalization
        cos, sin = torch.cos(emb).to(dt).unsqueeze(1), torch.sin(emb).to(dt).unsqueeze(1)
        o1 = x.view(heads) * cos + q_rot * sin                               # GemmaRotaryEmbedding,
        t["k_out"] = k * cos + k_rot * sin                                   # both of its outputs
        return {"h": o1.view(1, hidden) + resid}                             # Add
    return {"h": rnd([1, hidden])}, call, {"h": "h"}


def time_mode(torch, fn, sync, repeat):
    fn()
    sync()
    submits, totals = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        t1 = time.perf_counter()
        sync()
        t2 = time.perf_counter()
        submits.append((t1 - t0) * 1e6)
        totals.append((t2 - t0) * 1e6)
    return statistics.median(submits), statistics.median(totals)


def measure(torch, F, c, args, dev):
    calls = args.calls
    if "inputs" in c:
        dtypes = {"float16": torch.float16, "float32": torch.float32}
        g = torch.Generator(device="cpu").manual_seed(1)
        t0 = {k: (torch.rand(s, generator=g) * 2 - 1).to(dtypes[d]).to(dev) for k, (d, s) in c["inputs"].items()}
        call, feeds = make_fn(torch, F, c), c["feeds"]
        calls = calls + (calls % 2 if feeds else 0)  # whole ping-pong cycles, as wgk rounds up
    else:
        t0, call, feeds = step_call(torch, F, c["hidden"], dev)
        calls = -(-calls // 4)  # decode steps of four ops
    ops_per_call = 1 if "inputs" in c else 4
    row = plan_row(c, calls * ops_per_call)
    sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
    t = dict(t0)
    try:
        s, tot = time_mode(torch, lambda: run_chain_loop(call, feeds, t, calls), sync, args.repeat)
        n = calls * ops_per_call
        row["eager_us_per_op"], row["eager_submit_us_per_op"] = round(tot / n, 3), round(s / n, 3)
    except Exception as ex:  # a failed peer is a row with the error, never a lost run
        row["eager_error"] = str(ex)[:300]
    if dev == "cuda":
        try:
            static = dict(t0)
            side = torch.cuda.Stream()
            side.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(side):  # warm-up off the capture stream, as torch asks
                run_chain_loop(call, feeds, dict(static), 3)
            torch.cuda.current_stream().wait_stream(side)
            graph = torch.cuda.CUDAGraph()
            tc = time.perf_counter()
            with torch.cuda.graph(graph):
                run_chain_loop(call, feeds, static, calls)
            row["graph_capture_ms"] = round((time.perf_counter() - tc) * 1e3, 2)
            s, tot = time_mode(torch, graph.replay, sync, args.repeat)
            n = calls * ops_per_call
            row["graph_us_per_op"], row["graph_submit_us_per_op"] = round(tot / n, 3), round(s / n, 3)
            del graph
        except Exception as ex:
            row["graph_error"] = str(ex)[:300]
    return row


def write(path, rows, meta):
    doc = json.load(open(path)) if os.path.exists(path) else {"cases": []}
    for k, v in meta.items():
        doc.setdefault(k, v)
    doc["chain_meta"] = meta
    doc["chains"] = rows
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=2000, help="calls per chain (default 2000)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per mode (default 5)")
    ap.add_argument("--tag", default="decode", help="bench cases with this tag (default decode)")
    ap.add_argument("--step-hidden", type=int, default=2048, help="the decode step's hidden size")
    ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"))
    ap.add_argument("--dry-run", action="store_true", help="import no torch: the chains' plan only")
    ap.add_argument("--out", help="JSON file to add the rows to (default OUT/peers.json)")
    args = ap.parse_args(argv)
    if args.calls < 1 or args.repeat < 1 or args.step_hidden < 256 or args.step_hidden % 256:
        ap.error("--calls and --repeat must be positive, --step-hidden a positive multiple of 256")
    out = args.out or os.path.join(os.environ.get("OUT", "out"), "peers.json")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    chains = case_chains(args.tag) + [step_chain(args.step_hidden)]
    meta = {"calls": args.calls, "repeat": args.repeat, "device": args.device}
    rows = []
    if args.dry_run:
        rows = [plan_row(c, args.calls) for c in chains]
    else:
        import torch
        import torch.nn.functional as F
        if args.device == "cuda" and not torch.cuda.is_available():
            sys.exit("torch_chain_peers: no CUDA device (use --device cpu or --dry-run)")
        meta.update({"device": torch.cuda.get_device_name() if args.device == "cuda" else "cpu",
                     "torch": torch.__version__})
        for c in chains:
            rows.append(measure(torch, F, c, args, args.device))
            print(json.dumps(rows[-1]), flush=True)
            if args.device == "cuda":
                torch.cuda.empty_cache()
    write(out, rows, meta)
    print(f"torch_chain_peers: {len(rows)} chains -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
