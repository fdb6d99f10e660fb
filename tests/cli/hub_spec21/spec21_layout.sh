#!/usr/bin/env bash
# `wgk publish-layout --spec 2.1` of every embedded package: each layout satisfies every rule of
# hub-spec-2.1/README.md (check_layout.py, one named assertion per rule), and the seeds-dialect
# ones were converted (their manifests read as 2.1 and carry no seeds key).
set -euo pipefail
wgk=$1; src=$2; work=$3
rm -rf "$work" && mkdir -p "$work"
here=$(cd "$(dirname "$0")" && pwd)
for id in com.microsoft.FastGelu ai.onnx.RMSNormalization com.microsoft.GemmaRotaryEmbedding ai.onnx.Add; do
  out=$("$wgk" publish-layout "$src/packages/webgpu-kernels/$id" --spec 2.1 --out "$work/site")
  commit=$(echo "$out" | head -1 | awk '{print $4}')
  python3 "$here/check_layout.py" "$work/site" "webgpu-kernels/$id" "$commit" >"$work/$id.log" ||
    { cat "$work/$id.log"; exit 1; }
  grep -c '^ok ' "$work/$id.log" | sed "s/^/$id: rules ok: /"
done
# A layout that breaks a rule is caught, naming it (the checker can fail).
id=com.microsoft.FastGelu
commit=$(ls "$work/site/webgpu-kernels/$id/resolve" | grep -v '^v')
python3 - "$work/site/webgpu-kernels/$id/resolve/$commit/build/webgpu/metadata.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["webgpu"]["manifestSpec"] = "2"; json.dump(m, open(sys.argv[1], "w"))
PY
if python3 "$here/check_layout.py" "$work/site" "webgpu-kernels/$id" "$commit" >"$work/broken.log"; then
  echo "spec21_layout: a broken manifestSpec passed the checker" >&2; exit 1
fi
grep -q 'FAIL metadata.webgpu.manifestSpec is "2.1"' "$work/broken.log" || { cat "$work/broken.log"; exit 1; }
echo "spec21_layout: ok"
