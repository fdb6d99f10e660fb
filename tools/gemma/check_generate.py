"""Checks a Gemma decoder's greedy generation against tools/gemma/reference.py (float64).

  check_generate.py --wgk PATH_TO_wgk --model DIR --tokens 2,5,7 --max-new N
                    [--dtype-tol float16=ATOL,RTOL] [--atol A] [--rtol R] [--follow] [--wgk-arg ARG]...
  check_generate.py --got-logits FILE.npy --got-tokens 5,9,.. --model DIR --tokens 2,5,7 --max-new N
                    (any engine's output, e.g. tools/peers/torch_gemma_peer.py --logits)

With --wgk it runs `wgk generate DIR --tokens 2,5,7 --max-new N --json --logits TMP.npy` (extra
arguments from --wgk-arg), reads "tokens" (the generated ids) from the JSON object on stdout and
the logits, float [max_new, vocab], from TMP.npy: row 0 the logits after the prompt, row i after
feeding generated token i-1 (reference.py's rows). Exit status 0: all checks pass; 1: a mismatch
(the message says which step and by how much); 2: wgk failed or its output has the wrong form.

From Python (e.g. for the wgk Python API): compare(ref_logits, ref_tokens, got_logits, got_tokens,
atol, rtol) -> Report, or check(model_dir, prompt, got_logits, got_tokens) which runs the reference.

The tolerance rule, per step (row) i:
    max_j |got[i, j] - ref[i, j]|  <=  tol_i = atol + rtol * max_j |ref[i, j]|
Defaults by the checkpoint's dtype (config torch_dtype): float16 and float32 (wgk runs float32
weights in float16 too): atol = rtol = 1e-2, times sqrt(layers / 2) for models of more than 2
layers; bfloat16: 8e-2 (bf16 keeps 8 significant bits, f16 11: 8x the error).
Why: reference.py --emulate float16 models a plain float16 implementation (weights and every
activation rounded to f16, sums accumulated wide). Through the tiny model's 2 layers, over 24
prompts (4 seeds, up to 64 positions, rows fed the same tokens) its logits differ from the float64
reference by at most 0.0168 absolute, 0.0029 of max|ref| (median 0.0011): about 6 f16 units of
rounding (2^-11 = 4.9e-4) relative to the largest logit, the sum of roughly 30 roundings per
layer growing like a random walk. rtol = 1e-2 leaves 3.5x over that worst case for what a real
kernel adds (f16 exp/tanh/rsqrt, other summation orders, f16 logits out: 2^-11 * 10 = 0.005); atol
= 1e-2 covers rows whose largest logit is small. Rounding errors of independent layers add in
quadrature: sqrt(layers / 2) scales the 2-layer figures (gemma-2b, 18 layers: 3e-2). Measured with
the same emulation (f16 weights, 3 seeds x 4 prompts x 24 steps): the median error / max|ref| went
0.00094 -> 0.00157 -> 0.00300 for 2 -> 6 -> 18 layers at hidden 64 (0.00096 -> 0.00295 at hidden
256), i.e. sqrt(layers / 2); the worst row at 18 layers was 0.0137 (hidden 64) and 0.0050 (256).

Greedy tokens: at step i the engine's token must equal the reference's argmax when the
reference's top-2 margin exceeds 2 tol_i. If every logit is within tol_i, the engine's top logit
can fall and the reference's runner-up rise by at most tol_i each, so a margin above 2 tol_i decides
the token; below it, a different token is a legitimate rounding outcome. Also each engine token
must be the argmax of the engine's own logits row (first index on ties).
After the first step whose tokens differ (only possible, without failing, at a step of small
margin) the two runs continue from different histories: the engine's later rows are the logits
of another sequence, and neither its logits nor its tokens say anything about the reference's.
By default those steps are not compared (the report says how many were left). --follow instead
re-runs the reference fed the engine's tokens (teacher forcing, reference.py --feed) and checks
every step against that: the same rule, the same history.
"""
import argparse, json, math, os, subprocess, sys, tempfile
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import reference  # noqa: E402

BASE_TOL = {"float16": (1e-2, 1e-2), "float32": (1e-2, 1e-2), "bfloat16": (8e-2, 8e-2)}


def default_tolerance(dtype, layers=2):
    a, r = BASE_TOL.get(dtype, BASE_TOL["float16"])
    k = math.sqrt(max(1.0, layers / 2.0))
    return a * k, r * k


class Report:
    def __init__(self):
        self.ok, self.failures, self.notes, self.steps = True, [], [], []
        self.compared, self.left = 0, 0

    def fail(self, msg):
        self.ok = False
        self.failures.append(msg)

    def to_json(self):
        return {"ok": self.ok, "failures": self.failures, "notes": self.notes, "steps_compared": self.compared,
                "steps_left": self.left, "steps": self.steps}

    def text(self):
        lines = [" step  ref  got   ref_margin    max|diff|          tol  result"]
        for s in self.steps:
            lines.append(f"{s['step']:5d} {s['ref_token']:4d} {s['got_token']:4d} {s['margin']:12.6f} "
                         f"{s['max_diff']:12.6f} {s['tol']:12.6f}  {s['result']}")
        lines += ["note: " + n for n in self.notes]
        lines += ["FAIL: " + f for f in self.failures]
        lines.append(("OK" if self.ok else "MISMATCH") + f": {self.compared} steps compared, {self.left} left")
        return "\n".join(lines)


