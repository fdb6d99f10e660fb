#!/usr/bin/env python3
"""Differential check of wgk's planner against the Hub's JavaScript loader (the oracle).

The oracle (a Node harness around @huggingface/kernels; not part of this repository, and never to
be committed into it) lives in $WGK_ORACLE (default /work/oracle). For each request file and
device profile, this runs `wgk plan --json` and the oracle's plan.mjs on the same package folder
and compares: the chosen variant, and per pass the dispatch grid, every binding's WGSL name,
buffer type and element type, the uniform bytes and the generated declarations text; with
--wgsl also the rendered shaders (the package must then hold its templates), and with
--all-variants every variant wgk finds eligible, forced on both sides (`--variant`), not only the
chosen one. The Hub's loader has no `device.numerics` (facts wgk's runtime probes, which templates
read to pick a one-instruction rounding), so with --wgsl both sides get the profile without it and
render their portable forms.

  tools/hub-oracle/compare_plans.py --package tests/data/hub/ai.onnx.Add \
      --requests $WGK_ORACLE/requests/add-*.json [--profiles lavapipe h200] [--wgsl]
  tools/hub-oracle/compare_plans.py --package packages/webgpu-kernels/ai.onnx.Add \
      --requests tools/hub-oracle/requests/ai.onnx.Add/*.json --wgsl --all-variants

Exit status 1 when any comparison differs (each difference is printed), 0 otherwise.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def shape_text(shape):
    return "x".join(str(d) for d in shape) if shape else "scalar"


def wgk_plan(wgk, package, profile, request, wgsl, variant=None):
    cmd = [wgk, "plan", package, "--json", "--device-profile", profile]
    if variant:
        cmd += ["--variant", variant]
    for name, t in request.get("inputs", {}).items():
        cmd += ["--input", f"{name}={t['dtype']}:{shape_text(t['shape'])}"]
    for name, v in request.get("attrs", {}).items():
        cmd += ["--attr", f"{name}={json.dumps(v)}"]
    for name, v in request.get("args", {}).items():
        cmd += ["--arg", f"{name}={json.dumps(v)}"]
    if wgsl:
        cmd.append("--wgsl")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return {"error": r.stderr.strip()}
    return json.loads(r.stdout)


def oracle_plan(oracle, package, profile, request_file, wgsl, variant=None):
    cmd = ["node", os.path.join(oracle, "plan.mjs"), "--package", package, "--profile", profile,
           "--request", request_file, "--compact"]
    if variant:
        cmd += ["--variant", variant]
    if not wgsl:
        cmd.append("--no-wgsl")
    r = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        return {"error": (r.stderr or r.stdout).strip()[:400]}


def compare(w, o, wgsl):
    diffs = []
    if "error" in w or "error" in o or o.get("plan") is None:
        we, oe = "error" in w, "error" in o or o.get("plan") is None
        if we != oe:
            diffs.append(f"one side failed: wgk={w.get('error', 'ok')[:200]} oracle={str(o.get('error', 'ok'))[:200]}")
        return diffs
    op = o["plan"]
    if w["variant"] != op["variant"]:
        return [f"variant: wgk {w['variant']} vs oracle {op['variant']}"]
    wp = [p for p in w["passes"]]
    if len(wp) != len(op["passes"]):
        return [f"pass count: wgk {len(wp)} vs oracle {len(op['passes'])}"]
    for a, b in zip(wp, op["passes"]):
        grid = [b["dispatch"]["x"], b["dispatch"]["y"], b["dispatch"]["z"]]
        mine = a["dispatch"] if not a["skipped"] else [0, 0, 0]
        theirs = grid if not b.get("skipped") else [0, 0, 0]
        if mine != theirs and not (a["skipped"] and 0 in grid):
            diffs.append(f"pass {a['id']} dispatch: wgk {mine} vs oracle {grid}")
        for x, y in zip(a["bindings"], b["bindings"]):
            if x["name"] != y["name"] or x["type"] != y["bufferType"]:
                diffs.append(f"pass {a['id']} binding {x['binding']}: wgk {x['name']}/{x['type']} vs oracle {y['name']}/{y['bufferType']}")
            if "elementType" in x and x["elementType"] != y.get("elementType"):
                diffs.append(f"pass {a['id']} binding {x['name']} elementType: wgk {x['elementType']} vs oracle {y.get('elementType')}")
            if x["type"] == "uniform" and not a["skipped"] and x["bytes"] != y.get("bytesHex"):
                diffs.append(f"pass {a['id']} uniform {x['name']}: wgk {x['bytes']} vs oracle {y.get('bytesHex')}")
        if a.get("declarations") != b.get("resourceDeclarations"):
            diffs.append(f"pass {a['id']} declarations differ:\n--- wgk\n{a.get('declarations')}\n--- oracle\n{b.get('resourceDeclarations')}")
        if wgsl and not a["skipped"] and a.get("wgsl") != b.get("wgsl"):
            diffs.append(f"pass {a['id']} WGSL differs (wgk {len(a.get('wgsl', ''))} chars, oracle {len(b.get('wgsl', ''))})")
    return diffs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", required=True)
    ap.add_argument("--requests", nargs="+", required=True)
    ap.add_argument("--profiles", nargs="+", default=["lavapipe", "h200", "no-f16", "no-subgroups"])
    ap.add_argument("--wgsl", action="store_true")
    ap.add_argument("--all-variants", action="store_true", help="also every variant eligible under wgk, forced")
    ap.add_argument("--wgk", default=os.path.join(ROOT, "build", "wgk"))
    args = ap.parse_args()
    oracle = os.environ.get("WGK_ORACLE", "/work/oracle")
    if not os.path.exists(os.path.join(oracle, "plan.mjs")):
        print(f"no oracle at {oracle} (set WGK_ORACLE)", file=sys.stderr)
        return 2
    failures = 0
    runs = 0
    for pattern in args.requests:
        for req_file in sorted(glob.glob(pattern)):
            request = json.load(open(req_file))
            for prof in args.profiles:
                profile = os.path.join(ROOT, "tests", "data", "profiles", prof + ".json")
                if args.wgsl:  # the Hub's device view has no numerics: both render portable forms
                    doc = json.load(open(profile))
                    doc.pop("numerics", None)
                    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                        json.dump(doc, f)
                        profile = f.name
                w = wgk_plan(args.wgk, args.package, profile, request, args.wgsl)
                forced = [None]
                if args.all_variants and "error" not in w:
                    forced += [v["id"] for v in w["variants"] if v["eligible"] and v["id"] != w["variant"]]
                for variant in forced:
                    wv = w if variant is None else wgk_plan(args.wgk, args.package, profile, request, args.wgsl, variant)
                    o = oracle_plan(oracle, args.package, profile, req_file, args.wgsl, variant)
                    runs += 1
                    diffs = compare(wv, o, args.wgsl)
                    label = f"{os.path.basename(req_file)} on {prof}" + (f" forced {variant}" if variant else "")
                    if diffs:
                        failures += 1
                        print(f"DIFF {label}")
                        for d in diffs:
                            print("  " + d)
                    else:
                        print(f"same {label}: {wv.get('variant', 'no variant')}")
                if args.wgsl:
                    os.unlink(profile)
    print(f"{runs - failures} of {runs} the same")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
