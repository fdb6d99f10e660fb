#!/usr/bin/env bash
# Installs everything wgk needs on Debian 12 (as root): Debian packages (the C++ build, and the
# Python package's: pybind11, numpy, pytest, torch, scikit-build-core from bookworm-backports),
# lavapipe (Mesa 25 from bookworm-backports) and Dawn + webgpu.h from npm, verified against pinned
# npm integrity.
# Idempotent: a second run installs nothing and says so. Prints what it installs.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'setup: %s\n' "$*" >&2; }

# ---- Debian packages --------------------------------------------------------------------
APT_PKGS=(cmake g++ make pkg-config python3 ca-certificates
  nlohmann-json3-dev libcli11-dev libfmt-dev libssl-dev libgtest-dev libcurl4-openssl-dev)
# The hardening runs (scripts/ci_hardening.sh, scripts/fuzz.sh): libFuzzer comes with Debian's
# clang; the ASan/UBSan/TSan runtimes of GCC come with g++. WGK_HARDENING=0 (no hardening runs) leaves clang out.
if [[ ${WGK_HARDENING:-fuzz} != 0 ]]; then APT_PKGS+=(clang-14 libclang-rt-14-dev); fi
# The Python package (python/, docs/python.md) and its tests: Debian's python3 and its packages
# only (no PyPI). scikit-build-core comes from bookworm-backports (Debian 12 has none).
PY_PKGS=(python3-dev python3-pip pybind11-dev python3-numpy python3-pytest python3-torch)
PY_BPO_PKGS=(python3-scikit-build-core)
# The series these were tested with (Debian 12 + backports, 2026-12): a newer one is reported.
PY_TESTED=("pybind11-dev 2.10." "python3-numpy 1:1.24." "python3-pytest 7.2." "python3-torch 1.13."
  "python3-scikit-build-core 0.11.")
BPO_PKGS=(mesa-vulkan-drivers libvulkan1)
MESA_VERSION_PREFIX=25.

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${APT_PKGS[@]}" "${PY_PKGS[@]}"; do
  installed "$p" || missing+=("$p")
done
missing_py_bpo=()
for p in "${PY_BPO_PKGS[@]}"; do
  installed "$p" || missing_py_bpo+=("$p")
done
# Node.js + npm: any install will do (this image ships NodeSource's, whose nodejs conflicts with
# Debian's npm package), so only install Debian's when the commands are missing.
command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1 || missing+=(nodejs npm)
mesa_ver=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
need_bpo=0
[[ "$mesa_ver" == ${MESA_VERSION_PREFIX}* ]] || need_bpo=1
installed libvulkan1 || need_bpo=1
((${#missing_py_bpo[@]})) && need_bpo_source=1 || need_bpo_source=$need_bpo

if ((${#missing[@]} || need_bpo || ${#missing_py_bpo[@]})); then
  if [[ $(id -u) != 0 ]]; then
    say "needs root to install: ${missing[*]} ${missing_py_bpo[*]} $( ((need_bpo)) && echo "${BPO_PKGS[*]}")"
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ((need_bpo_source)) && [[ ! -f /etc/apt/sources.list.d/bookworm-backports.sources ]]; then
    uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
    [[ -n "$uri" ]] || uri=$(awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
    [[ -n "$uri" ]] || { say "no Debian mirror configured in apt sources"; exit 1; }
    say "adding apt source bookworm-backports ($uri)"
    printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$uri" > /etc/apt/sources.list.d/bookworm-backports.sources
  fi
  say "apt-get update"
  apt-get update -qq
  if ((${#missing[@]})); then
    say "installing Debian packages: ${missing[*]}"
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if ((need_bpo)); then
    say "installing from bookworm-backports: ${BPO_PKGS[*]} (Mesa 25 lavapipe)"
    apt-get install -y -qq --no-install-recommends -t bookworm-backports "${BPO_PKGS[@]}" >/dev/null
  fi
  if ((${#missing_py_bpo[@]})); then
    say "installing from bookworm-backports: ${missing_py_bpo[*]}"
    apt-get install -y -qq --no-install-recommends -t bookworm-backports "${missing_py_bpo[@]}" >/dev/null
  fi
else
  say "Debian packages already installed"
fi
for entry in "${PY_TESTED[@]}"; do
  read -r p prefix <<<"$entry"
  v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
  [[ "$v" == "$prefix"* ]] || say "note: $p is $v; wgk's Python package was tested with ${prefix}x"
done

# ---- Dawn and webgpu.h from npm -----------------------------------------------------------
"$here/scripts/fetch_webgpu.sh"
