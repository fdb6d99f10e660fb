#!/usr/bin/env bash
# The whole test suite from nothing: installs what is missing (scripts/setup.sh), builds, and runs
# every ctest suite (unit tests, GPU tests on lavapipe or the local GPU, CLI and hub tests).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
"$here/scripts/setup.sh"
"$here/scripts/build.sh"
build=${WGK_BUILD_DIR:-$here/build}
ctest --test-dir "$build" --output-on-failure -j"${WGK_TEST_JOBS:-2}" "$@"
echo "test.sh: done in $(( $(date +%s) - start )) s" >&2
