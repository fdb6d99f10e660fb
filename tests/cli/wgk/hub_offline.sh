#!/usr/bin/env bash
# hub_offline.sh WGK PACKAGES SRC WORK: quiet and honest offline (issue 29 item 1) and trust tied
# to the endpoint (issue 28 item 4), end to end, with no GPU:
#  - an endpoint nothing listens on is announced once per process (two packages in one `wgk lock`),
#    and --quiet / WGK_LOG=error hide it;
#  - a mistyped id with the endpoint unreachable is "unknown package ..." naming the nearest id, exit 4;
#  - webgpu-kernels/... from an endpoint other than the trusted one is refused (exit 6) unless
#    --trust-remote-code or --trusted-endpoint; its cached copy is refused offline too.
set -u
wgk=$1; packages=$2; src=$3; work=$4
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
unset WGK_OFFLINE WGK_REFS_TTL WGK_LOG WGK_TRUSTED_ENDPOINT WGK_ENDPOINT
export WGK_PACKAGES=$packages WGK_CACHE=$work/cache
dead=http://127.0.0.1:9/nothing   # the discard port: nothing listens on loopback
gelu=webgpu-kernels/com.microsoft.FastGelu rms=webgpu-kernels/ai.onnx.RMSNormalization

"$wgk" lock $gelu $rms --endpoint $dead >"$work/lock.json" 2>"$work/lock.err" || fail "lock: $(cat "$work/lock.err")"
n=$(grep -c "could not be reached" "$work/lock.err")
[[ $n == 1 ]] || fail "expected one note for two packages, got $n: $(cat "$work/lock.err")"
grep -q "^wgk: warning: \[hub\] $dead could not be reached" "$work/lock.err" || fail "note: $(cat "$work/lock.err")"
"$wgk" lock $gelu $rms --endpoint $dead --quiet >/dev/null 2>"$work/quiet.err" || fail "lock --quiet"
[[ -s $work/quiet.err ]] && fail "--quiet printed: $(cat "$work/quiet.err")"
WGK_LOG=error "$wgk" info $gelu --endpoint $dead >/dev/null 2>"$work/log-error.err" || fail "info WGK_LOG=error"
[[ -s $work/log-error.err ]] && fail "WGK_LOG=error printed: $(cat "$work/log-error.err")"

"$wgk" info webgpu-kernels/com.microsoft.FastGelo --endpoint $dead >/dev/null 2>"$work/typo.err"
rc=$?
[[ $rc == 4 ]] || fail "a typo with the Hub unreachable exits $rc, not 4: $(cat "$work/typo.err")"
grep -q "unknown package webgpu-kernels/com.microsoft.FastGelo (not embedded or cached; the Hub could not be reached: " \
  "$work/typo.err" || fail "typo: $(cat "$work/typo.err")"
grep -q "nearest known: webgpu-kernels/com.microsoft.FastGelu" "$work/typo.err" || fail "no suggestion: $(cat "$work/typo.err")"

# A loopback Hub that is not the trusted endpoint.
"$wgk" publish-layout "$packages/$gelu" --out "$work/site" >/dev/null || fail "publish-layout"
python3 "$src/tests/unit/hub/hub_server.py" "$work/site" "$work/server.log" >"$work/port" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do [[ -s $work/port ]] && break; sleep 0.05; done
rogue=http://127.0.0.1:$(cat "$work/port")/ok
export WGK_PACKAGES=$work/no-embedded
"$wgk" info $gelu --endpoint "$rogue" >/dev/null 2>"$work/rogue.err"
rc=$?
[[ $rc == 6 ]] || fail "an untrusted endpoint's webgpu-kernels package exits $rc, not 6: $(cat "$work/rogue.err")"
grep -q "not the trusted endpoint https://huggingface.co/kernels" "$work/rogue.err" || fail "$(cat "$work/rogue.err")"
grep -q "manifest.json" "$work/server.log" && fail "code was fetched from an untrusted endpoint"
"$wgk" info $gelu --endpoint "$rogue" --trust-remote-code >/dev/null 2>&1 || fail "--trust-remote-code refused"
"$wgk" info $gelu --offline >/dev/null 2>"$work/offline.err"
rc=$?
[[ $rc == 6 ]] || fail "the cached copy from an untrusted endpoint ran offline (exit $rc)"
grep -q "came from $rogue" "$work/offline.err" || fail "$(cat "$work/offline.err")"
"$wgk" info $gelu --offline --trusted-endpoint "$rogue" >/dev/null 2>&1 || fail "--trusted-endpoint refused"
echo "hub offline and trust: OK"
