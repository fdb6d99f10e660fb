#!/usr/bin/env bash
# The hardening runs of CI (issue 15, docs/reliability.md), each in its own build folder:
#   1. fuzz:  the libFuzzer targets (fuzz/), WGK_CI_FUZZ_SECONDS (default 15) each,
#             one target per core at a time                                          build-fuzz
#   2. asan:  ASan + UBSan build of the unit suites and the GPU suites on lavapipe,
#             then LeakSanitizer over `wgk test PKG` for every embedded package    build-asan
#   3. tsan:  ThreadSanitizer over the threads tests (RuntimeThreads.*)              build-tsan
# scripts/test.sh calls it after the ordinary suites (unless WGK_HARDENING=0); also runs alone:
#   scripts/ci_hardening.sh [fuzz] [asan] [tsan]
# Prints the seconds each step took. Fuzzing needs clang-14 + libclang-rt-14-dev (scripts/setup.sh).
# The sanitizer folders build at -O0 with line tables (-g1, cmake/sanitizers.cmake): with ASan +
# UBSan a test file compiles in 12 s at -O0 against 23 s at -O1 on CI's machine, reports still name
# file and line, and the suites' time goes to lavapipe (Mesa, not instrumented) more than to wgk.
# The fuzz step builds at -O0 too (WGK_FUZZ_OPT): its 15 s per target are a smoke run; the
# campaign (scripts/fuzz.sh alone) builds at -O2.
# WGK_CI_STEP_DEADLINE (epoch seconds, set by scripts/test.sh from CI's budget): a step that would
# start after it is reported as skipped (loudly, not as a failure), so a slow machine cannot run
# CI past its limit.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
steps=("$@")
((${#steps[@]})) || steps=(fuzz tsan asan)
jobs=${WGK_BUILD_JOBS:-$(nproc)}
supp=$here/tests/sanitizers
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"
say() { printf 'ci_hardening: %s\n' "$*" >&2; }
t0=$(date +%s)

# The system compiler (GCC): its sanitizer runtimes are shared libraries, so libwgk.so links with
# --no-undefined as in the ordinary build. Only the fuzz targets need clang (libFuzzer).
configure() {  # folder, extra cmake args...
  local dir=$1
  shift
  [[ -f $dir/CMakeCache.txt ]] ||
    cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O0 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -DNDEBUG" \
      -DWGK_BUILD_EXAMPLES=OFF -DWGK_INSTALL=OFF "$@" >/dev/null
}

late=0
for step in "${steps[@]}"; do
  s0=$(date +%s)
  if [[ -n ${WGK_CI_STEP_DEADLINE:-} ]] && ((s0 > WGK_CI_STEP_DEADLINE)); then
    say "$step SKIPPED: CI's time budget is spent ($((s0 - WGK_CI_STEP_DEADLINE)) s past the last start time)"
    late=1
    continue
  fi
  case $step in
    fuzz)
      WGK_FUZZ_OPT=${WGK_FUZZ_OPT:--O0} WGK_FUZZ_JOBS=$jobs WGK_FUZZ_TARGETS_AT_ONCE=$jobs \
        "$here/scripts/fuzz.sh" "${WGK_CI_FUZZ_SECONDS:-15}"
      ;;
    asan)
      b=$here/build-asan
      configure "$b" -DWGK_SANITIZE=address,undefined
      cmake --build "$b" -j"$jobs"
      # Leaks of Dawn / the Vulkan stack are suppressed (lsan.supp); wgk's own are failures.
      # The hang findings' regression tests bound their time; -O0 + ASan runs wgk's code several
      # times slower, so the bounds grow tenfold (tests/support/time_limit.h).
      export WGK_TEST_TIME_SCALE=${WGK_TEST_TIME_SCALE:-10}
      # intercept_tls_get_addr=0: GCC 12's interceptor can misread a malloc'ed TLS block of the
      # dlopen'ed Dawn or Mesa as glibc 2.19-2.24's header; LeakSanitizer's tracer then dies on the
      # garbage range ("Tracer caught signal 11", stop 40's CI). Off, the leak check only loses
      # roots, so no leak can hide. Measured in docs/reliability.md, Sanitizers.
      export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:detect_odr_violation=0"
      ASAN_OPTIONS+=":intercept_tls_get_addr=0"
      export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
      ctest --test-dir "$b" --output-on-failure -j"$jobs" -L unit
      # GPU suites under ASan on lavapipe: a subset by default (a ctest -R regex) covering the
      # device layer, the runtime's error paths, spec 2.1 constructs, threads and faults, to stay
      # inside CI's time; WGK_ASAN_GPU_TESTS=. runs every GPU test.
      ctest --test-dir "$b" --output-on-failure -L gpu \
        -R "${WGK_ASAN_GPU_TESTS:-^(Buffer|Device|Errors|GpuFaults|RuntimeErrors|RuntimeThreads|Spec21Runtime|AddKernel)\.}"
      # Two packages at a time ($jobs): wgk's own code runs single-threaded at -O0 under ASan, so
      # the pairs overlap well on CI's two cores. Every log is kept; the first failure's is shown.
      lsan_one() {  # package id: wgk test under LeakSanitizer, its log in build-asan/lsan-ID.log
        printf 'ci_hardening: LeakSanitizer: wgk test webgpu-kernels/%s\n' "$1" >&2
        "$b/wgk" test "webgpu-kernels/$1" >"$b/lsan-$1.log" 2>&1 || { echo "$1" >>"$b/lsan-failed"; }
      }
      export -f lsan_one
      export b
      rm -f "$b/lsan-failed"
      (cd "$here/packages/webgpu-kernels" && printf '%s\n' */) | tr -d / |
        xargs -P "$jobs" -I{} bash -c 'lsan_one "$1"' _ {}
      if [[ -s $b/lsan-failed ]]; then
        while read -r id; do say "LeakSanitizer FAILED: wgk test webgpu-kernels/$id"; cat "$b/lsan-$id.log" >&2; done <"$b/lsan-failed"
        exit 1
      fi
      unset ASAN_OPTIONS LSAN_OPTIONS WGK_TEST_TIME_SCALE
      ;;
    tsan)
      b=$here/build-tsan
      configure "$b" -DWGK_SANITIZE=thread
      cmake --build "$b" -j"$jobs" --target gpu_threads_test
      TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp" \
        "$b/tests/gpu/runtime/gpu_threads_test" --gtest_filter='RuntimeThreads.*'
      ;;
    *) say "unknown step '$step' (fuzz, asan, tsan)"; exit 2 ;;
  esac
  say "$step done in $(($(date +%s) - s0)) s"
done
say "all done in $(($(date +%s) - t0)) s"
((late == 0)) || say "some steps were SKIPPED for time (see above)"
