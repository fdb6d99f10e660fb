#!/usr/bin/env bash
# Runs wgk on the H200 device machine (no network there). Run it THERE from the repository root:
#   bash scripts/h200.sh devices --json          # any wgk command line
#   bash scripts/h200.sh --tests                 # every staged GPU test binary, then `devices`
# It needs, carried with the working tree: .gl/ (scripts/fetch_h200_debs.sh) and out/h200/
# (scripts/build_h200.sh). Steps: unpack the Vulkan loader and libglvnd .debs into /, ldconfig,
# point Vulkan at NVIDIA's ICD, point wgk at the staged dawn.node, run. Output also goes to
# $OUT/h200.log when $OUT is set (the device tool brings $OUT back). docs/h200.md has the recipe.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
stage=${WGK_H200_STAGE:-$root/out/h200}
say() { printf 'h200: %s\n' "$*" >&2; }
log=/dev/null
[[ -n "${OUT:-}" && -d "${OUT:-}" ]] && log=$OUT/h200.log

chmod +x "$stage/wgk" "$stage"/tests/* 2>/dev/null
[[ -x "$stage/wgk" ]] || { say "missing $stage/wgk: run scripts/build_h200.sh here first and carry out/h200"; exit 3; }
if ! ldconfig -p | grep -q 'libvulkan.so.1'; then
  debs=("$root"/.gl/*.deb)
  [[ -e "${debs[0]}" ]] || { say "no Vulkan loader and no .gl/*.deb: run scripts/fetch_h200_debs.sh here and carry .gl"; exit 3; }
  for f in "${debs[@]}"; do dpkg -x "$f" /; done
  ldconfig
  say "unpacked ${#debs[@]} .debs from .gl/ (Vulkan loader, libglvnd)"
fi
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
if [[ -z "${VK_DRIVER_FILES:-}" && -f "$icd" ]]; then export VK_DRIVER_FILES=$icd; fi
egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
if [[ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" && -f "$egl" ]]; then export __EGL_VENDOR_LIBRARY_FILENAMES=$egl; fi
export WGK_DAWN_NODE=${WGK_DAWN_NODE:-$stage/dawn.node}
export WGK_NAPI_STUBS=${WGK_NAPI_STUBS:-$stage/libwgk_napi_stubs.so}
# Libraries staged from the build machine, only for what this image lacks (appended, not preferred).
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$stage/lib
# Test binaries carry compiled-in source paths (packages, seeds): make the build machine's
# /work/main resolve to this copy when it does not exist here.
if [[ ! -e /work/main && -w / ]]; then mkdir -p /work && ln -s "$root" /work/main; fi
{
  say "VK_DRIVER_FILES=${VK_DRIVER_FILES:-} WGK_DAWN_NODE=$WGK_DAWN_NODE"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null || true
  if missing=$(ldd "$stage/wgk" "$WGK_DAWN_NODE" 2>&1 | grep 'not found'); then say "missing libraries: $missing"; fi
} 2>&1 | tee -a "$log" >&2

rc=0
if [[ "${1:-}" == "--tests" ]]; then
  shift
  for t in "$stage"/tests/*; do
    [[ -x "$t" ]] || continue
    say "== $(basename "$t")"
    "$t" "$@" 2>&1 | tee -a "$log" || rc=1
  done
  say "== wgk devices --self-check"
  "$stage/wgk" devices --self-check 2>&1 | tee -a "$log"
  [[ ${PIPESTATUS[0]} == 0 ]] || rc=1
else
  # stdout alone (e.g. the JSON of `devices --json`) also goes to $OUT/wgk.stdout; Dawn's warnings
  # stay on stderr.
  out=/dev/null
  [[ "$log" != /dev/null ]] && out=$OUT/wgk.stdout
  "$stage/wgk" "$@" | tee "$out"
  rc=${PIPESTATUS[0]}
fi
say "exit $rc"
exit "$rc"