def compare(ref_logits, ref_tokens, got_logits, got_tokens, atol, rtol, stop_at_divergence=True):
    """Checks got (engine) against ref (reference) with the module's rule -> Report.
    stop_at_divergence=False: ref was run fed got_tokens (same history), so compare every step."""
    rep = Report()
    ref = np.asarray(ref_logits, dtype=np.float64)
    got = np.asarray(got_logits, dtype=np.float64)
    ref_tokens, got_tokens = [int(t) for t in ref_tokens], [int(t) for t in got_tokens]
    if got.shape != ref.shape:
        rep.fail(f"logits have shape {list(got.shape)}, expected {list(ref.shape)} [max_new, vocab]")
        return rep
    if len(got_tokens) != len(ref_tokens):
        rep.fail(f"{len(got_tokens)} tokens generated, expected {len(ref_tokens)}")
        return rep
    n = ref.shape[0]
    margins = reference.top2_margins(ref)
    for i in range(n):
        tol = atol + rtol * float(np.abs(ref[i]).max())
        finite = bool(np.isfinite(got[i]).all())
        diff = float(np.abs(got[i] - ref[i]).max()) if finite else float("inf")
        rt, gt, mg = ref_tokens[i], got_tokens[i], float(margins[i])
        step = {"step": i, "ref_token": rt, "got_token": gt, "margin": mg, "max_diff": diff, "tol": tol, "result": "ok"}
        rep.steps.append(step)
        rep.compared += 1
        bad = []
        if not finite:
            bad.append(f"step {i}: logits row holds NaN or infinity")
        elif diff > tol:
            j = int(np.argmax(np.abs(got[i] - ref[i])))
            bad.append(f"step {i}: logits differ by {diff:.6g} > tol {tol:.6g} (atol {atol:g} + rtol {rtol:g} * "
                       f"max|ref| {np.abs(ref[i]).max():.6g}); worst at vocab index {j}: got {got[i, j]:.6g}, "
                       f"reference {ref[i, j]:.6g}")
        if finite:
            own = int(np.argmax(got[i]))
            srt = np.sort(got[i])
            if own != gt and srt[-1] - srt[-2] > 1e-6 * max(1.0, abs(srt[-1])):
                bad.append(f"step {i}: token {gt} is not the argmax ({own}) of the engine's own logits row")
        if gt != rt:
            if mg > 2 * tol:
                bad.append(f"step {i}: token {gt}, reference {rt}, whose top-2 margin {mg:.6g} exceeds 2 tol = "
                           f"{2 * tol:.6g}: the token is decided, this is no rounding outcome")
            else:
                rep.notes.append(f"step {i}: tokens differ (got {gt}, reference {rt}) where the reference's "
                                 f"margin {mg:.6g} <= 2 tol = {2 * tol:.6g}: allowed")
                step["result"] = "diverged (allowed)"
        for b in bad:
            rep.fail(b)
        if bad:
            step["result"] = "FAIL"
        if gt != rt and stop_at_divergence and i + 1 < n:
            rep.left = n - i - 1
            rep.notes.append(f"steps {i + 1}..{n - 1} not compared: they follow different tokens "
                             "(--follow compares them against the reference fed the engine's tokens)")
            break
    return rep


def tolerance_for(model_dir, atol=None, rtol=None, dtype_tol=None):
    cfg = json.load(open(os.path.join(model_dir, "config.json")))
    dtype = cfg.get("torch_dtype", "float32")
    a, r = default_tolerance(dtype, cfg["num_hidden_layers"])
    if dtype_tol and dtype in dtype_tol:
        a, r = dtype_tol[dtype]
    return (a if atol is None else atol), (r if rtol is None else rtol), dtype


def check(model_dir, prompt, got_logits, got_tokens, atol=None, rtol=None, follow=False, dtype_tol=None, model=None):
    """Runs reference.py on (model_dir, prompt, len(got_tokens)) and compares -> Report."""
    a, r, _ = tolerance_for(model_dir, atol, rtol, dtype_tol)
    m = model or reference.Model(model_dir)
    n = len(got_tokens)
    ref_tokens, ref_logits = reference.generate(model_dir, prompt, n, model=m)
    if follow and list(map(int, got_tokens)) != ref_tokens:
        first = next(i for i, (x, y) in enumerate(zip(got_tokens, ref_tokens)) if int(x) != y)
        fed_tokens, fed_logits = reference.generate(model_dir, prompt, n, feed=list(got_tokens), model=m)
        rep = compare(fed_logits, fed_tokens, got_logits, got_tokens, a, r, stop_at_divergence=False)
        rep.notes.insert(0, f"greedy tokens first differ at step {first}: compared against the reference fed "
                            "the engine's tokens")
    else:
        rep = compare(ref_logits, ref_tokens, got_logits, got_tokens, a, r)
    rep.atol, rep.rtol = a, r
    return rep


