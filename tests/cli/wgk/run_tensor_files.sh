#!/usr/bin/env bash
# run_tensor_files.sh WGK INPUTS: `wgk run` on .safetensors inputs (FILE:TENSOR, and by input name),
# safetensors output, float64 .npy refused without --cast and accepted with --cast float32, and an
# output folder that cannot be created (a file error, exit 5). FastGelu of known values.
set -eu
wgk=$1 in=$2
here=$(dirname "$0")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gelu=webgpu-kernels/com.microsoft.FastGelu
xs=0,1,-1,20,-20,0.5,2,-3
python3 - "$out" <<'PY'
import json, struct, sys
out = sys.argv[1]
def safetensors(path, tensors):
    header, data = {}, b''
    for name, (dt, shape, fmt, values) in tensors.items():
        raw = struct.pack('<%d%s' % (len(values), fmt), *values)
        header[name] = {'dtype': dt, 'shape': shape, 'data_offsets': [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header).encode()
    text += b' ' * ((8 - len(text) % 8) % 8)
    open(path, 'wb').write(struct.pack('<Q', len(text)) + text + data)
xs = [0, 1, -1, 20, -20, 0.5, 2, -3]
safetensors(out + '/in.safetensors', {'hidden': ('F32', [2, 4], 'f', xs), 'other': ('F32', [1], 'f', [0])})
safetensors(out + '/x.safetensors', {'X': ('F64', [2, 4], 'd', xs), 'junk': ('F32', [1], 'f', [0])})
PY
python3 "$here/npy.py" write "$out/x64.npy" f8 2,4 $xs
fail() { echo "FAIL: $*"; exit 1; }
# FILE.safetensors:TENSOR, written back as one safetensors file.
"$wgk" run $gelu --input X="$out/in.safetensors:hidden" --output-dir "$out/a" --output-format safetensors --json \
  >"$out/a.json"
grep -q 'outputs.safetensors' "$out/a.json" || fail "no outputs.safetensors in $(cat "$out/a.json")"
# float64: refused naming --cast, then cast (npy and safetensors, the tensor found by the input's name).
set +e
msg=$("$wgk" run $gelu --input X="$out/x64.npy" --output-dir "$out/b" 2>&1); rc=$?
set -e
[[ $rc == 2 ]] && grep -q -- "--cast float32" <<<"$msg" || fail "float64 without --cast: rc $rc: $msg"
"$wgk" run $gelu --input X="$out/x64.npy" --cast float32 --output-dir "$out/b"
"$wgk" run $gelu --input X="$out/x.safetensors" --cast float32 --output-dir "$out/c"
# A missing tensor is named with the ones the file has.
set +e
msg=$("$wgk" run $gelu --input X="$out/in.safetensors:nope" --output-dir "$out/d" 2>&1); rc=$?
set -e
[[ $rc == 4 ]] && grep -q "has no tensor 'nope' (it has: hidden, other)" <<<"$msg" || fail "missing tensor: rc $rc: $msg"
# An output folder under a file cannot be created: exit 5 (file error), not 70.
set +e
msg=$("$wgk" run $gelu --input X="$out/x64.npy" --cast float32 --output-dir "$out/x64.npy/sub" 2>&1); rc=$?
set -e
[[ $rc == 5 ]] && grep -q "cannot create output folder" <<<"$msg" || fail "uncreatable folder: rc $rc: $msg"
python3 - "$here/npy.py" "$out" <<'PY'
import json, math, struct, subprocess, sys
npy, out = sys.argv[1], sys.argv[2]
raw = open(out + '/a/outputs.safetensors', 'rb').read()
n = struct.unpack('<Q', raw[:8])[0]
header = json.loads(raw[8:8 + n])
y = header['Y']
assert y['dtype'] == 'F32' and y['shape'] == [2, 4], y
b, e = y['data_offsets']
a = struct.unpack('<8f', raw[8 + n + b:8 + n + e])
lines = subprocess.run(['python3', npy, 'read', out + '/b/Y.npy'], check=True, capture_output=True, text=True).stdout.split()
assert lines[0] == 'f4', lines[0]
cast = [float(v) for v in lines[2:]]
lines = subprocess.run(['python3', npy, 'read', out + '/c/Y.npy'], check=True, capture_output=True, text=True).stdout.split()
st = [float(v) for v in lines[2:]]
for p, q, r in zip(a, cast, st):
    assert abs(p - q) < 1e-6 and abs(p - r) < 1e-6, (a, cast, st)
assert a[0] == 0.0 and a[3] == 20.0, a
print("run tensor files: OK")
PY
