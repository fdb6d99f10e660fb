#!/usr/bin/env bash
# Downloads, HERE (a machine with apt and network), the Vulkan loader and libglvnd .debs that the
# bare H200 machine lacks into .gl/ at the repository root (ignored by git). NVIDIA's Vulkan driver
# lives in libGLX_nvidia.so.0, so libglvnd comes too. scripts/h200.sh unpacks them there.
# Idempotent: packages already in .gl/ are not fetched again.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'fetch_h200_debs: %s\n' "$*" >&2; }
PKGS=(libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
mkdir -p "$here/.gl" /tmp/amd64/partial
grep -qx '/.gl/' "$here/.git/info/exclude" 2>/dev/null || echo /.gl/ >>"$here/.git/info/exclude"
missing=()
for p in "${PKGS[@]}"; do
  compgen -G "$here/.gl/${p}_*.deb" >/dev/null || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  say "all ${#PKGS[@]} packages already in .gl/"
  exit 0
fi
o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
say "apt-get update (amd64 lists in /tmp/amd64)"
apt-get "${o[@]}" update -qq
say "downloading ${missing[*]} into .gl/"
(cd "$here/.gl" && apt-get "${o[@]}" download "${missing[@]}")
ls -1 "$here/.gl"
