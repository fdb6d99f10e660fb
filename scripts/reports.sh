#!/usr/bin/env bash
# The committed HTML reports (docs/evidence/reports.txt: each report and the evidence it comes from).
#   scripts/reports.sh                 regenerate every report with build/wgk (or $WGK)
#   scripts/reports.sh --check         exit 1 unless each committed report is byte for byte what
#                                      the current `wgk report` renders (ctest cli.reports_committed)
#   scripts/reports.sh --screenshots   also write docs/img/<report>.png with headless Chromium
#                                      (`chromium` on PATH; not installed by scripts/setup.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
wgk=${WGK:-$root/build/wgk}
mode=write
case ${1:-} in
  --check) mode=check ;;
  --screenshots) mode=shots ;;
  "") ;;
  *) echo "usage: $0 [--check | --screenshots]" >&2; exit 2 ;;
esac
cd "$root/docs/evidence"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
while IFS= read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  out=${line%%:*}
  read -r -a args <<< "${line#*:}"
  "$wgk" --quiet report "${args[@]}" --html "$tmp/$out" 2> "$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  if [[ $mode == check ]]; then
    if ! cmp -s "$tmp/$out" "$out"; then
      echo "docs/evidence/$out is not what wgk report renders from its evidence: run scripts/reports.sh" >&2
      rc=1
    fi
    continue
  fi
  cp "$tmp/$out" "$out"
  echo "wrote docs/evidence/$out"
  if [[ $mode == shots ]]; then
    # A tall window (Chromium shoots the window, not the page); the white below the page is
    # cropped where Python's PIL is there to do it.
    png="$root/docs/img/${out%.html}.png"
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,16000 \
      --screenshot="$png" "file://$PWD/$out" > /dev/null 2>&1
    /usr/bin/python3 - "$png" <<'PY' || true
import sys
from PIL import Image
im = Image.open(sys.argv[1]); g = im.convert("L"); w, h = im.size; px = g.load()
last = next((y for y in range(h - 1, 0, -4) if any(px[x, y] < 250 for x in range(0, w, 3))), h - 1)
im = im.convert("RGB").crop((0, 0, w, min(h, last + 24)))
im.quantize(colors=128).save(sys.argv[1], optimize=True)  # a palette: about a third of the bytes
PY
    echo "wrote docs/img/${out%.html}.png"
  fi
done < reports.txt
exit $rc
