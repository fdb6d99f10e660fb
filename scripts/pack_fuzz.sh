#!/usr/bin/env bash
# Packs fuzz targets built here (scripts/fuzz.sh's build-fuzz/) for a many-core machine that has
# no compiler for them, such as the device machine's 16 cores (docs/reliability.md, "Fuzzing"):
#   scripts/pack_fuzz.sh fuzz_package fuzz_hub_response      # -> out/fuzzpack.tar.xz
# The pack holds out/fuzz/ laid out as a fuzz build folder: fuzz/<target> (stripped), seeds/ and
# corpus/ of each target, and lib/ with the shared libraries the targets need beyond glibc (the
# other machine's image is not Debian 12). There, from the repository root:
#   tar -xJf out/fuzzpack.tar.xz && LD_LIBRARY_PATH=$PWD/out/fuzz/lib WGK_FUZZ_BUILD_DIR=$PWD/out/fuzz \
#     WGK_FUZZ_PREBUILT=1 WGK_FUZZ_WORKERS=12 scripts/fuzz.sh 500 fuzz_package
# and bring out/fuzz/corpus and out/fuzz/logs back, to merge into build-fuzz/corpus (-merge=1).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${WGK_FUZZ_BUILD_DIR:-$here/build-fuzz}
stage=$here/out/fuzz
(($#)) || { echo "usage: pack_fuzz.sh TARGET..." >&2; exit 2; }
rm -rf "$stage" && mkdir -p "$stage/fuzz" "$stage/lib" "$stage/seeds" "$stage/corpus"
for t in "$@"; do
  [[ -x $build/fuzz/$t ]] || { echo "pack_fuzz: $build/fuzz/$t is not built (scripts/fuzz.sh 1 $t)" >&2; exit 1; }
  strip --strip-debug -o "$stage/fuzz/$t" "$build/fuzz/$t"
  cp -r "$build/seeds/$t" "$stage/seeds/"
  mkdir -p "$stage/corpus/$t"
  [[ -d $build/corpus/$t ]] && cp -r "$build/corpus/$t/." "$stage/corpus/$t/"
  ldd "$build/fuzz/$t" | awk '$3 ~ /^\// {print $3}' |
    grep -vE '/(libc|libm|libdl|libpthread|librt|libresolv|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -Ln "$lib" "$stage/lib/" 2>/dev/null || true; done
done
tar -C "$here" -cf - out/fuzz | xz -T2 -6 >"$here/out/fuzzpack.tar.xz"
du -h "$here/out/fuzzpack.tar.xz" | awk '{print "pack_fuzz: packed " $1 " in out/fuzzpack.tar.xz"}' >&2