def parse_dtype_tol(items):
    out = {}
    for it in items or []:
        try:
            k, v = it.split("=", 1)
            a, r = (float(x) for x in v.split(","))
        except ValueError:
            raise SystemExit(f"check_generate: --dtype-tol {it!r}: expected DTYPE=ATOL,RTOL")
        out[k] = (a, r)
    return out


def run_wgk(wgk, model, prompt, n, extra, timeout):
    with tempfile.TemporaryDirectory(prefix="check_generate_") as tmp:
        path = os.path.join(tmp, "logits.npy")
        cmd = [wgk, "generate", model, "--tokens", ",".join(map(str, prompt)), "--max-new", str(n),
               "--json", "--logits", path] + list(extra or [])
        print("running:", " ".join(cmd), file=sys.stderr)
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as ex:
            raise RuntimeError(f"could not run wgk: {ex}")
        if p.returncode != 0:
            raise RuntimeError(f"wgk generate exited {p.returncode}:\n{p.stderr.strip()[-3000:]}")
        doc = None
        try:
            doc = json.loads(p.stdout)
        except ValueError:
            for line in reversed(p.stdout.strip().splitlines()):
                try:
                    d = json.loads(line)
                except ValueError:
                    continue
                if isinstance(d, dict) and "tokens" in d:
                    doc = d
                    break
        if not isinstance(doc, dict) or "tokens" not in doc:
            raise RuntimeError(f"wgk generate printed no JSON object with \"tokens\":\n{p.stdout[-2000:]}")
        if not os.path.exists(path):
            raise RuntimeError(f"wgk generate wrote no logits file {path}")
        logits = np.load(path)
        return doc, logits


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--wgk", help="the wgk binary")
    ap.add_argument("--model", required=True, help="checkpoint folder (config.json + safetensors)")
    ap.add_argument("--tokens", required=True, help="prompt ids, comma separated")
    ap.add_argument("--max-new", type=int, required=True)
    ap.add_argument("--dtype-tol", action="append", metavar="DTYPE=ATOL,RTOL",
                    help="tolerance for checkpoints of this dtype (repeatable), instead of the default")
    ap.add_argument("--atol", type=float, help="atol, whatever the dtype")
    ap.add_argument("--rtol", type=float, help="rtol, whatever the dtype")
    ap.add_argument("--follow", action="store_true", help="after tokens diverge, compare against the "
                                                          "reference fed the engine's tokens")
    ap.add_argument("--wgk-arg", action="append", default=[], help="extra argument for wgk generate")
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--got-logits", help="check this .npy instead of running wgk (with --got-tokens)")
    ap.add_argument("--got-tokens", help="the generated ids that go with --got-logits")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    a = ap.parse_args(argv)
    prompt = reference.parse_ids(a.tokens)
    if not prompt or a.max_new < 1:
        ap.error("--tokens needs an id and --max-new must be >= 1")
    if bool(a.wgk) == bool(a.got_logits) or bool(a.got_logits) != bool(a.got_tokens):
        ap.error("give --wgk, or --got-logits with --got-tokens")
    try:
        if a.wgk:
            doc, logits = run_wgk(a.wgk, a.model, prompt, a.max_new, a.wgk_arg, a.timeout)
            tokens = [int(t) for t in doc["tokens"]]
            if len(tokens) == len(prompt) + a.max_new and tokens[:len(prompt)] == prompt:
                print("check_generate: wgk's \"tokens\" starts with the prompt; comparing the rest", file=sys.stderr)
                tokens = tokens[len(prompt):]
        else:
            logits, tokens = np.load(a.got_logits), reference.parse_ids(a.got_tokens)
    except (RuntimeError, OSError, ValueError) as ex:
        print(f"check_generate: {ex}", file=sys.stderr)
        return 2
    if logits.ndim != 2 or len(tokens) != a.max_new:
        print(f"check_generate: expected {a.max_new} tokens and logits [max_new, vocab]; got {len(tokens)} tokens "
              f"and logits of shape {list(logits.shape)}", file=sys.stderr)
        return 2
    rep = check(a.model, prompt, logits, tokens, a.atol, a.rtol, a.follow, parse_dtype_tol(a.dtype_tol))
    if a.json:
        d = rep.to_json()
        d.update({"atol": rep.atol, "rtol": rep.rtol, "tokens": tokens})
        print(json.dumps(d))
    else:
        print(f"tolerance: atol {rep.atol:g}, rtol {rep.rtol:g}")
        print(rep.text())
    if not rep.ok:
        print("check_generate: MISMATCH: " + rep.failures[0], file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
