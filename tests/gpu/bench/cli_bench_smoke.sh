#!/usr/bin/env bash
# `wgk bench` -> evidence JSON -> `wgk report`, and `wgk tune` -> `wgk bench --tuning`, through the
# CLI on the local adapter with smoke cases and tiny repeat counts. Checks structure, never speed.
#   cli_bench_smoke.sh WGK WORKDIR
set -euo pipefail
wgk=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
pkgs=(webgpu-kernels/ai.onnx.RMSNormalization webgpu-kernels/com.microsoft.FastGelu
      webgpu-kernels/com.microsoft.GemmaRotaryEmbedding)
"$wgk" bench "${pkgs[@]}" --tag smoke --all-variants --repeat 2 --warmup 1 --overhead-calls 5 \
  --out "$work/bench.json" > "$work/table.txt"
grep -q "smoke_2x64_f16" "$work/table.txt"
"$wgk" report "$work/bench.json" --html "$work/report.html" --markdown "$work/perf.md"
grep -q "<svg" "$work/report.html"
grep -q "### GemmaRotaryEmbedding on " "$work/perf.md"
"$wgk" tune "${pkgs[0]}" --case smoke_2x64_f16 --repeat 2 --warmup 1 --out "$work/tuning.json" > "$work/tune.txt"
"$wgk" bench "${pkgs[0]}" --case smoke_2x64_f16 --repeat 2 --warmup 1 --overhead-calls 2 --no-cold \
  --tuning "$work/tuning.json" --out "$work/tuned.json" > /dev/null
# --append adds a second package's run to the same file.
"$wgk" bench "${pkgs[1]}" --case smoke_3x7_f32 --repeat 2 --warmup 1 --overhead-calls 2 --no-cold \
  --out "$work/tuned.json" --append > /dev/null
# --json: the same evidence document on stdout, the table on stderr.
"$wgk" bench "${pkgs[1]}" --case smoke_3x7_f32 --repeat 2 --warmup 1 --overhead-calls 2 --no-cold --json \
  > "$work/stdout.json" 2> "$work/stderr.txt"
grep -q "smoke_3x7_f32" "$work/stderr.txt"
# A package whose cases declare flops (MatMul): the FMA rooflines are measured in the same run and
# the case gets TFLOPS, the share of the FMA peak and a bound.
"$wgk" bench webgpu-kernels/ai.onnx.MatMul --case smoke_mm_33x40x24_f32 --repeat 2 --warmup 1 --overhead-calls 2 \
  --no-cold --out "$work/mm.json" > "$work/mm.txt"
grep -q "^fma roofline: f32 " "$work/mm.txt"
"$wgk" report "$work/mm.json" --markdown "$work/mm.md"
grep -q "| case | MiB moved | GFLOP | bound |" "$work/mm.md"
python3 - "$work" <<'PY'
import json, math, sys
work = sys.argv[1]
doc = json.load(open(f"{work}/bench.json"))
assert doc["format"] == "wgk-bench/2", doc["format"]
for key in ("wgkVersion", "date", "device", "host", "packages", "roofline", "measurements"):
    assert key in doc, key
assert len(doc["packages"]) == 3 and len(doc["measurements"]) >= 6
def pos(v): return isinstance(v, (int, float)) and math.isfinite(v) and v > 0
for r in doc["roofline"]:
    assert pos(r["gbps"]) and r["bytes"] > 0 and r["chunks"] >= 1, r
snake = [k for m in doc["measurements"] for k in m if "_" in k]
assert not snake, ("evidence keys are camelCase", snake)
for m in doc["measurements"]:
    assert "error" not in m, m
    if "skipped" in m:
        continue
    for key in ("gbps", "copyGbps", "rooflineRatio", "coldMs", "wallUsMedian"):
        assert pos(m[key]), (key, m)
    assert m["gpuUsMedian"] >= m["gpuUsMin"] >= 0, m
    assert abs(m["rooflineRatio"] - m["gbps"] / m["copyGbps"]) < 1e-9, m
stdout_doc = json.load(open(f"{work}/stdout.json"))
assert stdout_doc["format"] == "wgk-bench/2" and stdout_doc["measurements"][0]["case"] == "smoke_3x7_f32"
tuning = json.load(open(f"{work}/tuning.json"))
assert tuning["format"] == "wgk-tuning/1" and len(tuning["entries"]) == 1, tuning
tuned = json.load(open(f"{work}/tuned.json"))
first, second = tuned["measurements"]
assert first["selectedBy"] == "tuning" and first["variant"] == tuning["entries"][0]["variant"], first
assert second["package"] == "com.microsoft.FastGelu" and len(tuned["packages"]) == 2, tuned["packages"]
assert first["coldMs"] is None
mm = json.load(open(f"{work}/mm.json"))
fma = mm["fmaRoofline"]
assert pos(fma["f32"]["tflops"]) and fma["f32"]["kernel"].startswith("vec4x"), fma["f32"]
assert "tflops" in fma["f16"] or "absent" in fma["f16"], fma["f16"]
assert "tflops" in fma["matrix"] or "absent" in fma["matrix"] or "error" in fma["matrix"], fma["matrix"]
(m,) = mm["measurements"]
assert "error" not in m, m
assert m["flops"] == 2 * 33 * 40 * 24 and pos(m["tflops"]) and m["bound"] in ("compute", "memory"), m
assert abs(m["tflops"] - m["flops"] / m["gpuUsMedian"] / 1e6) < 1e-9 * m["tflops"], m
assert abs(m["ofFmaPeak"] - m["tflops"] / m["fmaPeakTflops"]) < 1e-9, m
assert abs(m["fmaPeakTflops"] - fma["f32"]["tflops"]) < 1e-12, (m, fma)
print("cli bench smoke: OK,", len(doc["measurements"]), "measurements")
PY
