#!/usr/bin/env bash
# Configures and builds wgk into build/ (binary: build/wgk). Assumes scripts/setup.sh has run.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${WGK_BUILD_DIR:-$here/build}
jobs=${WGK_JOBS:-$(nproc)}
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=${WGK_BUILD_TYPE:-RelWithDebInfo} >/dev/null
cmake --build "$build" -j"$jobs"
