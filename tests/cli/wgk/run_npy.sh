#!/usr/bin/env bash
# run_npy.sh WGK INPUTS: `wgk run` on .npy files. FastGelu through the planner's variant and forced
# to the scalar one (the outputs must agree, and match known values), and RMSNormalization with an
# attribute, checked against its closed form.
set -eu
wgk=$1 in=$2
here=$(dirname "$0")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gelu=webgpu-kernels/com.microsoft.FastGelu
"$wgk" run $gelu --input X="$in/gelu_x.npy" --output-dir "$out/auto" --json >"$out/auto.json"
grep -q '"variant": "vec4_no_bias"' "$out/auto.json" || { cat "$out/auto.json"; echo "FAIL: expected vec4_no_bias"; exit 1; }
"$wgk" run $gelu --input X="$in/gelu_x.npy" --variant scalar_no_bias --output-dir "$out/scalar"
"$wgk" run webgpu-kernels/ai.onnx.RMSNormalization --input x="$in/rms_x.npy" --input scale="$in/rms_scale.npy" \
  --attr epsilon=0 --output-dir "$out/rms"
python3 - "$here/npy.py" "$out" <<'PY'
import math, subprocess, sys
npy, out = sys.argv[1], sys.argv[2]
def read(path):
    lines = subprocess.run(['python3', npy, 'read', path], check=True, capture_output=True, text=True).stdout.split()
    return lines[0], lines[1], [float(v) for v in lines[2:]]
def gelu(x):
    return 0.5 * x * (1 + math.tanh(0.7978845608 * x + 0.0356774081 * x ** 3))
xs = [0, 1, -1, 20, -20, 0.5, 2, -3]
dt, shape, auto = read(out + '/auto/Y.npy')
_, _, scalar = read(out + '/scalar/Y.npy')
assert (dt, shape) == ('f4', '2,4'), (dt, shape)
assert auto[0] == 0.0 and auto[3] == 20.0, auto
for x, a, s in zip(xs, auto, scalar):
    want = gelu(x)
    assert abs(a - want) <= 1e-7 + 1e-5 * abs(want), ('vec4', x, a, want)
    assert abs(s - a) <= 1e-7 + 1e-5 * abs(a), ('scalar vs vec4', x, s, a)
_, shape, y = read(out + '/rms/y.npy')
rms = math.sqrt((9 + 16) / 2)
want = [3 / rms * 1, 4 / rms * 2]
assert shape == '1,2' and all(abs(a - b) <= 2e-6 * abs(b) for a, b in zip(y, want)), (y, want)
print('PASS: FastGelu', auto, 'RMSNormalization', y)
PY
