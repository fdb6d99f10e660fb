#!/usr/bin/env bash
# `wgk bench --passes` (issue 27) on the local adapter: a Softmax case that plans longrow_split
# (three passes) and a single-pass one. The evidence carries each measurement's per-pass medians,
# the table prints one indented line per pass, `wgk report` shows the split. Structure, not speed.
#   cli_bench_passes.sh WGK WORKDIR
set -euo pipefail
wgk=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
pkg=webgpu-kernels/ai.onnx.Softmax
fast=(--warmup 0 --warmup-ms 0 --spin-up-ms 0 --overhead-calls 0 --no-cold --no-fma-roofline)
# One timed call: its pass medians are its passes, which sum to its GPU time exactly. The single
# pass of the second case equals the call's time in every repeat, so the medians agree too.
"$wgk" bench "$pkg" --case decode_vocab_1x128256_f16 --repeat 1 "${fast[@]}" --passes \
  --out "$work/split.json" > "$work/split.txt"
"$wgk" bench "$pkg" --case smoke_3x7_f32 --repeat 3 "${fast[@]}" --passes --out "$work/split.json" --append \
  > "$work/single.txt"
"$wgk" bench "$pkg" --case smoke_3x7_f32 --repeat 1 "${fast[@]}" > "$work/plain.txt"
"$wgk" report "$work/split.json" --markdown "$work/split.md" --html "$work/split.html"
cat "$work/split.txt"
python3 - "$work" <<'PY'
import json, re, sys
work = sys.argv[1]
doc = json.load(open(f"{work}/split.json"))
split, single = doc["measurements"]
assert split["variant"] == "longrow_split", split
ids = [p["id"] for p in split["passes"]]
assert ids == ["block_stats", "row_stats", "normalize"], ids
for p in split["passes"]:
    assert p["gpuUsMedian"] >= 0 and "skipped" not in p, p
assert abs(sum(p["gpuUsMedian"] for p in split["passes"]) - split["gpuUsMedian"]) <= 1e-9 * split["gpuUsMedian"], split
assert [p["id"] for p in single["passes"]] == ["main"], single
assert single["passes"][0]["gpuUsMedian"] == single["gpuUsMedian"], single

def pass_lines(path, row):
    """The indented lines right under the row of `row` (a variant id) in a bench table."""
    lines = open(path).read().splitlines()
    at = next(i for i, l in enumerate(lines) if re.match(r"\S+\s+" + re.escape(row) + r"\s", l))
    out = []
    for l in lines[at + 1:]:
        if not l.startswith("    "):
            break
        out.append(l.split())
    return out

got = pass_lines(f"{work}/split.txt", "longrow_split")
assert [l[0] for l in got] == ids, got
for l in got:
    assert l[2] == "us" and l[3].endswith("%"), l
assert abs(sum(float(l[3][:-1]) for l in got) - 100) < 0.5, got
got = pass_lines(f"{work}/single.txt", single["variant"])
assert got == [["main", got[0][1], "us", "100.0%"]], got
assert not any(l.startswith("    ") for l in open(f"{work}/plain.txt")), "no pass lines without --passes"
md = open(f"{work}/split.md").read()
assert "| cold ms | passes |" in md and "block_stats " in md and "normalize " in md, md
assert 'class="meta passes">longrow_split passes: block_stats' in open(f"{work}/split.html").read()
print("cli bench passes: OK")
PY
