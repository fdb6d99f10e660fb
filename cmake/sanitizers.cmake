# Sanitizer and fuzzing builds (docs/reliability.md). Included by the top-level CMakeLists.txt
# before src/, so the flags reach every layer's objects.
#
#   WGK_SANITIZE=address,undefined   ASan + UBSan (UB aborts: -fno-sanitize-recover), unit + GPU suites
#   WGK_SANITIZE=thread              TSan (the threads tests, host side)
#   WGK_FUZZ=ON                      libFuzzer targets in fuzz/ (clang only), with ASan + UBSan
#
# Each wants its own build folder (scripts/ci_hardening.sh uses build-asan, build-tsan, build-fuzz).
set(WGK_SANITIZE "" CACHE STRING "Comma-separated -fsanitize= list for every target (address,undefined or thread)")
option(WGK_FUZZ "Build the libFuzzer targets in fuzz/ (needs clang)" OFF)

if(WGK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "WGK_FUZZ=ON needs clang (libFuzzer): configure with CC=clang-14 CXX=clang++-14")
  endif()
  if(NOT WGK_SANITIZE)
    set(WGK_SANITIZE "address,undefined")
  endif()
endif()

if(WGK_SANITIZE)
  set(wgk_san_flags "-fsanitize=${WGK_SANITIZE}" -fno-omit-frame-pointer -g1)  # line tables: reports name file:line
  if(WGK_SANITIZE MATCHES "undefined")
    # A UB report is a failure, not a log line. vptr needs RTTI across dawn.node's boundary: off.
    list(APPEND wgk_san_flags -fno-sanitize-recover=undefined -fno-sanitize=vptr)
  endif()
  add_compile_options(${wgk_san_flags})
  add_link_options(${wgk_san_flags})
  if(WGK_FUZZ)
    # Coverage instrumentation for every library; only the fuzz targets link libFuzzer's main.
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
endif()
