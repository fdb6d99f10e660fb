"""`--json` is one convention across commands (issue 29 item 6): stdout holds one JSON object,
keys camelCase; an error is {"error": {"code", "message", "context"}} on stdout with the exit code
docs/cli.md lists. Usage: json_convention.py WGK PACKAGES_DIR. Host-only cases (no GPU work)."""
import json
import os
import re
import subprocess
import sys
import tempfile

wgk, packages = sys.argv[1], sys.argv[2]
gelu = "webgpu-kernels/com.microsoft.FastGelu"
tmp = tempfile.mkdtemp()
f64 = os.path.join(tmp, "x64.npy")
with open(f64, "wb") as f:  # a float64 [2, 8] .npy, written without numpy
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 8), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + bytes(128))

# (command, environment, exit code, error code): one per command that takes --json.
errors = [
    (["list"], {"WGK_PACKAGES": "/nonexistent"}, 4, "not-found"),
    (["info", "webgpu-kernels/com.microsoft.FastGelo", "--offline"], {}, 4, "not-found"),
    (["plan", gelu, "--input", "X=float99:2"], {}, 2, "invalid-argument"),
    (["run", gelu], {}, 2, "invalid-argument"),  # no --output-dir (a CLI11 usage error)
    (["run", gelu, "--input", "X=" + f64, "--output-dir", tmp], {}, 2, "invalid-argument"),
    (["test", gelu, "--case", "nope"], {}, 4, "not-found"),
    (["bench", gelu, "--case", "nope"], {}, 4, "not-found"),
    (["tune", gelu, "--case", "nope"], {}, 4, "not-found"),
    (["chain", gelu, "--case", "nope"], {}, 4, "not-found"),
    (["overhead", gelu, "--calls", "0"], {}, 2, "invalid-argument"),
    (["card", "/nonexistent"], {}, 4, "not-found"),
    (["digest", "/nonexistent"], {}, 4, "not-found"),
    (["devices"], {"WGK_DAWN_NODE": "/nonexistent"}, 3, "setup"),
    (["demo", "--nope"], {}, 2, "invalid-argument"),
    (["generate", "/nonexistent"], {}, 2, "invalid-argument"),
    (["frob"], {}, 2, "invalid-argument"),
]
failures = []
for args, env, rc, code in errors:
    p = subprocess.run([wgk, "--quiet", *args, "--json"], capture_output=True, text=True, timeout=120,
                       env={**os.environ, **env})
    try:
        e = json.loads(p.stdout)["error"]
        ok = (p.returncode == rc and e["code"] == code and isinstance(e["message"], str) and e["message"]
              and isinstance(e["context"], list) and set(e) == {"code", "message", "context"})
    except (ValueError, KeyError, TypeError):
        ok = False
    if not ok:
        failures.append(f"{' '.join(args)}: exit {p.returncode} (want {rc}, {code}), stdout {p.stdout[:200]!r}")

# Successes: one object, camelCase keys (maps keyed by data, tensor or tunable names excepted).
data_maps = {"tunables", "typeConstraints", "outputs", "inputs", "attributes", "args", "repos", "intermediates"}
camel = re.compile(r"[a-z][a-zA-Z0-9]*")


def keys(x, path, bad):
    if isinstance(x, dict):
        for k, v in x.items():
            if not camel.fullmatch(k):
                bad.append(path + "/" + k)
            if k in data_maps and isinstance(v, dict):  # the keys are names; their values are not
                for w in v.values():
                    keys(w, path + "/" + k + "/*", bad)
            else:
                keys(v, path + "/" + k, bad)
    elif isinstance(x, list):
        for v in x:
            keys(v, path + "[]", bad)


successes = [
    ["list"],
    ["info", gelu],
    ["plan", gelu, "--input", "X=float16:4x64", "--input", "bias=float16:64",
     "--device-profile", os.path.join(os.path.dirname(packages), "tests/data/profiles/h200.json")],
    ["digest", os.path.join(packages, gelu)],
    ["card", gelu, "--check"],
    ["cache", "list", "--cache-dir", tmp],
]
for args in successes:
    p = subprocess.run([wgk, "--quiet", *args, "--json"], capture_output=True, text=True, timeout=120)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = None
    bad = []
    if p.returncode != 0 or not isinstance(doc, dict):
        failures.append(f"{' '.join(args)}: exit {p.returncode}, not one JSON object: {p.stdout[:120]!r}")
        continue
    keys(doc, "", bad)
    if args[0] in ("info", "plan") and not {"repo", "revision", "origin"} <= set(doc):
        bad.append("no repo / revision / origin")
    if bad:
        failures.append(f"{' '.join(args)}: keys not camelCase: {bad[:5]}")
for f in failures:
    print("FAIL", f)
print(f"{len(errors)} error cases, {len(successes)} success cases, {len(failures)} failed")
sys.exit(1 if failures else 0)
