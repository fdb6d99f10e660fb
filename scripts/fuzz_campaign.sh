#!/usr/bin/env bash
# One call of a fuzz campaign on a many-core machine with no compiler, from the repository root,
# after the pack of scripts/pack_fuzz.sh was unpacked (docs/reliability.md, "Fuzzing"):
#   tar -xJf out/fuzzpack.tar.xz && bash scripts/fuzz_campaign.sh 560
#   bash scripts/fuzz_campaign.sh 560 fuzz_package=10 fuzz_hub_response=6
# BUDGET (seconds): the whole call's wall time; the workers fuzz for BUDGET minus
# WGK_CAMPAIGN_RESERVE (default 70 s, for loading, the corpus merge and packing) and the script
# ends within BUDGET. TARGET=WORKERS pairs pick the targets and their processes; by default every
# target packed in out/fuzz/fuzz shares all cores (nproc), fuzz_package getting 5 in 8 (its inputs
# cost more than the hub responses'). Each worker is one libFuzzer process (-print_final_stats=1,
# its own log, its own -seed) on one shared corpus per target, started from the packed corpus and
# seeds. Then, in $OUT (default out/campaign):
#   campaign-summary.txt   per target: workers, seconds, executions (summed over the workers'
#                          stat::number_of_executed_units), executions per second per worker, and
#                          the crashes, timeouts, OOMs and leaks found, with their artifacts' names
#   artifacts/<target>/    the inputs of any finding (crash-*, timeout-*, oom-*, leak-*, slow-unit-*)
#   logs/<target>.<w>.log  each worker's log (the last 200 lines)
#   corpus.tar.xz          the corpus after the call (packed corpus + new inputs, -merge=1), when
#                          under 15 MB: unpack over out/fuzz/corpus (or pass it to pack_fuzz.sh's
#                          WGK_FUZZ_PACK_CORPORA) so the next call resumes from it
# Exits 1 when any worker had a finding. Environment: WGK_FUZZ_DIR (the unpacked pack, default
# out/fuzz), WGK_FUZZ_FLAGS (more libFuzzer flags), WGK_FUZZ_ASAN_OPTIONS (appended to
# ASAN_OPTIONS), WGK_FUZZ_TIMEOUT (per input, default 10 s).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
pack=${WGK_FUZZ_DIR:-$here/out/fuzz}
out=${OUT:-$here/out/campaign}
budget=${1:?usage: fuzz_campaign.sh BUDGET_SECONDS [TARGET=WORKERS ...]}
shift
reserve=${WGK_CAMPAIGN_RESERVE:-70}
secs=$((budget - reserve))
((secs >= 10)) || { echo "fuzz_campaign: a budget of $budget s leaves no time to fuzz (reserve $reserve s)" >&2; exit 2; }
[[ -d $pack/fuzz ]] || { echo "fuzz_campaign: no pack in $pack (tar -xJf out/fuzzpack.tar.xz)" >&2; exit 2; }
start=$(date +%s)

