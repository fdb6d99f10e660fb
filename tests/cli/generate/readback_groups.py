#!/usr/bin/env python3
"""Decode steps submitted in groups (GenerateOptions::readbackEvery, `--readback-every`): the tokens
must not depend on the group size, and a stop token inside a group must end the output there.

A tiny random Gemma (seed 5) is decoded once with --logits (a readback per step), checked against
the float64 reference (check_generate.check); then without logits at group sizes 1, 3 and the
default 8, each of which must give exactly those tokens; then with --stop set to a token first
produced in the middle of a group of 3, which must return the tokens up to and including it; and
--profile, whose per-op rows must cover every call of the decode step and of the prefill block."""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def generate(wgk, model, prompt, n, extra):
    cmd = [wgk, "generate", str(model), "--tokens", ",".join(map(str, prompt)), "--max-new", str(n),
           "--json", "--quiet"] + extra
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {p.returncode}:\n{p.stderr[-3000:]}")
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wgk", required=True)
    ap.add_argument("--tools", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    sys.path.insert(0, a.tools)
    import numpy as np
    import check_generate

    model = Path(a.work) / "tiny_readback"
    subprocess.run([sys.executable, str(Path(a.tools) / "make_gemma.py"), str(model), "--preset", "tiny",
                    "--seed", "5"], check=True, stdout=subprocess.DEVNULL)
    prompt, n = [2, 31, 400, 7], 12
    with tempfile.TemporaryDirectory() as tmp:
        logits_path = str(Path(tmp) / "logits.npy")
        doc = generate(a.wgk, model, prompt, n, ["--logits", logits_path])
        base = doc["tokens"]
        if doc.get("readbackEvery") != 1:
            sys.exit(f"FAIL: --logits should read back every step, the JSON says {doc.get('readbackEvery')}")
        rep = check_generate.check(str(model), prompt, np.load(logits_path), base)
        if not rep.ok:
            sys.exit("FAIL: the per-step run differs from the float64 reference:\n" + rep.text())
    print(f"per-step tokens (checked against the reference): {base}")
    failures = []
    for every in (1, 3, None):
        extra = [] if every is None else ["--readback-every", str(every)]
        got = generate(a.wgk, model, prompt, n, extra)
        want_every = 8 if every is None else every
        if got["tokens"] != base:
            failures.append(f"--readback-every {want_every}: {got['tokens']} != {base}")
        if got.get("readbackEvery") != want_every:
            failures.append(f"--readback-every {want_every}: the JSON says {got.get('readbackEvery')}")
        if len(got["timings"]["tokenMs"]) != len(base) - 1:
            failures.append(f"--readback-every {want_every}: {len(got['timings']['tokenMs'])} step times "
                            f"for {len(base) - 1} steps")
    # Groups of 3 cover new tokens 1-3, 4-6, 7-9, 10-11: a stop first produced at 5 is mid-group.
    firsts = {}
    for i, t in enumerate(base):
        firsts.setdefault(t, i)
    mid = [i for t, i in firsts.items() if i >= 1 and (i - 1) % 3 != 2 and i < n - 1]
    if not mid:
        sys.exit(f"FAIL: no token of {base} is first produced mid-group: pick another seed")
    k = mid[len(mid) // 2]
    got = generate(a.wgk, model, prompt, n, ["--readback-every", "3", "--stop", str(base[k])])
    if got["tokens"] != base[:k + 1]:
        failures.append(f"--stop {base[k]} (first at {k}) with groups of 3: {got['tokens']} != {base[:k + 1]}")
    # --profile: every call of one decode step and one prefill block, timed alone.
    got = generate(a.wgk, model, prompt, 2, ["--profile"])
    prof = got.get("profile", {})
    step, pre = prof.get("decodeStep", {}), prof.get("prefillBlock", {})
    if step.get("calls") != got["decodeCalls"]:
        failures.append(f"--profile: {step.get('calls')} decode-step calls, the step has {got['decodeCalls']}")
    for name, part in (("decode step", step), ("prefill block", pre)):
        rows = part.get("byOp", [])
        if not rows or part.get("gpuUs", 0) <= 0 or sum(r["calls"] for r in rows) != part.get("calls"):
            failures.append(f"--profile: the {name} has no GPU time or its rows do not add up: {part}")
        elif abs(sum(r["gpuUs"] for r in rows) - part["gpuUs"]) > 1e-6 * part["gpuUs"] + 1e-9:
            failures.append(f"--profile: the {name}'s rows do not sum to its gpuUs")
        elif not any(r["op"] == "ai.onnx.MatMul" for r in rows):
            failures.append(f"--profile: no MatMul in the {name}: {rows}")
    if failures:
        sys.exit("FAIL:\n  " + "\n  ".join(failures))
    print(f"ok: group sizes 1, 3, 8 give the per-step tokens; --stop {base[k]} ends at token {k}")


if __name__ == "__main__":
    main()
