#!/usr/bin/env bash
# The relocatable install, checked as a user elsewhere would meet it (ctest install.relocated_prefix):
#  1. installs this build into a temporary prefix (all components, and the library component alone);
#  2. moves the prefix somewhere else and renames away, inside every installed file, each path of
#     the source and build trees (same-length replacements, so binaries stay valid);
#  3. where mount namespaces are allowed (unshare -m), also hides both trees behind empty tmpfs
#     mounts for the checks;
#  4. builds a consumer with find_package(wgk) and another with pkg-config against the moved
#     prefix, runs both (a kernel on the local device), and runs bin/wgk devices, list and demo.
# Usage: install_test.sh SOURCE_DIR BINARY_DIR [WGK_DAWN_NODE]
set -euo pipefail
src=$(cd "$1" && pwd -P)
bin=$(cd "$2" && pwd -P)
dawn_dir=""
[[ -n "${3:-}" && -f "$3" ]] && dawn_dir=$(cd "$(dirname "$3")" && pwd -P)
here=$(cd "$(dirname "$0")" && pwd -P)
py=/usr/bin/python3
say() { printf 'install-test: %s\n' "$*"; }
fail() { printf 'install-test: FAILED: %s\n' "$*" >&2; exit 1; }

work=$(mktemp -d /tmp/wgk-install-test.XXXXXX)
[[ -n "${WGK_KEEP_INSTALL_TEST:-}" ]] || trap 'rm -rf "$work"' EXIT
say "work folder $work"

# ---- 1. install ---------------------------------------------------------------------------
cmake --install "$bin" --prefix "$work/staged" >/dev/null
cmake --install "$bin" --prefix "$work/library-only" --component library >/dev/null
for f in lib/libwgk.so include/wgk/wgk.h lib/cmake/wgk/wgkConfig.cmake lib/pkgconfig/wgk.pc \
  lib/wgk/dawn.node lib/wgk/libwgk_napi_stubs.so share/wgk/packages/webgpu-kernels; do
  [[ -e "$work/library-only/$f" ]] || fail "the library component lacks $f"
done
[[ ! -e "$work/library-only/bin" ]] || fail "the library component installed bin/"
[[ -x "$work/staged/bin/wgk" ]] || fail "the full install lacks bin/wgk"
# Optimised builds install stripped (cmake/wgkInstall.cmake, WGK_INSTALL_STRIP): no debug sections.
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$bin/CMakeCache.txt")
install_strip=$(sed -n 's/^WGK_INSTALL_STRIP:[A-Z]*=//p' "$bin/CMakeCache.txt")
if [[ "$build_type" =~ ^(Release|RelWithDebInfo|MinSizeRel)$ && "${install_strip:-ON}" == ON ]]; then
  for f in staged/bin/wgk staged/lib/libwgk.so library-only/lib/libwgk.so; do
    ! readelf -S "$work/$f" | grep -qE '\.debug_(info|line)' || fail "$f keeps its debug info ($build_type install)"
  done
fi

