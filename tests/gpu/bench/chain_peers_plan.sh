#!/usr/bin/env bash
# tools/peers/torch_chain_peers.py without a GPU: --dry-run (no torch) must plan the same chains as
# `wgk chain` (the decode cases of the four ops it knows, and the decode step) and write them under "chains";
# where torch is importable, --device cpu runs the eager chains with tiny N too.
#   chain_peers_plan.sh SOURCE_DIR WORKDIR
set -euo pipefail
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
script="$src/tools/peers/torch_chain_peers.py"
echo '{"device": "x", "cases": [{"op": "Add", "bytes": 8}]}' > "$work/peers.json"
python3 "$script" --dry-run --calls 7 --out "$work/peers.json"
if python3 "$script" --dry-run --calls 0 --out "$work/bad.json" 2> /dev/null; then
  echo "--calls 0 was accepted" >&2; exit 1
fi
python3 - "$work/peers.json" "$src" <<'PY'
import glob, json, os, sys
doc = json.load(open(sys.argv[1]))
assert doc["cases"] == [{"op": "Add", "bytes": 8}] and doc["device"] == "x", doc  # kept
decode = set()
for f in glob.glob(os.path.join(sys.argv[2], "packages/webgpu-kernels/*/build/webgpu/bench.json")):
    op = f.split(os.sep)[-4]
    if op not in ("com.microsoft.FastGelu", "ai.onnx.RMSNormalization", "com.microsoft.GemmaRotaryEmbedding",
                  "ai.onnx.Add"):
        continue  # ops the script has no torch equivalent for (wgk chain still runs them)
    decode |= {f"{op}/{c['name']}" for c in json.load(open(f))["cases"] if "decode" in c.get("tags", [])}
names = {c["name"] for c in doc["chains"]}
assert names == decode | {"decode_step/decode_step_1x2048_f16"}, names ^ decode
for c in doc["chains"]:
    assert c["calls"] == 7, c
    if not c["name"].startswith("decode_step/"):
        assert c["bytes"] > 0 and isinstance(c["feeds"], dict), c
rot = doc["chains"][[c["name"] for c in doc["chains"]].index("com.microsoft.GemmaRotaryEmbedding/decode_b1_h8_s1_d256")]
assert rot["feeds"] == {"output1T": "kRotT", "output2T": "kT"}, rot  # wgk chain's rule: first match by name
print("chain peers plan: OK,", len(names), "chains")
PY
if python3 -c "import torch" 2> /dev/null; then
  python3 "$script" --device cpu --calls 4 --repeat 1 --out "$work/cpu.json"
  python3 -c "
import json, sys
rows = json.load(open(sys.argv[1]))['chains']
bad = [r for r in rows if not r.get('eager_us_per_op', 0) > 0]
assert not bad, bad
print('chain peers on cpu: OK,', len(rows), 'chains')" "$work/cpu.json"
fi
