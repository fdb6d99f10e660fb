#!/usr/bin/env bash
# The whole test suite from nothing: installs what is missing (scripts/setup.sh), builds, runs
# every ctest suite (unit tests, GPU tests on lavapipe or the local GPU, CLI and hub tests, the
# relocatable install), then the Python package: pip-installs it from python/ into the build tree
# (reusing the build: scikit-build-core configures the same folder, which adds the Python modules)
# and runs the pytest suite (tests/python) against that installed copy.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
"$here/scripts/setup.sh"
"$here/scripts/build.sh"
build=${WGK_BUILD_DIR:-$here/build}
ctest --test-dir "$build" --output-on-failure -j"${WGK_TEST_JOBS:-2}" "$@"
ctest_done=$(date +%s)

py=/usr/bin/python3  # Debian's, whose packages setup.sh installed (another may come first on PATH)
site="$build/python-site"
CMAKE_GENERATOR=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$build/CMakeCache.txt") \
  "$py" -m pip install --quiet --no-index --disable-pip-version-check --root-user-action=ignore \
  --no-build-isolation --no-deps --upgrade --target "$site" \
  --config-settings=build-dir="$build" --config-settings=cmake.build-type="${WGK_BUILD_TYPE:-RelWithDebInfo}" \
  --config-settings=install.strip=true \
  "$here/python"
pip_done=$(date +%s)
PYTHONPATH="$site" "$py" -m pytest -q -p no:cacheprovider "$here/tests/python"
py_done=$(date +%s)
# Hardening runs, each in its own build folder (docs/reliability.md): the libFuzzer targets built
# and run briefly, ThreadSanitizer over the threads tests, then ASan + UBSan over the unit suites
# and a GPU subset with LeakSanitizer over `wgk test` of every embedded package. WGK_HARDENING=fuzz
# runs only the first, WGK_HARDENING=0 none. A step that would start more than
# WGK_CI_STEP_BUDGET_S (default 3000) after this script began is skipped, loudly, so CI stays
# inside its 90 minutes (docs/setup.md has the measured times).
case ${WGK_HARDENING:-1} in
  0) steps=() ;;
  fuzz) steps=(fuzz) ;;
  *) steps=(fuzz tsan asan) ;;
esac
if ((${#steps[@]})); then
  WGK_CI_STEP_DEADLINE=$((start + ${WGK_CI_STEP_BUDGET_S:-3000})) \
    "$here/scripts/ci_hardening.sh" "${steps[@]}"
fi
end=$(date +%s)
echo "test.sh: done in $((end - start)) s (ctest until $((ctest_done - start)) s; Python package install" \
  "$((pip_done - ctest_done)) s, pytest $((py_done - pip_done)) s, hardening $((end - py_done)) s)" >&2
