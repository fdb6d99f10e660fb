#!/usr/bin/env bash
# `wgk chain` end to end on the local adapter (lavapipe in CI): smoke cases, tiny call counts, every
# mode (natural ones included); the evidence JSON has every field and batched/replayed buffers equal
# single calls'; the
# report renders its "Chains" section. Checks structure, never speed.
#   cli_chain_smoke.sh WGK WORKDIR
set -euo pipefail
wgk=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
"$wgk" chain --tag smoke --step --step-hidden 256 --calls 6 --repeat 2 --batch 4 --warm-calls 3 \
  --out "$work/chain.json" > "$work/table.txt"
grep -q "decode_step/decode_step_1x256_f16" "$work/table.txt"
grep -q "targets (issue 25, H200)" "$work/table.txt"
"$wgk" chain webgpu-kernels/ai.onnx.RMSNormalization --case smoke_2x64_f16 --calls 3 --repeat 1 \
  --warm-calls 2 --json > "$work/one.json"
# Bad input: a clear error and a non-zero exit.
if "$wgk" chain --case no_such_case --calls 2 > /dev/null 2> "$work/err.txt"; then
  echo "wgk chain --case no_such_case succeeded" >&2; exit 1
fi
grep -q "no package has a bench case named 'no_such_case'" "$work/err.txt"
"$wgk" report "$work/chain.json" --markdown "$work/perf.md" --html "$work/report.html"
grep -q "^## Chains" "$work/perf.md"
grep -q "<h2>Chains</h2>" "$work/report.html"
python3 - "$work" <<'PY'
import json, math, sys
work = sys.argv[1]
doc = json.load(open(f"{work}/chain.json"))
assert doc["format"] == "wgk-chain/2", doc["format"]
for key in ("wgkVersion", "date", "host", "device", "calls", "repeat", "batchSize", "targets", "chains"):
    assert key in doc, key
assert "adapterInfo" in doc["device"] and doc["batchSize"] == 4, doc["device"]
names = [c["name"] for c in doc["chains"]]
ops = {op for c in doc["chains"] for op in c["ops"]}
assert {"ai.onnx.Add", "ai.onnx.RMSNormalization", "com.microsoft.FastGelu",
        "com.microsoft.GemmaRotaryEmbedding"} <= ops and "decode_step/decode_step_1x256_f16" in names, names
def pos(v): return isinstance(v, (int, float)) and math.isfinite(v) and v > 0
for c in doc["chains"]:
    assert "error" not in c, c
    for key in ("case", "tags", "variants", "calls", "cycle", "fedBack"):
        assert key in c, (key, c["name"])
    assert c["calls"] % c["cycle"] == 0 and c["calls"] >= 6, c
    assert len(c["variants"]) == c["cycle"], c
    assert pos(c["warmCallUsMedian"]) and pos(c["callWaitUsMedian"]), c
    for mode in ("unbatched", "batched", "replayed"):
        m = c["modes"][mode]
        assert "error" not in m, (c["name"], mode, m)
        for key in ("perOpUsMedian", "perOpUsMin", "submitUsPerOpMedian", "totalMsMedian"):
            assert pos(m[key]), (c["name"], mode, key, m)
        assert m["perOpUsMedian"] >= m["perOpUsMin"], m
    assert c["modes"]["batched"]["bitIdentical"] is True, c
    assert c["modes"]["replayed"]["bitIdentical"] is True, c
    assert c["modes"]["batched"]["submits"] == -(-c["calls"] // 4), c
    assert pos(c["modes"]["replayed"]["captureMs"]) and c["modes"]["replayed"]["dispatches"] >= c["calls"], c
    for mode in ("naturalUnbatched", "naturalBatched", "naturalReplayed"):
        m = c["modes"][mode]
        assert "error" not in m and m["bitIdentical"] is True, (c["name"], mode, m)
        assert pos(m["perOpUsMedian"]) and m["allocsPerCall"] >= 0 and m["buffersCreated"] >= 0, m
    # Runtime-allocated outputs in a batch reuse dropped ones; single calls take one per output.
    nat = c["modes"]
    assert nat["naturalBatched"]["allocsPerCall"] <= nat["naturalUnbatched"]["allocsPerCall"], c["name"]
step = next(c for c in doc["chains"] if c["name"].startswith("decode_step/"))
assert step["cycle"] == 4 and step["fedBack"] and step["calls"] == 8, step
one = json.load(open(f"{work}/one.json"))
assert [c["name"] for c in one["chains"]] == ["ai.onnx.RMSNormalization/smoke_2x64_f16"], one["chains"]
assert one["chains"][0]["fedBack"] and one["chains"][0]["cycle"] == 2, one["chains"][0]
print("cli chain smoke: OK,", len(doc["chains"]), "chains")
PY
