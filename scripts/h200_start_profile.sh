#!/usr/bin/env bash
# Where a fresh process's time goes on the H200 (issue 25 item 5), by subtraction of commands that
# stop at successive stages, each timed in fresh processes (spawn to exit, 5 each, median):
#   wgk --version                     the executable and its shared libraries, no Dawn, no package
#   wgk info FastGelu --offline       + the embedded package's manifest and templates, no GPU
#   wgk devices                       + dawn.node, the Vulkan instance and the adapter
#   wgk run FastGelu (cold, warm)     + the device, the pipeline (empty or filled pipeline cache),
#                                       the dispatch and the readback: what `wgk chain` reports
#   vk_start_probe                    Vulkan alone, no Dawn, no wgk (tools/vk_start_probe.c): the
#                                       loader, vkCreateInstance, vkCreateDevice, stage by stage
# The probe is compiled there when cc is found, else taken from out/vk_start_probe (compiled here:
# cc -O2 -o out/vk_start_probe tools/vk_start_probe.c -ldl, with libvulkan-dev; carry it).
# Run THERE from the repository root, after scripts/h200.sh has unpacked .gl (it does on first use):
#   tar -xJf out/h200pack.tar.xz && bash scripts/h200_start_profile.sh
# Prints one line per stage; writes $OUT/start-profile.txt when OUT is set.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/h200.sh" --version >/dev/null 2>&1  # the one-time setup (loader .debs, ldconfig)
stage=${WGK_H200_STAGE:-$root/out/h200}
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -z "${VK_DRIVER_FILES:-}" && -f "$icd" ]] && export VK_DRIVER_FILES=$icd
export WGK_DAWN_NODE=$stage/dawn.node WGK_NAPI_STUBS=$stage/libwgk_napi_stubs.so
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$stage/lib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A 4 x 64 float32 .npy, written without numpy (the machine's python3 may lack it).
python3 - "$tmp" <<'EOF'
import struct, sys
head = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 64), }"
head += " " * (63 - (10 + len(head)) % 64) + "\n"
data = struct.pack("<256f", *[-3 + 6 * i / 255 for i in range(256)])
open(sys.argv[1] + "/x.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode() + data)
EOF
G=webgpu-kernels/com.microsoft.FastGelu
runargs=(run $G --offline --input "X=$tmp/x.npy" --output-dir "$tmp/out")
# ms of one fresh process, spawn to exit.
ms() { local t0 t1; t0=$(date +%s%N); "$@" >/dev/null 2>&1 || echo "exit $? from: $*" >&2; t1=$(date +%s%N); echo $(((t1 - t0) / 100000)); }
median() { sort -n | awk '{a[NR] = $1} END {m = a[int((NR + 1) / 2)]; printf "%d.%d", m / 10, m % 10}'; }
line() {
  local label=$1; shift
  local vals=() i
  for i in 1 2 3 4 5; do vals+=("$(ms "$@")"); done
  printf '%-34s median %7s ms   (%s, in 0.1 ms)\n' "$label" "$(printf '%s\n' "${vals[@]}" | median)" "${vals[*]}"
}
{
  echo "start profile on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
  line "wgk --version" "$stage/wgk" --version
  line "wgk info FastGelu --offline" "$stage/wgk" info $G --offline
  line "wgk devices" "$stage/wgk" devices
  line "wgk run, pipeline cache off" env WGK_NO_PIPELINE_CACHE=1 "$stage/wgk" "${runargs[@]}"
  cold=()
  warm=()
  for i in 1 2 3 4 5; do
    cold+=("$(ms env WGK_CACHE="$tmp/c$i" "$stage/wgk" "${runargs[@]}")")
    warm+=("$(ms env WGK_CACHE="$tmp/c$i" "$stage/wgk" "${runargs[@]}")")
  done
  printf '%-34s median %7s ms   (%s, in 0.1 ms)\n' "wgk run, cold pipeline cache" "$(printf '%s\n' "${cold[@]}" | median)" "${cold[*]}"
  printf '%-34s median %7s ms   (%s, in 0.1 ms)\n' "wgk run, warm pipeline cache" "$(printf '%s\n' "${warm[@]}" | median)" "${warm[*]}"
  probe=$root/out/vk_start_probe
  command -v cc >/dev/null && [[ -f /usr/include/vulkan/vulkan.h ]] &&
    cc -O2 -o "$tmp/vk_start_probe" "$root/tools/vk_start_probe.c" -ldl && probe=$tmp/vk_start_probe
  if [[ -x $probe ]]; then
    line "Vulkan alone (vk_start_probe)" "$probe"
    for i in 1 2 3; do "$probe"; done
  else
    echo "vk_start_probe: not built (no cc with vulkan.h there, no out/vk_start_probe)"
  fi
} | tee "${OUT:-$tmp}/start-profile.txt"
