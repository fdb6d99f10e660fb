"""python3 -m wgk: the wgk command's list, info, plan and run (docs/cli.md).

It runs the executable shipped in the package (wgk/bin/wgk, the CLI front end with those four
commands, linking wgk's layers itself), in place of this process: the extension module wgk._wgk
holds the public API only."""

import os
import sys

exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "wgk")
if not os.access(exe, os.X_OK):
    sys.exit(f"wgk: error [setup]: the command's executable is missing from the package: {exe}")
sys.stdout.flush()
sys.stderr.flush()
os.execv(exe, ["wgk", *sys.argv[1:]])
