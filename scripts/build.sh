#!/usr/bin/env bash
# Configures and builds wgk into build/ (binary: build/wgk). Assumes scripts/setup.sh has run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${WGK_BUILD_DIR:-$here/build}
jobs=${WGK_JOBS:-$(nproc)}
# RelWithDebInfo carries line tables only (-g1): backtraces, sanitizer reports and perf keep file and
# line. CMake's full -g made objects four times larger and compiles a quarter to a third slower on
# CI's 2 cores (2026-12-06: src/package/manifest_model.cpp 16.5 s -> 12.8 s, src/harness/
# bench_runner.cpp 18.0 s -> 12.2 s at -O2). WGK_DEBUG_INFO=full gives -g back (for gdb's locals).
debug=-g1
[[ ${WGK_DEBUG_INFO:-lines} == full ]] && debug=-g
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=${WGK_BUILD_TYPE:-RelWithDebInfo} \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 $debug -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 $debug -DNDEBUG" >/dev/null
cmake --build "$build" -j"$jobs"
