#!/usr/bin/env python3
"""Model folders that are wrong in one way each: `wgk generate` must refuse every one with a message
naming what is wrong and the exit code docs/cli.md lists (2: a model wgk cannot run as configured or
stored, or a bad prompt; 4: no such folder or file; 5: an unreadable or malformed file), never a
crash. The good tiny model is made once; each case copies it and breaks one thing."""
import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wgk", required=True)
    ap.add_argument("--tools", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    sys.path.insert(0, a.tools)
    import numpy as np
    import safetensors_io as st

    work = Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    good = work / "good"
    subprocess.run([sys.executable, str(Path(a.tools) / "make_gemma.py"), str(good), "--preset", "tiny",
                    "--seed", "4"], check=True, stdout=subprocess.DEVNULL)
    tensors, meta = st.read_file(str(good / "model.safetensors"))
    config = json.loads((good / "config.json").read_text())

    def variant(name, config_edit=None, tensors_edit=None, file_edit=None):
        d = work / name
        shutil.copytree(good, d)
        if config_edit:
            c = dict(config)
            config_edit(c)
            (d / "config.json").write_text(json.dumps(c))
        if tensors_edit:
            t = dict(tensors)
            tensors_edit(t)
            st.write_file(str(d / "model.safetensors"), t)
        if file_edit:
            file_edit(d)
        return d

    def drop(key):
        return lambda c: c.pop(key)

    def setv(key, value):
        return lambda c: c.__setitem__(key, value)

    kp = "model.layers.1.self_attn.k_proj.weight"
    cases = [
        ("missing folder", work / "nope", None, 4, "does not exist"),
        ("no config", variant("noconfig", file_edit=lambda d: (d / "config.json").unlink()), None, 4,
         "no config.json"),
        ("config not json", variant("badjson", file_edit=lambda d: (d / "config.json").write_text("{oops")), None, 4,
         "not valid JSON"),
        ("kv heads", variant("kv", config_edit=setv("num_key_value_heads", 3)), None, 2, "must divide"),
        ("gemma2", variant("g2", config_edit=setv("model_type", "gemma2")), None, 2, "model_type is 'gemma2'"),
        ("layers out of range", variant("layers", config_edit=setv("num_hidden_layers", 0)), None, 2,
         "'num_hidden_layers' is 0"),
        ("missing vocab", variant("novocab", config_edit=drop("vocab_size")), None, 2, "missing field 'vocab_size'"),
        ("more layers than stored", variant("layers3", config_edit=setv("num_hidden_layers", 3)), None, 2,
         "no tensor 'model.layers.2.input_layernorm.weight'"),
        ("missing tensor", variant("missing", tensors_edit=lambda t: t.pop("model.layers.1.mlp.up_proj.weight")), None, 2,
         "no tensor 'model.layers.1.mlp.up_proj.weight'"),
        ("wrong shape", variant("shape", tensors_edit=lambda t: t.__setitem__(kp, np.ascontiguousarray(t[kp].T))), None,
         2, "'" + kp + "' in .* has shape \\[64, 16\\]; the config needs \\[16, 64\\]"),
        ("wrong dtype", variant("dtype", tensors_edit=lambda t: t.__setitem__(
            "model.norm.weight", t["model.norm.weight"].astype(np.int32))), None, 2, "is I32; wgk reads F16"),
        ("truncated", variant("trunc", file_edit=lambda d: truncate(d / "model.safetensors", 100)), None, 5,
         "run past the end"),
        ("no weights", variant("noweights", file_edit=lambda d: (d / "model.safetensors").unlink()), None, 4,
         "holds neither model.safetensors"),
        ("shard outside", variant("outside", file_edit=lambda d: (d / "model.safetensors.index.json").write_text(
            json.dumps({"weight_map": {"model.norm.weight": "../good/model.safetensors"}}))), None, 5,
         "names '../good/model.safetensors', not a file inside the model folder"),
        ("bad token text", good, ["--tokens", "2,x"], 2, "'x' is not a token id"),
        ("token outside vocab", good, ["--tokens", "2,512"], 2, "outside the vocabulary \\[0, 512\\)"),
        ("cache too short", good, ["--tokens", "2,3", "--max-new", "80"], 2, "cache positions"),
        ("no tokens", good, [], 2, "--tokens 2,651"),
    ]
    import re
    failed = 0
    for name, folder, extra, code, pattern in cases:
        args = [a.wgk, "generate", str(folder)] + (["--tokens", "2,3", "--max-new", "2"] if extra is None else extra)
        r = subprocess.run(args, capture_output=True, text=True, timeout=300)
        ok = r.returncode == code and "wgk: error" in r.stderr and (not pattern or re.search(pattern, r.stderr))
        print(("ok   " if ok else "FAIL ") + f"{name}: exit {r.returncode} (want {code}): {r.stderr.strip()[:300]}")
        failed += not ok
    if failed:
        print(f"{failed} case(s) failed")
        return 1
    print(f"all {len(cases)} bad-model cases refused as documented")
    return 0


def truncate(path, n):
    data = path.read_bytes()
    path.write_bytes(data[:-n])


if __name__ == "__main__":
    sys.exit(main())
