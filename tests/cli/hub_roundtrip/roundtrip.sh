#!/usr/bin/env bash
# publish-layout -> loopback HTTP server -> wgk download -> wgk cache verify -> wgk run (from the
# cache, offline) -> the output matches the embedded package's run on the same input.
set -euo pipefail
wgk=$1; src=$2; work=$3
rm -rf "$work" && mkdir -p "$work"
pkg=webgpu-kernels/com.microsoft.FastGelu
fail() { echo "hub_roundtrip: $*" >&2; exit 1; }

"$wgk" publish-layout "$src/packages/$pkg" --out "$work/site" >"$work/publish.log"
[[ -f "$work/site/$pkg/resolve/v1/build/webgpu/manifest.json" ]] || fail "publish-layout wrote no v1 branch"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work/site" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/')" 2>/dev/null && break
  sleep 0.1
done

export WGK_CACHE=$work/cache WGK_PACKAGES=$work/no-embedded
export WGK_TRUSTED_ENDPOINT=http://127.0.0.1:$port  # the loopback Hub stands in for the trusted one
"$wgk" download "$pkg" --version 1 --endpoint "http://127.0.0.1:$port" | tee "$work/download.log"
grep -q "\[network\]" "$work/download.log" || fail "the package did not come from the network"
"$wgk" cache verify >"$work/verify.log" || fail "cache verify failed: $(cat "$work/verify.log")"
kill $server; wait $server 2>/dev/null || true

# A 1x8 float32 input written by hand (.npy v1.0), then run from the cache with no network.
python3 - "$work/x.npy" <<'PY'
import struct, sys
vals = [0.0, 1.0, -1.0, 2.0, -3.0, 0.5, 20.0, -20.0]
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 8), }"
header += " " * (63 - (10 + len(header)) % 64) + "\n"
with open(sys.argv[1], "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack("<8f", *vals))
PY
"$wgk" run "$pkg" --offline -i X="$work/x.npy" -o "$work/out-cache" --json >"$work/run.json"
python3 - "$work/run.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
assert j["origin"] == "cache", j
PY
WGK_PACKAGES=$src/packages "$wgk" run "$pkg" --offline -i X="$work/x.npy" -o "$work/out-embedded" >/dev/null
cmp "$work/out-cache/Y.npy" "$work/out-embedded/Y.npy" || fail "cached and embedded packages disagree"
echo "hub_roundtrip: ok (published, served, downloaded, verified, ran from the cache)"
