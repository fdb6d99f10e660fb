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

With --write-golden FILE nothing is compared and wgk is not run: the oracle's plans for every
request and profile (the chosen variant, the variants it finds eligible and demoted, and per pass
the id, dispatch, bindings and uniform bytes), and the same for every other eligible variant
forced, are written to FILE, one plan a line. That file is the oracle's output, data a test
(tests/unit/plan/hub_oracle_parity_test.cpp) plans again with wgk without the oracle:

  tools/hub-oracle/compare_plans.py --package tests/data/hub/ai.onnx.MatMul \
      --requests 'tools/hub-oracle/requests/ai.onnx.MatMul/*.json' \
      --profiles lavapipe h200 no-f16 no-subgroups tiny-limits apple-m3 intel-xe \
      --write-golden tests/data/hub/ai.onnx.MatMul.oracle-plans.json

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


def oracle_plan(oracle, package, profile, request_file, wgsl, variant=None, explain=False):
    cmd = ["node", os.path.join(oracle, "plan.mjs"), "--package", package, "--profile", profile,
           "--request", request_file, "--compact"]
    if variant:
        cmd += ["--variant", variant]
    if not wgsl:
        cmd.append("--no-wgsl")
    if explain:
        cmd.append("--explain")
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


def golden_plan(o):
    """The part of an oracle plan the golden file keeps."""
    if "error" in o or o.get("plan") is None:
        return {"error": str(o.get("error", "no plan"))[:300]}
    passes = []
    for p in o["plan"]["passes"]:
        d = p["dispatch"]
        passes.append({
            "id": p["id"],
            "dispatch": [d["x"], d["y"], d["z"]],
            "bindings": [" ".join([b["name"], b["bufferType"]] + ([b["elementType"]] if "elementType" in b else []))
                         for b in p["bindings"]],
            "uniforms": {b["name"]: b["bytesHex"] for b in p["bindings"] if b["bufferType"] == "uniform"},
        })
    return {"variant": o["plan"]["variant"], "passes": passes}


def write_golden(args, oracle, out_file):
    requests, plans = {}, []
    for pattern in args.requests:
        for req_file in sorted(glob.glob(pattern)):
            name = os.path.splitext(os.path.basename(req_file))[0]
            requests[name] = json.load(open(req_file))
            for prof in args.profiles:
                profile = os.path.join(ROOT, "tests", "data", "profiles", prof + ".json")
                o = oracle_plan(oracle, args.package, profile, req_file, False, explain=True)
                entry = {"request": name, "profile": prof, "forced": None, **golden_plan(o)}
                ex = o.get("explain")
                forced = []
                if ex is not None:
                    entry["eligible"] = [c["id"] for c in ex["candidates"] if c["ok"]]
                    entry["demoted"] = [c["id"] for c in ex["candidates"] if c["ok"] and c["demoted"]]
                    forced = [v for v in entry["eligible"] if v != entry.get("variant")]
                plans.append(entry)
                for v in forced:
                    f = oracle_plan(oracle, args.package, profile, req_file, False, variant=v)
                    plans.append({"request": name, "profile": prof, "forced": v, **golden_plan(f)})
                print(f"{name} on {prof}: {entry.get('variant', 'error')} (+{len(forced)} forced)", file=sys.stderr)
    head = {
        "$comment": "The Hub loader's plans (@huggingface/kernels 0.0.1-preview.3, driven by "
                    "$WGK_ORACLE/plan.mjs with no GPU) for each request on each profile: the chosen "
                    "variant, the variants it finds eligible and demoted, every other eligible variant "
                    "forced, and per pass the dispatch, bindings and uniform bytes. Written by "
                    "tools/hub-oracle/compare_plans.py --write-golden; checked against wgk by "
                    "tests/unit/plan/hub_oracle_parity_test.cpp. Data the oracle printed, not its code.",
        "package": os.path.relpath(os.path.abspath(args.package), ROOT),
        "profiles": args.profiles,
        "requests": requests,
    }
    with open(out_file, "w") as f:
        f.write("{\n")
        for k, v in head.items():
            f.write(f"  {json.dumps(k)}: {json.dumps(v)},\n")
        f.write('  "plans": [\n')
        f.write(",\n".join("    " + json.dumps(e) for e in plans))
        f.write("\n  ]\n}\n")
    print(f"{len(plans)} plans written to {out_file}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--package", required=True)
    ap.add_argument("--requests", nargs="+", required=True)
    ap.add_argument("--profiles", nargs="+", default=["lavapipe", "h200", "no-f16", "no-subgroups"])
    ap.add_argument("--wgsl", action="store_true")
    ap.add_argument("--all-variants", action="store_true", help="also every variant eligible under wgk, forced")
    ap.add_argument("--wgk", default=os.path.join(ROOT, "build", "wgk"))
    ap.add_argument("--write-golden", metavar="FILE", help="write the oracle's plans to FILE (no comparison)")
    args = ap.parse_args()
    oracle = os.environ.get("WGK_ORACLE", "/work/oracle")
    if not os.path.exists(os.path.join(oracle, "plan.mjs")):
        print(f"no oracle at {oracle} (set WGK_ORACLE)", file=sys.stderr)
        return 2
    if args.write_golden:
        return write_golden(args, oracle, args.write_golden)
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
