#!/usr/bin/env bash
# plan_variant_table.sh WGK ARGS...: `wgk plan ARGS...` must list its variants highest priority first
# and with the `priority` column at one position on every row, however long an id is (issue 29:
# Softmax's table listed priority 19 after 18 and shifted the rows of ids over 24 characters).
set -u
out=$("$@") || { echo "FAIL: '$*' exited $?"; exit 1; }
rows=$(sed -n '/^variants:$/,/^$/p' <<<"$out" | grep ' priority ')
[[ -n $rows ]] || { echo "FAIL: no variant rows in:"; echo "$out"; exit 1; }
echo "$rows"
awk '{
  col = index($0, " priority ")
  split(substr($0, col + 10), rest, " ")
  p = rest[1] + 0
  if (NR > 1 && col != first) { print "FAIL: row " NR " has priority at column " col ", row 1 at " first; bad = 1 }
  if (NR > 1 && p > prev) { print "FAIL: row " NR " (priority " p ") follows priority " prev; bad = 1 }
  if (NR == 1) first = col
  prev = p
} END { exit bad }' <<<"$rows" || exit 1
echo "PASS: $(wc -l <<<"$rows") variants, highest priority first, one column"
