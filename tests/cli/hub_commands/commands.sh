#!/usr/bin/env bash
# Every command that takes a package, given a repo id served by a loopback Hub (hub_server.py),
# and `wgk cache` (sizes, prune keeping refs and lock files, clean of a missing cache, --json).
# With --gpu also test, bench, run and tune (smoke cases on the local adapter), and `wgk test` of
# the three seed packages converted to spec 2.1 (issue 16).
set -euo pipefail
wgk=$1; src=$2; work=$3; gpu=${4:-}
rm -rf "$work" && mkdir -p "$work"
pkg=webgpu-kernels/com.microsoft.FastGelu
fail() { echo "hub_commands: $*" >&2; exit 1; }
expect() {  # expect REGEX CMD...: the command succeeds and its output matches
  local re=$1; shift
  local out
  out=$("$@" 2>&1) || fail "failed ($?): $* -> $out"
  grep -Eq -- "$re" <<<"$out" || fail "output of '$*' does not match /$re/: $out"
}

for id in com.microsoft.FastGelu ai.onnx.RMSNormalization com.microsoft.GemmaRotaryEmbedding; do
  "$wgk" publish-layout "$src/packages/webgpu-kernels/$id" --out "$work/site" >/dev/null
done
python3 "$src/tests/unit/hub/hub_server.py" "$work/site" "$work/server.log" >"$work/port" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do [[ -s $work/port ]] && break; sleep 0.05; done
port=$(cat "$work/port")
export WGK_CACHE=$work/cache WGK_PACKAGES=$work/no-embedded WGK_ENDPOINT=http://127.0.0.1:$port/ok
export WGK_TRUSTED_ENDPOINT=$WGK_ENDPOINT  # the loopback Hub stands in for the trusted one
unset WGK_OFFLINE WGK_REFS_TTL
profile=$src/tests/data/profiles/lavapipe.json

expect '\[network\]' "$wgk" download "$pkg" --with-tests
expect 'com\.microsoft\.FastGelu +\(cache' "$wgk" info "$pkg"
expect 'variant' "$wgk" plan "$pkg" -i X=float32:2x8 --device-profile "$profile"
expect '^# ' "$wgk" card "$pkg"
expect '^ok: ' "$wgk" digest "$pkg"
if "$wgk" digest "$pkg" --write >"$work/digest-write.log" 2>&1; then fail "digest --write rewrote a cached package"; fi
grep -q "verified content" "$work/digest-write.log" || fail "digest --write: $(cat "$work/digest-write.log")"
expect 'webgpu-kernels/com\.microsoft\.FastGelu v1 -> ' "$wgk" publish-layout "$pkg" --out "$work/site2"
[[ -f $work/site2/$pkg/resolve/v1/build/webgpu/test.json ]] || fail "publish-layout of a repo id lacks test.json"
expect 'manifest 2\.1' "$wgk" convert "$pkg" --to 2.1 --out "$work/conv"
expect 'manifest dialect: 2\.1' "$wgk" info "$work/conv/com.microsoft.FastGelu"
expect '^ok: ' "$wgk" digest "$work/conv/com.microsoft.FastGelu" --org webgpu-kernels
expect 'manifest seeds' "$wgk" convert "$work/conv/com.microsoft.FastGelu" --to seeds --out "$work/back"
# A construct the seeds cannot say: named, exit 4.
set +e
"$wgk" convert "$src/tests/data/spec21/wgk.test.Scale" --to seeds --out "$work/scale" >"$work/scale.log" 2>&1
rc=$?
set -e
[[ $rc == 4 ]] && grep -q "scalar arg 'scale'" "$work/scale.log" || fail "convert --to seeds of scalar args: rc $rc $(cat "$work/scale.log")"
# --refs-ttl is a hub option of every loading command.
expect 'com\.microsoft\.FastGelu' "$wgk" info "$pkg" --refs-ttl 0

# wgk cache: a second commit (same bytes under a pinned name), sizes, prune, lock, json.
other=0123456789abcdef0123456789abcdef01234567
"$wgk" publish-layout "$src/packages/$pkg" --out "$work/site" --revision "$other" --version 9 >/dev/null
expect "\[network\]" "$wgk" download "$pkg" --revision "$other"
"$wgk" cache list --json >"$work/list.json"
python3 - "$work/list.json" "$other" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r = j["repos"]["webgpu-kernels/com.microsoft.FastGelu"]
assert r["commits"] == 2 and r["bytes"] > 0, r
assert j["bytes"] == sum(e["bytes"] for e in j["entries"]), j
assert any(e["commit"] == sys.argv[2] and e["refs"] == [] for e in j["entries"]), j
PY
expect 'repo webgpu-kernels/com\.microsoft\.FastGelu: 2 commit\(s\)' "$wgk" cache list
"$wgk" lock "$pkg" --revision "$other" >"$work/wgk.lock"
"$wgk" cache prune --lock "$work/wgk.lock" --json >"$work/prune1.json"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['removed'] == [], j" "$work/prune1.json"
"$wgk" cache prune --json >"$work/prune2.json"
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert [e['commit'] for e in j['removed']] == [sys.argv[2]], j" \
  "$work/prune2.json" "$other"
expect '"ok": 1' "$wgk" cache verify --json
expect '"existed": false' "$wgk" cache clean --cache-dir "$work/no-such-cache" --json
expect 'nothing to clean' "$wgk" cache clean --cache-dir "$work/no-such-cache"
[[ ! -e $work/no-such-cache ]] || fail "cache clean created a missing cache"

if [[ $gpu == --gpu ]]; then
  expect '[1-9][0-9]* passed, 0 failed' "$wgk" test "$pkg" --case smoke_f32_vec4_bias
  expect '.' "$wgk" bench "$pkg" --case smoke_3x7_f32 --repeat 2 --warmup 1 --no-cold --overhead-calls 0
  expect '.' "$wgk" tune "$pkg" --case smoke_3x7_f32 --repeat 2 --warmup 1 -o "$work/tuning.json"
  python3 "$src/tests/cli/wgk/npy.py" write "$work/x.npy" f4 1,8 0,1,-1,2,-3,0.5,20,-20
  expect '"origin": "cache"' "$wgk" run "$pkg" -i X="$work/x.npy" -o "$work/run" --json
  # The seed packages converted to spec 2.1 pass their smoke tests.
  for id in com.microsoft.FastGelu ai.onnx.RMSNormalization com.microsoft.GemmaRotaryEmbedding; do
    "$wgk" convert "$src/packages/webgpu-kernels/$id" --to 2.1 --out "$work/conv21" >/dev/null
    c=$(python3 -c "import json,sys; print([c['name'] for c in json.load(open(sys.argv[1]))['cases'] if c['name'].startswith('smoke')][0])" \
      "$work/conv21/$id/build/webgpu/test.json")
    expect '[1-9][0-9]* passed, 0 failed' "$wgk" test "$work/conv21/$id" --case "$c"
  done
fi
echo "hub_commands: ok"
