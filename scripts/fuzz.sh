#!/usr/bin/env bash
# Runs wgk's libFuzzer targets (fuzz/, docs/reliability.md "Fuzzing"):
#   scripts/fuzz.sh 10                 each target for 10 s (CI runs this)
#   scripts/fuzz.sh --runs 10000000    each target for 10 million executions (the campaign)
#   scripts/fuzz.sh 60 fuzz_expr       one target
# Builds the targets first (clang-14, ASan + UBSan + libFuzzer, only the layers they need) in
# ${WGK_FUZZ_BUILD_DIR:-build-fuzz}, at ${WGK_FUZZ_OPT:--O2} (CI's brief run builds at -O0: half the
# compile time; a folder keeps the level it was configured with). Seeds come from
# scripts/fuzz_corpus.py; what the fuzzer adds stays in <build>/corpus/<target>. A crash, leak,
# UB report or an input slower than WGK_FUZZ_TIMEOUT (default 10 s) is a finding: saved under
# <build>/findings/<target>/, and the script exits 1 after running the rest. Prints one line per
# target: executions, seconds, result.
# WGK_FUZZ_WORKERS=J runs J processes per target side by side (distinct seeds, one shared corpus;
# with --runs N each runs N/J and the line sums their executions): the campaign on a many-core
# machine. WGK_FUZZ_TARGETS_AT_ONCE=K runs K targets side by side (CI: one per core).
# WGK_FUZZ_PREBUILT=1 skips the build (targets copied from a build made elsewhere) and, when
# <build>/seeds exists, the seed corpora. WGK_FUZZ_FLAGS adds libFuzzer flags to every process
# (the campaign ran fuzz_planner with -entropic=0: 1,070 executions per second per core against 763
# with the entropic scheduler's bookkeeping; fuzz_package too from session 38 on: with its ~50,000
# features that bookkeeping, InputCorpus::UpdateFeatureFrequency, took 45% of the time (perf), and
# one core ran 307 inputs a second against 237; the other targets gained nothing from it).
# WGK_FUZZ_ASAN_OPTIONS appends to ASAN_OPTIONS (the campaign's malloc_context_size=4: recording a
# full stack for every allocation took an eighth of fuzz_package's time; and its
# quarantine_size_mb=64, see fuzz_campaign.sh).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${WGK_FUZZ_BUILD_DIR:-$here/build-fuzz}
mode=(-max_total_time="${1:?usage: fuzz.sh SECONDS|--runs N [targets...]}")
if [[ $1 == --runs ]]; then mode=(-runs="${2:?--runs N}"); shift; fi
shift
targets=("$@")
((${#targets[@]})) || targets=(fuzz_expr fuzz_template fuzz_manifest fuzz_loaders fuzz_tensor_files fuzz_planner
  fuzz_package fuzz_hub_response)

if [[ ${WGK_FUZZ_PREBUILT:-0} != 1 && ! -f $build/CMakeCache.txt ]]; then
  CC=${WGK_FUZZ_CC:-clang-14} CXX=${WGK_FUZZ_CXX:-clang++-14} cmake -S "$here" -B "$build" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="${WGK_FUZZ_OPT:--O2} -DNDEBUG" \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="${WGK_FUZZ_OPT:--O2} -DNDEBUG" -DWGK_FUZZ=ON -DWGK_BUILD_TESTS=OFF \
    -DWGK_BUILD_EXAMPLES=OFF -DWGK_INSTALL=OFF >/dev/null
fi
[[ ${WGK_FUZZ_PREBUILT:-0} == 1 ]] || cmake --build "$build" -j"${WGK_FUZZ_JOBS:-2}" --target wgk_fuzz_all >/dev/null
[[ ${WGK_FUZZ_PREBUILT:-0} == 1 && -d $build/seeds ]] || python3 "$here/scripts/fuzz_corpus.py" "$build/seeds" >/dev/null
workers=${WGK_FUZZ_WORKERS:-1}
if [[ ${mode[0]} == -runs=* ]] && ((workers > 1)); then
  mode=(-runs=$(((${mode[0]#-runs=} + workers - 1) / workers)))
fi

# One target: its workers side by side, then one result line; returns 1 on a finding.
run_target() {
  local t=$1 corpus=$build/corpus/$1 findings=$build/findings/$1 log=$build/logs/$1.log
  mkdir -p "$corpus" "$findings" "$build/logs"
  read -ra extra <<<"${WGK_FUZZ_FLAGS:-}"
  case $t in
    fuzz_manifest | fuzz_loaders | fuzz_template) extra+=(-max_len=65536) ;;
    # A whole package, or a server's answers for one: the seeds are packages of up to 30 KB
    # (scripts/fuzz_corpus.py); at 128 KB (MatMul) an input took up to 1.4 s.
    fuzz_package | fuzz_hub_response) extra+=(-max_len=32768) ;;
  esac
  rc=0
  pids=()
  for ((w = 0; w < workers; w++)); do
    wlog=$log
    ((workers == 1)) || wlog=$log.$w
    # detect_leaks: a leak is a finding too. UBSan halts (built with -fno-sanitize-recover).
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1${WGK_FUZZ_ASAN_OPTIONS:+:$WGK_FUZZ_ASAN_OPTIONS} \
      "$build/fuzz/$t" "${mode[@]}" -seed=$((w + 1)) -timeout="${WGK_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2560 \
      -malloc_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" "${extra[@]}" \
      "$corpus" "$build/seeds/$t" >"$wlog" 2>&1 &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || rc=$?; done
  ((workers == 1)) || cat "$log".* >"$log"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{n += $1} END {print n}')
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | sort -n | tail -1)
  if ((rc == 0)); then
    echo "fuzz.sh: $t: ${runs:-?} executions in ${secs:-?} s, no finding"
  else
    echo "fuzz.sh: $t: FINDING after ${runs:-?} executions (exit $rc); $log; inputs in $findings/:" >&2
    grep -m3 -E 'ERROR: |runtime error|SUMMARY|Test unit written' "$log" >&2 || tail -5 "$log" >&2
    return 1
  fi
}

# WGK_FUZZ_TARGETS_AT_ONCE=K runs K targets side by side (CI's smoke run: 2 on its 2 cores, so the
# eight 15 s runs take about 60 s, not 120); each keeps its workers, its log and its result line.
# reap collects one finished target's status (wait -n also reports one that ended earlier); 127
# means none is left.
failed=0
reap() {
  local st=0
  wait -n || st=$?
  ((st == 0 || st == 127)) || failed=1
  return $((st == 127))
}
for t in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= ${WGK_FUZZ_TARGETS_AT_ONCE:-1})); do reap || break; done
  run_target "$t" &
done
while reap; do :; done
exit $failed
