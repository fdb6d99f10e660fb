#!/usr/bin/env python3
"""Checks a `wgk publish-layout --spec 2.1` layout against every rule of hub-spec-2.1/README.md
("metadata.json" and "manifest.json top level"), one assertion per rule, each named.

Usage: check_layout.py SITE ORG/NAME COMMIT
Prints "ok   <rule>" per rule and exits 1 after listing every violated rule.
"""
import base64
import hashlib
import json
import os
import re
import sys

site, repo, commit = sys.argv[1:4]
org, name = repo.split("/")
root = os.path.join(site, org, name, "resolve", commit, "build", "webgpu")
failures = []


def rule(title, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + title + ("" if ok else ": " + detail))
    if not ok:
        failures.append(title)


meta = json.load(open(os.path.join(root, "metadata.json")))
man = json.load(open(os.path.join(root, "manifest.json")))
op = man.get("domain", "ai.onnx") + "." + man.get("name", "")

# ---- metadata.json (checked before anything else) ----
rule("metadata.name equals the manifest's op id <domain>.<name>", meta.get("name") == op, f"{meta.get('name')} vs {op}")
rule("metadata.name equals the repo basename", meta.get("name") == name, f"{meta.get('name')} vs {name}")
rule("metadata.backend.type is \"webgpu\"", isinstance(meta.get("backend"), dict) and meta["backend"].get("type") == "webgpu",
     repr(meta.get("backend")))
spec = (meta.get("webgpu") or {}).get("manifestSpec")
rule("metadata.webgpu.manifestSpec is a <major>.<minor> string", isinstance(spec, str) and re.fullmatch(r"\d+\.\d+", spec or "") is not None,
     repr(spec))
rule("metadata.webgpu.manifestSpec is \"2.1\"", spec == "2.1", repr(spec))
digest = meta.get("digest") or {}
rule("metadata.digest.algorithm is \"sha256\"", digest.get("algorithm") == "sha256", repr(digest.get("algorithm")))
files = digest.get("files") or {}
b64 = re.compile(r"^[A-Za-z0-9+/]{43}=$")
rule("metadata.digest.files maps relative paths to base64 sha256",
     isinstance(files, dict) and files and all(isinstance(k, str) and not k.startswith("/") and ".." not in k.split("/")
                                              and isinstance(v, str) and b64.match(v) for k, v in files.items()),
     repr(list(files.items())[:2]))
rule("metadata.digest.files includes manifest.json", "manifest.json" in files)
bad = [p for p, d in files.items() if not os.path.isfile(os.path.join(root, p)) or
       base64.b64encode(hashlib.sha256(open(os.path.join(root, p), "rb").read()).digest()).decode() != d]
rule("every recorded digest matches the file (hashes are verified)", not bad, ", ".join(bad))
variants = (meta.get("webgpu") or {}).get("variants")


def plain_variants(vs):
    """Variant ids and their shaders; families are expanded by the reader, so a family member
    contributes its templates' placeholders (the layout written here has no families)."""
    out = {}
    for v in vs:
        if "cases" in v or "axes" in v:
            continue
        shaders = []

        def walk(passes):
            for p in passes:
                if "repeat" in p:
                    walk(p.get("passes", []))
                else:
                    shaders.append(p.get("shader"))
        walk(v.get("passes", []))
        out[v.get("id")] = shaders
    return out


mv = plain_variants(man.get("variants", []))
rule("metadata.webgpu.variants lists exactly the manifest's variants",
     isinstance(variants, dict) and set(variants) == set(mv), f"{sorted(variants or {})} vs {sorted(mv)}")
missing = [f"{v}:{s}" for v, ss in mv.items() for s in ss if s not in (variants or {}).get(v, [])]
rule("metadata.webgpu.variants lists every shader each variant's passes name", not missing, ", ".join(missing))

# ---- manifest.json top level (any other key is an error) ----
allowed = {"$schema", "domain", "name", "description", "conformance", "sinceVersion", "inputs", "outputs", "args",
           "attributes", "attributeConstraints", "typeConstraints", "tunables", "derive", "when", "requires",
           "bindings", "variants", "onnx"}
rule("manifest top level has only the spec's keys", set(man) <= allowed, ", ".join(sorted(set(man) - allowed)))
port_keys = {"onnx", "dtype", "rank", "optional", "shape", "layout", "storage", "narrowing", "description"}
ports_ok = all(isinstance(man.get(k), dict) and all(isinstance(p, dict) and set(p) <= port_keys for p in man[k].values())
               for k in ("inputs", "outputs"))
rule("inputs and outputs are maps name -> {onnx, dtype, rank, optional, shape, ...}", ports_ok)
rule("args are scalars {kind: u32|i32|f32|bool|string, ...}",
     all(isinstance(a, dict) and a.get("kind") in ("u32", "i32", "f32", "bool", "string") for a in man.get("args", {}).values()))
