#!/usr/bin/env bash
# Installs everything wgk needs on Debian 12 (as root): Debian packages, lavapipe (Mesa 25 from
# bookworm-backports) and Dawn + webgpu.h from npm, verified against pinned npm integrity.
# Idempotent: a second run installs nothing and says so. Prints what it installs.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'setup: %s\n' "$*" >&2; }

# ---- Debian packages --------------------------------------------------------------------
APT_PKGS=(cmake g++ make pkg-config python3 ca-certificates
  nlohmann-json3-dev libcli11-dev libfmt-dev libssl-dev libgtest-dev libcurl4-openssl-dev)
BPO_PKGS=(mesa-vulkan-drivers libvulkan1)
MESA_VERSION_PREFIX=25.

missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js + npm: any install will do (this image ships NodeSource's, whose nodejs conflicts with
# Debian's npm package), so only install Debian's when the commands are missing.
command -v npm >/dev/null 2>&1 && command -v node >/dev/null 2>&1 || missing+=(nodejs npm)
mesa_ver=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
need_bpo=0
[[ "$mesa_ver" == ${MESA_VERSION_PREFIX}* ]] || need_bpo=1
dpkg-query -W -f='${Status}' libvulkan1 2>/dev/null | grep -q "install ok installed" || need_bpo=1

if ((${#missing[@]} || need_bpo)); then
  if [[ $(id -u) != 0 ]]; then say "needs root to install: ${missing[*]} ${BPO_PKGS[*]}"; exit 1; fi
  export DEBIAN_FRONTEND=noninteractive
  if ((need_bpo)) && [[ ! -f /etc/apt/sources.list.d/bookworm-backports.sources ]]; then
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
else
  say "Debian packages already installed"
fi

# ---- Dawn and webgpu.h from npm -----------------------------------------------------------
"$here/scripts/fetch_webgpu.sh"