declare -A workers
targets=()
if (($#)); then
  for a in "$@"; do
    t=${a%%=*} n=${a#*=}
    [[ $a == *=* && $n =~ ^[0-9]+$ ]] || { echo "fuzz_campaign: '$a' is not TARGET=WORKERS" >&2; exit 2; }
    [[ -x $pack/fuzz/$t ]] || { echo "fuzz_campaign: $t is not in the pack" >&2; exit 2; }
    targets+=("$t") workers[$t]=$n
  done
else
  for f in "$pack"/fuzz/*; do [[ -x $f ]] && targets+=("$(basename "$f")"); done
  cores=$(nproc)
  if [[ " ${targets[*]} " == *" fuzz_package "* && ${#targets[@]} == 2 ]]; then
    for t in "${targets[@]}"; do
      if [[ $t == fuzz_package ]]; then workers[$t]=$(((cores * 5 + 4) / 8)); else workers[$t]=$((cores - (cores * 5 + 4) / 8)); fi
    done
  else
    for i in "${!targets[@]}"; do
      workers[${targets[$i]}]=$(((cores + i) / ${#targets[@]}))
    done
  fi
fi

max_len() {
  case $1 in
    fuzz_package | fuzz_hub_response) echo 32768 ;;
    fuzz_manifest | fuzz_loaders | fuzz_template) echo 65536 ;;
    *) echo 4096 ;;
  esac
}

work=$(mktemp -d "${TMPDIR:-/tmp}/wgk-campaign.XXXXXX")
mkdir -p "$out/artifacts" "$out/logs"
export LD_LIBRARY_PATH=$pack/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export WGK_FUZZ_SOURCE_DIR=$here  # fuzz_package reads tests/data/profiles/lavapipe.json from the checkout
# quarantine_size_mb=64 (ASan's default is 256): fuzz_package spent a quarter of its time in
# Allocate, nearly all on the first touches of a recycled chunk; on 600 corpus inputs run once,
# 64 MB took 6.2-6.4 s against 7.8-7.9 s (a profile with 64 MB still puts 22% there: ASan's own).
# A use after free is still caught unless 64 MB were freed between the free and the use: those
# 600 inputs freed 0.8 MB each on average (print_stats), the largest input in the corpus 10 MB.
asan=detect_leaks=1:allocator_may_return_null=1:malloc_context_size=4:quarantine_size_mb=64${WGK_FUZZ_ASAN_OPTIONS:+:$WGK_FUZZ_ASAN_OPTIONS}
read -ra flags <<<"${WGK_FUZZ_FLAGS:-}"
pids=()
for t in "${targets[@]}"; do
  mkdir -p "$work/corpus/$t" "$out/artifacts/$t" "$work/logs"
  for ((w = 0; w < workers[$t]; w++)); do
    # A leak or UB report is a finding too (UBSan halts: built with -fno-sanitize-recover). The
    # backstop timeout sends SIGINT, on which libFuzzer still prints its final stats.
    ASAN_OPTIONS=$asan timeout -s INT -k 10 $((secs + 20)) "$pack/fuzz/$t" -max_total_time="$secs" \
      -seed=$((start % 100000 * 100 + w + 1)) -timeout="${WGK_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2560 \
      -malloc_limit_mb=2048 -print_final_stats=1 -max_len="$(max_len "$t")" \
      -artifact_prefix="$out/artifacts/$t/" "${flags[@]}" \
      "$work/corpus/$t" "$pack/corpus/$t" "$pack/seeds/$t" >"$work/logs/$t.$w.log" 2>&1 &
    pids+=($!)
  done
done
echo "fuzz_campaign: $(for t in "${targets[@]}"; do printf '%s x %s, ' "${workers[$t]}" "$t"; done)$secs s each" >&2
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done

# Summary, then the corpus: the packed one and what this call added, minimised together.
summary=$out/campaign-summary.txt
{
  echo "fuzz_campaign $(date -u +%FT%TZ) on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
  [[ -f $pack/PACK.txt ]] && sed 's/^/pack: /' "$pack/PACK.txt"
  echo "budget $budget s, fuzzing $secs s per worker${flags[*]:+; libFuzzer flags: ${flags[*]}}"
  echo "ASAN_OPTIONS=$asan"
  for t in "${targets[@]}"; do
    logs=("$work/logs/$t".*.log)
    runs=$(cat "${logs[@]}" | sed -n 's/^stat::number_of_executed_units: *//p' | awk '{n += $1} END {print n + 0}')
    done_secs=$(cat "${logs[@]}" | sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' | sort -n | tail -1)
    per=$(awk -v r="$runs" -v w="${workers[$t]}" -v s="${done_secs:-$secs}" 'BEGIN {printf "%.0f", (w && s) ? r / w / s : 0}')
    echo
    echo "$t: ${workers[$t]} workers x ${done_secs:-?} s: $runs executions ($per per second per worker)"
    for kind in crash timeout oom leak slow-unit; do
      found=$(ls "$out/artifacts/$t" 2>/dev/null | grep "^$kind-" | tr '\n' ' ')
      label=${kind}s
      [[ $kind == crash ]] && label=crashes
      echo "  $label: $(ls "$out/artifacts/$t" 2>/dev/null | grep -c "^$kind-") ${found:+($found)}"
    done
    for ((w = 0; w < workers[$t]; w++)); do
      l=$work/logs/$t.$w.log
      echo "  worker $w: $(sed -n 's/^stat::number_of_executed_units: *//p' "$l" | tail -1) executions$(
        grep -m1 -E '^==[0-9]+==ERROR|runtime error|^SUMMARY|deadly signal|Test unit written' "$l" | sed 's/^/; /')"
      tail -200 "$l" >"$out/logs/$t.$w.log"
    done
  done
} >"$summary"

left=$((budget - ($(date +%s) - start) - 15))
merged=$work/merged
for t in "${targets[@]}"; do
  mkdir -p "$merged/$t"
  ((left > 5)) || { echo "no time left to merge $t's corpus" >>"$summary"; continue; }
  ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 timeout -s INT "$((left / ${#targets[@]}))" \
    "$pack/fuzz/$t" -merge=1 -max_len="$(max_len "$t")" -timeout="${WGK_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2560 \
    "$merged/$t" "$pack/corpus/$t" "$work/corpus/$t" >"$out/logs/merge-$t.log" 2>&1 &
done
wait
tar -C "$merged" -cf - . | xz -T0 -6 >"$work/corpus.tar.xz"
size=$(stat -c %s "$work/corpus.tar.xz")
{
  echo
  for t in "${targets[@]}"; do
    echo "corpus $t: $(ls "$pack/corpus/$t" | wc -l) packed + $(ls "$work/corpus/$t" | wc -l) new -> $(ls "$merged/$t" | wc -l) after -merge=1"
  done
  if ((size < 15 * 1024 * 1024)); then
    cp "$work/corpus.tar.xz" "$out/corpus.tar.xz"
    echo "corpus.tar.xz: $((size / 1024)) KiB (tar -C out/fuzz/corpus -xJf corpus.tar.xz)"
  else
    echo "corpus.tar.xz: $((size / 1024)) KiB, over 15 MB: not kept"
  fi
  echo "wall time $(($(date +%s) - start)) s of $budget"
} >>"$summary"
rm -rf "$work"
cat "$summary"
exit $failed