rule("attributes are {name: {default?, description?}} (no bare values)",
     all(isinstance(a, dict) and set(a) <= {"default", "description"} for a in man.get("attributes", {}).values()))
rule("attributeConstraints are {name: {required?, values?}}",
     all(isinstance(c, dict) and set(c) <= {"required", "values"} and c for c in man.get("attributeConstraints", {}).values()))
rule("tunables are {NAME: {default, description?}}",
     all(isinstance(t, dict) and "default" in t and set(t) <= {"default", "description"} for t in man.get("tunables", {}).values()))
reserved = {"repeat", "tunables", "dtypes", "logicalDtypes", "tensorDtypes", "ranks", "shapes", "present", "args", "attrs",
            "device", "env", "constants", "derive", "source"}
derive_names = list(man.get("derive", {})) + [n for v in man.get("variants", []) for n in v.get("derive", {})] + \
    [n for v in man.get("variants", []) for p in v.get("passes", []) for n in p.get("derive", {})]
rule("derive names do not shadow scope names", not (set(derive_names) & reserved), ", ".join(set(derive_names) & reserved))
binding_keys = {"buffer", "name", "arg", "scratch", "elementType", "length", "struct", "structName"}
rule("bindings are named handles -> {buffer, name, arg, scratch, elementType, length, struct, structName}",
     isinstance(man.get("bindings", {}), dict) and all(isinstance(b, dict) and set(b) <= binding_keys
                                                      for b in man.get("bindings", {}).values()))
rule("buffer types are read-only-storage, storage or uniform (strings)",
     all(b.get("buffer", "storage") in ("read-only-storage", "storage", "uniform") for b in man.get("bindings", {}).values()))
variant_keys = {"id", "description", "priority", "when", "demoteWhen", "supersededBy", "requires", "tunables", "derive",
                "intermediates", "passes"}
vs = man.get("variants", [])
rule("variants is a non-empty list of {id, description, priority, when, demoteWhen, supersededBy, requires, tunables, "
     "derive, intermediates, passes}", isinstance(vs, list) and vs and all(set(v) <= variant_keys for v in vs))
rule("when / demoteWhen are lists, never a single string",
     all(isinstance(v.get(k, []), list) for v in vs for k in ("when", "demoteWhen")) and isinstance(man.get("when", []), list))
rule("requires has only features, limits, subgroupMinSize, subgroupMatrixConfigs",
     all(set(v.get("requires", {})) <= {"features", "limits", "subgroupMinSize", "subgroupMatrixConfigs"} for v in vs))
pass_keys = {"id", "name", "shader", "derive", "bindings", "dispatch", "profile", "subgroupCollectivesWidth", "submitAfter",
             "viewAlias"}
passes = [p for v in vs for p in v.get("passes", []) if "repeat" not in p]
rule("passes are {id, name, shader, derive, bindings, dispatch, ...} (no seeds `source`)",
     all(set(p) <= pass_keys and isinstance(p.get("shader"), str) for p in passes))
handles = set(man.get("bindings", {}))
ports = set(man.get("inputs", {})) | set(man.get("outputs", {}))
rule("a pass lists its bindings (handle, port or intermediate names, or inline entries)",
     all(isinstance(p.get("bindings"), list) and p["bindings"] and
         all(isinstance(b, dict) or b in handles or b in ports or
             b in {i["id"] for v in vs for i in v.get("intermediates", [])} for b in p["bindings"]) for p in passes))


def dispatch_ok(d):
    if not isinstance(d, dict):
        return False
    if "threads" in d:
        return set(d) == {"threads", "workgroupSize"}
    if "workgroups" in d:
        return set(d) == {"workgroups"}
    return "x" in d and set(d) <= {"x", "y", "z"}


rule("dispatch is {x, y?, z?}, {threads, workgroupSize} or {workgroups}", all(dispatch_ok(p.get("dispatch")) for p in passes))
rule("subgroupCollectivesWidth is \"portable\" or a power of two in 4..128",
     all(p.get("subgroupCollectivesWidth", "portable") == "portable" or
         (isinstance(p["subgroupCollectivesWidth"], int) and p["subgroupCollectivesWidth"] in (4, 8, 16, 32, 64, 128))
         for p in passes))
refs = os.path.join(site, org, name, "refs", "v1")
rule("the branch ref names the published commit (served as X-Repo-Commit)",
     os.path.isfile(refs) and open(refs).read().strip() == commit)
if failures:
    print(f"{len(failures)} rule(s) violated for {repo}", file=sys.stderr)
    sys.exit(1)
print(f"all rules hold for {repo} at {commit}")
