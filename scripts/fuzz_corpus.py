#!/usr/bin/env python3
"""Writes the libFuzzer seed corpora (fuzz/) from the repository's packages and test data.

    scripts/fuzz_corpus.py OUT_DIR      -> OUT_DIR/<target>/<sha1 of the seed>

Seeds are derived, not committed: every manifest, test.json, bench.json and metadata.json, every
template, each string of every manifest (the expressions), and small .npy / .safetensors files
written here. Targets whose input starts with a selector byte (fuzz_loaders, fuzz_tensor_files)
get the byte prepended.
"""
import hashlib
import json
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = ["packages", "tests/data"]


def files(suffixes):
    for base in SOURCES:
        for dirpath, _, names in os.walk(os.path.join(ROOT, base)):
            for n in sorted(names):
                if any(n.endswith(s) for s in suffixes):
                    yield os.path.join(dirpath, n)


def strings(j):
    if isinstance(j, str):
        yield j
    elif isinstance(j, list):
        for v in j:
            yield from strings(v)
    elif isinstance(j, dict):
        for k, v in j.items():
            yield k
            yield from strings(v)


def npy(descr, shape, payload):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d," % d for d in shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload


def safetensors(tensors):
    header, data = {"__metadata__": {"format": "pt"}}, b""
    for name, (dtype, shape, payload) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(data), len(data) + len(payload)]}
        data += payload
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    return struct.pack("<Q", len(h)) + h + data


def main():
    out = sys.argv[1]
    seeds = {t: set() for t in ["fuzz_expr", "fuzz_template", "fuzz_manifest", "fuzz_loaders",
                                "fuzz_tensor_files", "fuzz_planner"]}
    for f in files([".jinja", ".wgsl"]):
        seeds["fuzz_template"].add(open(f, "rb").read())
    for f in files(["manifest.json"]):
        raw = open(f, "rb").read()
        seeds["fuzz_manifest"].add(raw)
        seeds["fuzz_loaders"].add(b"\x03" + raw)
        try:
            for s in strings(json.loads(raw)):
                if any(c in s for c in "()+-*/<>=.[") and len(s) < 400:
                    seeds["fuzz_expr"].add(s.encode())
        except ValueError:
            pass
    for name, sel in (("test.json", b"\x00"), ("bench.json", b"\x01"), ("metadata.json", b"\x02")):
        for f in files([name]):
            seeds["fuzz_loaders"].add(sel + open(f, "rb").read())
    f32 = struct.pack("<4f", 1.0, -2.5, 3e38, 1e-30)
    for s in (npy("<f4", [2, 2], f32), npy("<f2", [2], b"\x00\x3c\x00\xc0"), npy("<i8", [1], b"\x07" + b"\0" * 7),
              npy("|u1", [0, 3], b""), npy("<f4", [], f32[:4])):
        seeds["fuzz_tensor_files"].add(b"\x01" + s)
    for s in (safetensors({"x": ("F32", [2, 2], f32)}),
              safetensors({"a": ("F16", [2], b"\x00\x3c\x00\xc0"), "b": ("I64", [1], b"\x01" + b"\0" * 7)})):
        seeds["fuzz_tensor_files"].add(b"\x00" + s)
    for i in range(16):  # the planner reads structured bytes: a few deterministic starts
        seeds["fuzz_planner"].add(hashlib.sha256(b"wgk planner seed %d" % i).digest() * 4)
    for target, items in seeds.items():
        d = os.path.join(out, target)
        os.makedirs(d, exist_ok=True)
        for item in items:
            with open(os.path.join(d, hashlib.sha1(item).hexdigest()), "wb") as fh:
                fh.write(item)
        print("%s: %d seeds" % (target, len(items)))


if __name__ == "__main__":
    main()
