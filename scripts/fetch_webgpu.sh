#!/usr/bin/env bash
# Fetches Dawn (npm webgpu@0.6.2: dist/linux-x64/dawn.node) and the matching C header (npm
# react-native-webgpu@0.10.2: cpp/webgpu/webgpu.h) into third_party/, each tarball checked
# against its pinned npm sha512 integrity before it is unpacked. A tampered or truncated
# tarball is refused and deleted. Idempotent.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dest=${WGK_THIRD_PARTY:-$here/third_party}
say() { printf 'fetch_webgpu: %s\n' "$*" >&2; }

PKGS=(
  "webgpu 0.6.2 sha512-3L4GfmqJLvYUIEWJngEQY+2HQiUlAFkg8+P8NDDj3Xx5hHHIFO/r8JW+ynfqBj7kHN4mbnwO74uB+lrRtLhp4Q=="
  "react-native-webgpu 0.10.2 sha512-lRoBIpo9uXG0rRSGaf9XOY3SynV5YePrsJUlyy3jN5ySHEaVkcQtF6L7zA/Frn22BgWKOZ+Kk5W6No+0Kut6/g=="
)

integrity_of() { printf 'sha512-%s' "$(openssl dgst -sha512 -binary "$1" | base64 -w0)"; }

mkdir -p "$dest/npm"
for entry in "${PKGS[@]}"; do
  read -r name ver want <<<"$entry"
  tgz="$dest/npm/$name-$ver.tgz"
  out="$dest/$name-$ver"
  stamp="$out/.verified"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    say "$name@$ver already verified in $out"
    continue
  fi
  if [[ ! -f "$tgz" ]]; then
    say "downloading $name@$ver from npm"
    (cd "$dest/npm" && npm pack --silent "$name@$ver" >/dev/null)
  fi
  got=$(integrity_of "$tgz")
  if [[ "$got" != "$want" ]]; then
    say "INTEGRITY MISMATCH for $tgz"
    say "  expected $want"
    say "  got      $got"
    rm -f "$tgz"
    exit 3
  fi
  rm -rf "$out" && mkdir -p "$out"
  tar -xzf "$tgz" -C "$out"
  echo "$want" > "$stamp"
  say "$name@$ver verified ($want) and unpacked into $out"
done
for f in "$dest/webgpu-0.6.2/package/dist/linux-x64/dawn.node" \
         "$dest/react-native-webgpu-0.10.2/package/cpp/webgpu/webgpu.h"; do
  [[ -f "$f" ]] || { say "missing $f after unpacking"; exit 3; }
done
