#!/usr/bin/env bash
# Builds and packs fuzz targets for a campaign on a many-core machine that has no compiler for
# them, such as the device machine's 16 cores (docs/reliability.md, "Fuzzing"):
#   scripts/pack_fuzz.sh fuzz_package fuzz_hub_response      # -> out/fuzzpack.tar.xz
# Builds the targets in their own folder, ${WGK_FUZZ_PACK_BUILD:-build-fuzz-campaign}, at
# ${WGK_FUZZ_OPT:--O2} with ASan + UBSan + libFuzzer as scripts/fuzz.sh does (the CI's smoke run
# builds at -O0 in build-fuzz; a campaign at -O0 runs at half the rate). WGK_FUZZ_PACK_BUILD_ONLY=0
# packs build-fuzz-campaign as it is, without building.
# The pack holds out/fuzz/ laid out as a fuzz build folder: fuzz/<target> (debug info stripped),
# seeds/<target> (scripts/fuzz_corpus.py), corpus/<target> (the corpus so far, minimised with
# -merge=1 from <build>/corpus/<target> and each folder of WGK_FUZZ_PACK_CORPORA, a
# colon-separated list of folders holding <target>/ subfolders, such as a campaign's corpus brought
# back), lib/ with the shared libraries the targets need beyond glibc (the other machine's image is
# not Debian 12), and PACK.txt (commit, flags). The pack must stay under 15 MB: the device tool
# brings files of up to 16 MB back and carries 64 MiB in. There, from the repository root:
#   tar -xJf out/fuzzpack.tar.xz && bash scripts/fuzz_campaign.sh 560
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${WGK_FUZZ_PACK_BUILD:-$here/build-fuzz-campaign}
stage=$here/out/fuzz
(($#)) || { echo "usage: pack_fuzz.sh TARGET..." >&2; exit 2; }

max_len() {
  case $1 in
    fuzz_package | fuzz_hub_response) echo 32768 ;;
    fuzz_manifest | fuzz_loaders | fuzz_template) echo 65536 ;;
    *) echo 4096 ;;  # libFuzzer's own default
  esac
}

if [[ ${WGK_FUZZ_PACK_BUILD_ONLY:-1} != 0 ]]; then
  if [[ ! -f $build/CMakeCache.txt ]]; then
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    CC=${WGK_FUZZ_CC:-clang-14} CXX=${WGK_FUZZ_CXX:-clang++-14} cmake -S "$here" -B "$build" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="${WGK_FUZZ_OPT:--O2} -DNDEBUG" \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${WGK_FUZZ_OPT:--O2} -DNDEBUG" -DWGK_FUZZ=ON -DWGK_BUILD_TESTS=OFF \
      -DWGK_BUILD_EXAMPLES=OFF -DWGK_INSTALL=OFF "${launcher[@]}" >/dev/null
  fi
  cmake --build "$build" -j"${WGK_FUZZ_JOBS:-2}" --target "$@" >/dev/null
fi
python3 "$here/scripts/fuzz_corpus.py" "$build/seeds" >/dev/null

rm -rf "$stage" && mkdir -p "$stage/fuzz" "$stage/lib" "$stage/seeds" "$stage/corpus"
for t in "$@"; do
  [[ -x $build/fuzz/$t ]] || { echo "pack_fuzz: $build/fuzz/$t is not built" >&2; exit 1; }
  strip --strip-debug -o "$stage/fuzz/$t" "$build/fuzz/$t"
  cp -r "$build/seeds/$t" "$stage/seeds/"
  # The corpus so far, minimised: inputs past -max_len are cut there, as the fuzzer would read them.
  inputs=()
  mkdir -p "$build/corpus/$t"
  inputs+=("$build/corpus/$t")
  IFS=: read -ra extra <<<"${WGK_FUZZ_PACK_CORPORA:-}"
  for d in "${extra[@]}"; do [[ -d $d/$t ]] && inputs+=("$d/$t"); done
  mkdir -p "$stage/corpus/$t"
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 WGK_FUZZ_SOURCE_DIR=$here \
    "$build/fuzz/$t" -merge=1 -max_len="$(max_len "$t")" -timeout=10 -rss_limit_mb=2560 \
    "$stage/corpus/$t" "$build/seeds/$t" "${inputs[@]}" >"$build/merge-$t.log" 2>&1 ||
    { echo "pack_fuzz: merging $t's corpus failed; $build/merge-$t.log" >&2; exit 1; }
  # The seeds stay in seeds/: the corpus holds only what they do not cover.
  echo "pack_fuzz: $t: $(ls "$stage/corpus/$t" | wc -l) corpus inputs ($(du -sh "$stage/corpus/$t" | cut -f1))" >&2
  ldd "$build/fuzz/$t" | awk '$3 ~ /^\// {print $3}' |
    grep -vE '/(libc|libm|libdl|libpthread|librt|libresolv|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -Ln "$lib" "$stage/lib/" 2>/dev/null || true; done
done
{
  echo "commit $(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet HEAD -- src fuzz || echo ' (uncommitted changes)')"
  echo "flags ${WGK_FUZZ_OPT:--O2}, -fsanitize=fuzzer,address,undefined, clang: $(grep -m1 CMAKE_CXX_COMPILER: "$build/CMakeCache.txt" | cut -d= -f2)"
  echo "targets $*"
} >"$stage/PACK.txt"
tar -C "$here" -cf - out/fuzz | xz -T2 -6 >"$here/out/fuzzpack.tar.xz"
size=$(stat -c %s "$here/out/fuzzpack.tar.xz")
echo "pack_fuzz: packed $((size / 1024)) KiB in out/fuzzpack.tar.xz" >&2
((size < 15 * 1024 * 1024)) || { echo "pack_fuzz: the pack is over 15 MB: the device tool cannot bring it back" >&2; exit 1; }
