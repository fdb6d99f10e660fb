"""python3 -m wgk: the wgk command's list, info, plan and run (docs/cli.md), in this process."""

import sys

from ._wgk import _cli_main

raise SystemExit(_cli_main(["wgk", *sys.argv[1:]]))
