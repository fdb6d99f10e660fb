#!/usr/bin/env bash
# The main job on the embedded defaults: installs what is missing, builds, shows the device and
# runs each embedded kernel on sample inputs, checked against the CPU reference.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/setup.sh"
"$here/scripts/build.sh" >/dev/null
build=${WGK_BUILD_DIR:-$here/build}
"$build/wgk" devices
"$build/wgk" demo
