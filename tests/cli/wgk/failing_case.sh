#!/usr/bin/env bash
# failing_case.sh WGK PACKAGES: a copy of FastGelu whose test.json has one right and one wrong
# expected output (metadata regenerated with `wgk digest --write`); `wgk test FOLDER` must exit 1
# and end with "1 passed, 1 failed".
set -eu
wgk=$1 src=$2/webgpu-kernels/com.microsoft.FastGelu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pkg=$tmp/webgpu-kernels/com.microsoft.FastGelu
mkdir -p "$pkg"
cp -r "$src/build" "$pkg/"
chmod -R u+w "$pkg"
cat >"$pkg/build/webgpu/test.json" <<'JSON'
{
  "cases": [
    {"name": "right", "inputs": {"X": {"dtype": "float32", "shape": [2], "data": {"kind": "values", "values": [0, 20]}}},
     "outputs": {"Y": {"dtype": "float32", "shape": [2], "tolerance": {"abs": 1e-6},
                       "data": {"kind": "values", "values": [0, 20]}}}},
    {"name": "wrong", "inputs": {"X": {"dtype": "float32", "shape": [2], "data": {"kind": "values", "values": [1, 2]}}},
     "outputs": {"Y": {"dtype": "float32", "shape": [2], "tolerance": {"abs": 1e-6},
                       "data": {"kind": "values", "values": [0, 0]}}}}
  ]
}
JSON
"$wgk" digest "$pkg" --write
exec bash "$(dirname "$0")/expect.sh" --last '^1 passed, 1 failed$' 1 'FAIL +wrong' -- "$wgk" test "$pkg"
