#!/usr/bin/env bash
# hostile_input.sh WGK PACKAGES PROFILE INPUTS: issue 15's bad inputs through the CLI. Each one must
# be refused with its documented exit code and a message naming the fault, never a crash, a hang,
# a file outside --output-dir or exit 70 ("internal"). None of them reaches the GPU.
set -u
wgk=$1 packages=$2 profile=$3 inputs=$4
expect="bash $(dirname "$0")/expect.sh"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
failed=0
check() { "$@" >"$tmp/log" 2>&1 || { cat "$tmp/log"; failed=1; }; grep -h '^PASS' "$tmp/log"; }
copy() {  # copy PACKAGE_ID -> the copy's folder
  local pkg=$tmp/$2/webgpu-kernels/$1
  mkdir -p "$pkg" && cp -r "$packages/webgpu-kernels/$1/build" "$pkg/" && chmod -R u+w "$pkg" && echo "$pkg"
}
rms="$packages/webgpu-kernels/ai.onnx.RMSNormalization"
rms_plan=("$wgk" plan "$rms" --input x=float32:2x16x2048 --input scale=float32:16x2048 --device-profile "$profile")
rms_axis1=("${rms_plan[@]}" --attr axis=1)
gelu_run=("$wgk" run webgpu-kernels/com.microsoft.FastGelu --offline -i X="$inputs/gelu_x.npy")

# A folder package is checked against its metadata.json on every load; authors opt out.
pkg=$(copy com.microsoft.FastGelu tampered)
echo "// tampered" >>"$pkg/build/webgpu/elementwise-bias-gelu.wgsl.jinja"
plan_pkg=(plan "$pkg" --input X=float32:2x4 --device-profile "$profile")
check $expect 6 "mismatch: elementwise-bias-gelu.wgsl.jinja.*|does not match its metadata.json" -- "$wgk" "${plan_pkg[@]}"
check $expect 0 "variant [a-z0-9_]+ \\(selected by" -- "$wgk" "${plan_pkg[@]}" --no-verify
check $expect 0 "variant [a-z0-9_]+ \\(selected by" -- env WGK_NO_VERIFY=1 "$wgk" "${plan_pkg[@]}"
"$wgk" digest "$pkg" --write >/dev/null
check $expect 0 "variant [a-z0-9_]+ \\(selected by" -- "$wgk" "${plan_pkg[@]}"

# An output named like a path is refused when the manifest loads (and could not escape anyway).
pkg=$(copy com.microsoft.FastGelu escape)
python3 - "$pkg/build/webgpu/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["args"] = {("../../ESCAPED" if k == "Y" else k): v for k, v in m["args"].items()}
json.dump(m, open(sys.argv[1], "w"))
PY
check $expect 4 "'\.\./\.\./ESCAPED' is not an identifier" -- "$wgk" plan "$pkg" --no-verify --input X=float32:2x4 \
  --device-profile "$profile"

# digest --write never follows a symbolic link out of the package.
pkg=$(copy com.microsoft.FastGelu symlink)
echo secret >"$tmp/secret"
ln -s "$tmp/secret" "$pkg/build/webgpu/outside.txt"
check $expect 6 "refusing to digest .*outside.txt: it is a symbolic link" -- "$wgk" digest "$pkg" --write

# Integers are exact: 2^64 - 2 is not -2. Deep JSON in --attr is a parse error, not a stack overflow.
check $expect 4 "integer 18446744073709551614 does not fit in 64 signed bits" -- "${rms_plan[@]}" \
  --attr axis=18446744073709551614
check $expect 2 "integer 18446744073709551614 does not fit in 64 signed bits" -- "${gelu_run[@]}" -o "$tmp/out" \
  --attr axis=18446744073709551614
deep=$(python3 -c 'print("[" * 50000 + "]" * 50000)')
check $expect 4 "JSON nested deeper than 64 levels" -- "${rms_plan[@]}" --attr "axis=$deep"
# epsilon below its min 0 and an f32 uniform beyond f32's range are refused, not NaN or +inf.
check $expect 4 "attribute epsilon = -1 is below attributeConstraints.epsilon.min" -- "${rms_axis1[@]}" --attr epsilon=-1
scale=$(dirname "$0")/../../data/spec21/wgk.test.Scale
check $expect 4 "Params.scale \(f32\) = 1e\+300 is outside the f32 range" -- "$wgk" plan "$scale" \
  --input x=float32:4 --input acc=float32:4 --arg scale=1e300 --device-profile "$profile"

# File errors come first, with exit 5: before the runtime opens, the kernel runs or a file is written.
touch "$tmp/a-file"
check $expect 5 "output folder '.*a-file' exists and is not a folder" -- "${gelu_run[@]}" -o "$tmp/a-file"
check $expect 5 "'.*a-file' is a file" -- "${gelu_run[@]}" -o "$tmp/a-file/sub"
check $expect 5 "'/dev/zero' is not a regular file" -- "$wgk" run webgpu-kernels/com.microsoft.FastGelu \
  --offline -i X=/dev/zero -o "$tmp/out"
[[ ! -e $tmp/out ]] || { echo "FAIL: the output folder was created for a run that could not read its input"; failed=1; }
exit $failed
