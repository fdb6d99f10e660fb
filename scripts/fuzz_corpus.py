#!/usr/bin/env python3
"""Writes the libFuzzer seed corpora (fuzz/) from the repository's packages and test data.

    scripts/fuzz_corpus.py OUT_DIR      -> OUT_DIR/<target>/<sha1 of the seed>

Seeds are derived, not committed: every manifest, test.json, bench.json and metadata.json, every
template, each string of every manifest (the expressions), and small .npy / .safetensors files
written here. Targets whose input starts with a selector byte (fuzz_loaders, fuzz_tensor_files)
get the byte prepended. The multi-file targets (fuzz_package, fuzz_hub_response) read sections
"=== <name>\n<bytes>" (fuzz/fuzz_archive.h): each package folder becomes one seed (test.json cut
to its first cases, files beyond MAX_PACKAGE_SEED left out), and each metadata.json and manifest.json
pair becomes HTTP responses as a server sends them. Packages whose manifest.json and metadata.json
alone pass MAX_PACKAGE_SEED (MatMul, ArgMax: 100 KB manifests) seed neither: each of their inputs
took 0.1 to 1.4 s, and fuzz_manifest feeds their manifests alone.
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


MAX_PACKAGE_SEED = 30000  # bytes: fuzz.sh runs fuzz_package and fuzz_hub_response with -max_len=32768


def small_package(d):
    """Whether the package's manifest.json and metadata.json fit a seed of MAX_PACKAGE_SEED."""
    size = sum(os.path.getsize(os.path.join(d, n)) for n in ("manifest.json", "metadata.json")
               if os.path.exists(os.path.join(d, n)))
    return size + 200 < MAX_PACKAGE_SEED


def package_dirs():
    for base in SOURCES:
        for dirpath, _, names in os.walk(os.path.join(ROOT, base)):
            if "manifest.json" in names and dirpath.endswith(os.path.join("build", "webgpu")):
                yield dirpath


def section(name, body):
    return b"=== " + name.encode() + b"\n" + body + (b"" if body.endswith(b"\n") else b"\n")


def package_seed(d):
    """One package folder as fuzz_package's sections: manifest and metadata first, then the templates
    (smallest first) and a test.json of its first three cases while the seed stays small."""
    out = section("manifest.json", open(os.path.join(d, "manifest.json"), "rb").read())
    if os.path.exists(os.path.join(d, "metadata.json")):
        out += section("metadata.json", open(os.path.join(d, "metadata.json"), "rb").read())
    test = os.path.join(d, "test.json")
    if os.path.exists(test):
        t = json.load(open(test))
        t["cases"] = t.get("cases", [])[:3]
        t.pop("fixtureArrays", None) if not t["cases"] else None
        body = json.dumps(t, separators=(",", ":")).encode()
        if len(out) + len(body) < MAX_PACKAGE_SEED:
            out += section("test.json", body)
    for n in sorted(os.listdir(d), key=lambda n: os.path.getsize(os.path.join(d, n))):
        if n.endswith(".jinja") or n.endswith(".wgsl"):
            body = open(os.path.join(d, n), "rb").read()
            if len(out) + len(body) < MAX_PACKAGE_SEED:
                out += section(n, body)
    return out


def response(body, headers):
    head = b"HTTP/1.1 200 OK\r\n" + b"".join(h.encode() + b"\r\n" for h in headers)
    return head + b"Content-Length: %d\r\n\r\n" % len(body) + body


def hub_seeds(d):
    """metadata.json and manifest.json of a package as a server answers for them."""
    meta = open(os.path.join(d, "metadata.json"), "rb").read()
    manifest = open(os.path.join(d, "manifest.json"), "rb").read()
    name = json.loads(meta).get("name", "x")
    commit = hashlib.sha1(meta).hexdigest()
    repo = section("repo", b"webgpu-kernels/" + name.encode())
    yield repo + section("metadata.json", response(meta, ["X-Repo-Commit: " + commit])) + \
        section("manifest.json", response(manifest, ["ETag: \"%s\"" % commit[:8]]))
    # A redirect hop before the answer, a pinned revision, and a branch without X-Repo-Commit.
    hop = b"HTTP/1.1 302 Found\r\nLocation: https://cdn.example/x\r\nContent-Length: 0\r\n"
    yield repo + section("revision", commit.encode()) + \
        section("metadata.json", hop + response(meta, ["X-Repo-Commit: " + commit]))
    yield repo + section("metadata.json", response(meta, [])) + section("manifest.json", response(manifest, []))


def main():
    out = sys.argv[1]
    seeds = {t: set() for t in ["fuzz_expr", "fuzz_template", "fuzz_manifest", "fuzz_loaders",
                                "fuzz_tensor_files", "fuzz_planner", "fuzz_package", "fuzz_hub_response"]}
    for d in package_dirs():
        if not small_package(d):
            continue
        seeds["fuzz_package"].add(package_seed(d))
        if os.path.exists(os.path.join(d, "metadata.json")):
            seeds["fuzz_hub_response"].update(hub_seeds(d))
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
