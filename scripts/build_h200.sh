#!/usr/bin/env bash
# Builds, HERE, what scripts/h200.sh runs on the H200 machine and stages it in out/h200/ (ignored
# by git; carry it with the device tool): wgk, libwgk_napi_stubs.so, dawn.node, the GPU test
# binaries, and lib/ with the shared libraries the binaries need beyond glibc and libstdc++ (the
# H200 image is not Debian 12 and may lack libfmt, libcurl, ...). libstdc++ and libgcc are linked
# statically into wgk; dawn.node still needs the machine's libstdc++ (GLIBCXX_3.4.29 or newer).
#
# `scripts/build_h200.sh --from-build` stages the existing scripts/build.sh tree (build/) instead,
# without building: wgk and its shared libraries (libwgk.so among them, found through ldd), no test
# binaries. Minutes instead of a second full build on 2 cores, for iterating on kernels. Either way
# the stage is also packed as out/h200pack.tar.xz (carry it with .gl and start the command with
# `tar -xJf out/h200pack.tar.xz &&`: docs/h200.md).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${WGK_H200_BUILD_DIR:-$here/build-h200}
stage=$here/out/h200
say() { printf 'build_h200: %s\n' "$*" >&2; }
[[ -f "$here/third_party/webgpu-0.6.2/package/dist/linux-x64/dawn.node" ]] || "$here/scripts/fetch_webgpu.sh"
pack() {
  tar -C "$here" -cf - out/h200 | xz -T2 -6 > "$here/out/h200pack.tar.xz"
  du -h "$here/out/h200pack.tar.xz" | awk '{print "build_h200: packed " $1 " in out/h200pack.tar.xz"}' >&2
}
if [[ "${1:-}" == "--from-build" ]]; then
  build=${WGK_BUILD_DIR:-$here/build}
  rm -rf "$stage" && mkdir -p "$stage/lib" "$stage/tests"
  cp "$build/wgk" "$build/libwgk_napi_stubs.so" "$here/third_party/webgpu-0.6.2/package/dist/linux-x64/dawn.node" "$stage/"
  strip --strip-unneeded "$stage/wgk" "$stage/libwgk_napi_stubs.so"
  ldd "$build/wgk" | awk '$3 ~ /^\// {print $3}' |
    grep -vE '/(libc|libm|libdl|libpthread|librt|libgcc_s|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; strip --strip-unneeded "$stage/lib/$(basename "$lib")" 2>/dev/null || true; done
  pack
  exit 0
fi
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWGK_BUILD_EXAMPLES=OFF \
  -DCMAKE_EXE_LINKER_FLAGS="-static-libstdc++ -static-libgcc" >/dev/null
targets=(wgk_cli wgk_napi_stubs)
# Every test binary under tests/gpu/ (all of them are GPU suites).
for d in "$here"/tests/gpu/*/; do
  suite=$(basename "$d")
  [[ -f "$d/CMakeLists.txt" ]] || continue
  while read -r t; do targets+=("$t"); done < <(sed -n 's/.*wgk_add_test(NAME \([A-Za-z0-9_]*\).*/\1/p' "$d/CMakeLists.txt")
done
say "building ${targets[*]}"
cmake --build "$build" -j"${WGK_JOBS:-2}" --target "${targets[@]}"
rm -rf "$stage" && mkdir -p "$stage/lib" "$stage/tests"
cp "$build/wgk" "$build/libwgk_napi_stubs.so" "$stage/"
cp "$here/third_party/webgpu-0.6.2/package/dist/linux-x64/dawn.node" "$stage/"
find "$build/tests/gpu" -maxdepth 2 -type f -executable -name '*_test' -exec cp {} "$stage/tests/" \;
strip --strip-unneeded "$stage/wgk" "$stage/libwgk_napi_stubs.so" "$stage"/tests/* 2>/dev/null || true
# Shared libraries beyond the C runtime, which the H200 image may not have.
for bin in "$stage/wgk" "$stage"/tests/*; do
  ldd "$bin" | awk '$3 ~ /^\// {print $3}'
done | sort -u | grep -vE '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
du -sh "$stage" | awk '{print "build_h200: staged " $1 " in out/h200/"}' >&2
pack
ls -1 "$stage" "$stage/lib" "$stage/tests" >&2