# Public headers name only standard headers and each other (no third-party header).
while read -r line; do
  [[ "$line" =~ ^#include\ \<([a-z_]+)\>$ || "$line" =~ ^#include\ \"wgk/[a-z_]+\.h\"$ ]] ||
    fail "a public header includes something else: $line"
done < <(grep -h '^#include' "$work/staged/include/wgk/"*.h)
# libwgk.so exports wgk's own symbols only (WGK_API and src/libwgk.map; tests/unit/layering checks that
# they are exactly include/wgk/'s), and none of the harness.
exports=$(nm -DC --defined-only "$work/staged/lib/libwgk.so" | cut -d' ' -f3-)
grep -qx 'wgk::Runtime::create(wgk::RuntimeOptions const&)' <<<"$exports" || fail "libwgk.so does not export wgk::Runtime::create"
foreign=$(grep -vE '^((typeinfo|typeinfo name|vtable|VTT|guard variable) for )?wgk::' <<<"$exports" || true)
[[ -z "$foreign" ]] || fail "libwgk.so exports symbols outside namespace wgk: $(head -3 <<<"$foreign")"
! grep -qE '^((typeinfo|vtable) for )?wgk::harness::' <<<"$exports" || fail "libwgk.so exports the harness"

# As a subproject (add_subdirectory) wgk configures no tests, examples or install rules.
mkdir -p "$work/parent"
printf 'cmake_minimum_required(VERSION 3.25)\nproject(parent CXX)\nadd_subdirectory("%s" wgk)\n' "$src" \
  > "$work/parent/CMakeLists.txt"
cmake -S "$work/parent" -B "$work/parent-build" -G "Unix Makefiles" -DWGK_DAWN_NODE="${3:-}" >/dev/null
targets=$(cmake --build "$work/parent-build" --target help)
grep -q '\.\.\. wgk$' <<<"$targets" || fail "the subproject has no target wgk"
! grep -qE '\.\.\. (core_test|wgk_example_three_kernels|install)$' <<<"$targets" ||
  fail "the subproject builds tests, examples or installs: $(grep -E 'core_test|example|install$' <<<"$targets")"

# ---- 2. move, and rename the trees' paths away ----------------------------------------------
mkdir -p "$work/elsewhere"
mv "$work/staged" "$work/elsewhere/wgk"
prefix="$work/elsewhere/wgk"
trees=("$src" "$bin")
[[ -n "$dawn_dir" ]] && trees+=("$dawn_dir")
$py - "$prefix" "${trees[@]}" <<'EOF'
import os, sys
prefix, trees = sys.argv[1], sys.argv[2:]
# Longest first, so a build tree inside the source tree is replaced whole.
trees = sorted({t.encode() for t in trees}, key=len, reverse=True)
def stand_in(path):
    s = b"/wgk-tree-renamed-away-" + b"x" * len(path)
    s = s[: len(path)] if len(path) >= 4 else b"/" + b"x" * (len(path) - 1)
    assert not os.path.exists(s), s
    return s
patched = []
for root, _, files in os.walk(prefix):
    for name in files:
        p = os.path.join(root, name)
        if os.path.islink(p):
            continue
        data = open(p, "rb").read()
        new = data
        for t in trees:
            new = new.replace(t, stand_in(t))
        if new != data:
            open(p, "wb").write(new)
            patched.append(os.path.relpath(p, prefix))
for t in trees:
    for root, _, files in os.walk(prefix):
        for name in files:
            p = os.path.join(root, name)
            if not os.path.islink(p) and t in open(p, "rb").read():
                sys.exit(f"{p} still names {t.decode()}")
print("install-test: renamed the tree paths away in " + (", ".join(sorted(patched)) or "no file"))
EOF

# Sources of the consumer, outside the trees (they may be hidden below).
cp -r "$here/consumer" "$work/consumer"
n_packages=$(find "$src/packages" -mindepth 3 -maxdepth 3 -name build -type d | wc -l)

# ---- 3 + 4. the checks, with the trees hidden where possible ---------------------------------
cat > "$work/check.sh" <<'EOF'
set -euo pipefail
prefix=$1 work=$2 n_packages=$3
say() { printf 'install-test: %s\n' "$*"; }
fail() { printf 'install-test: FAILED: %s\n' "$*" >&2; exit 1; }
# A user's environment: nothing of wgk's set, an empty cache, no network.
for v in $(env | sed -n 's/^\(WGK_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
export WGK_CACHE="$work/cache" WGK_OFFLINE=1

cmake -S "$work/consumer" -B "$work/consumer-build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF >/dev/null
cmake --build "$work/consumer-build" -j2 >/dev/null
out=$("$work/consumer-build/consumer")
say "find_package consumer: $out"
[[ "$out" == "consumer ok: embedded $prefix/share/wgk/packages/"* ]] || fail "the package did not come from the prefix"
say "consumer binary: $(stat -c %s "$work/consumer-build/consumer") bytes; libwgk.so: $(stat -c %s "$prefix/lib/libwgk.so") bytes"
readelf -d "$work/consumer-build/consumer" | grep -q 'NEEDED.*libwgk.so' || fail "the consumer does not link libwgk.so"

PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --exists wgk || fail "pkg-config does not find wgk"
# shellcheck disable=SC2046
c++ -std=c++20 -O1 "$work/consumer/main.cpp" -o "$work/pc-consumer" \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs wgk) -Wl,-rpath,"$prefix/lib"
out=$("$work/pc-consumer")
say "pkg-config consumer: $out"

devices=$("$prefix/bin/wgk" devices)
grep -qF "WebGPU library: $prefix/lib/wgk/dawn.node (the install prefix" <<<"$devices" ||
  fail "bin/wgk devices did not load the prefix's dawn.node: $(head -1 <<<"$devices")"
"$prefix/bin/wgk" list --json > "$work/list.json"
/usr/bin/python3 - "$work/list.json" "$prefix" "$n_packages" <<'PY'
import json, sys
entries, prefix, n = json.load(open(sys.argv[1]))["packages"], sys.argv[2], int(sys.argv[3])
if len(entries) != n: sys.exit(f"bin/wgk list shows {len(entries)} packages, the tree has {n}")
for e in entries:
    if not e["folder"].startswith(prefix + "/share/wgk/packages/"): sys.exit(f"{e['folder']} is outside the prefix")
print("install-test: bin/wgk list: " + ", ".join(e["repo"] for e in entries))
PY
"$prefix/bin/wgk" demo > "$work/demo.txt" || { cat "$work/demo.txt"; fail "bin/wgk demo failed"; }
say "bin/wgk demo: $(tail -1 "$work/demo.txt")"
EOF

hide=()
mkdir -p "$work/probe"
if unshare -m --propagation private mount -t tmpfs -o size=1m wgk-probe "$work/probe" 2>/dev/null; then
  # Empty tmpfs over each tree that is still visible (the build tree may lie inside the source tree).
  # cd first: a working folder inside a tree would stay reachable under the mount.
  script="set -e; cd '$work'"
  for t in "${trees[@]}"; do script+="; if [ -d '$t' ]; then mount -t tmpfs -o size=1m,mode=0755 wgk-hidden '$t'; fi"; done
  script+="; [ -z \"\$(ls -A '$src')\" ] && [ ! -e '$bin/CMakeCache.txt' ] || { echo 'a tree is still visible' >&2; exit 1; }"
  hide=(unshare -m --propagation private bash -c "$script; exec \"\$@\"" hide)
  say "hiding the source and build trees (mount namespace)"
else
  say "mount namespaces are not allowed here: the trees stay on disk, their paths renamed away"
fi
"${hide[@]}" bash "$work/check.sh" "$prefix" "$work" "$n_packages"
say "ok"
