#!/usr/bin/env bash
# card_drift.sh WGK PACKAGES: `wgk card --check` fails on an edited or missing README.md and passes
# again after --write (on a copy of GemmaRotaryEmbedding).
set -eu
wgk=$1 src=$2/webgpu-kernels/com.microsoft.GemmaRotaryEmbedding
expect="bash $(dirname "$0")/expect.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pkg=$tmp/webgpu-kernels/com.microsoft.GemmaRotaryEmbedding
mkdir -p "$pkg"
cp -r "$src"/. "$pkg/"
chmod -R u+w "$pkg"
rm -f "$pkg/README.md"
$expect 1 '^MISSING' -- "$wgk" card "$pkg" --check
$expect 0 '^wrote ' -- "$wgk" card "$pkg" --write
$expect 0 '^OK ' -- "$wgk" card "$pkg" --check
sed -i 's/^## Description/## Describe/' "$pkg/README.md"
$expect 1 'DIFFERS.*line [0-9]+' -- "$wgk" card "$pkg" --check
# A tolerance note for a dtype test.json never checks is refused (card.json must match the tests).
python3 - "$pkg/card.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["tolerances"]["float32"] = "no float32 outputs exist"
json.dump(j, open(sys.argv[1], "w"))
PY
$expect 4 'explains float32 tolerances' -- "$wgk" card "$pkg"
