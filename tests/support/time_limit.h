// Time bounds for the regression tests of the hang findings (issue 15: a quadratic lexer, a
// billion-iteration loop, a 16 MiB string replaced a million times, a host tensor of 400 million
// elements). Each bound separates "fails fast" from the finding's tens of seconds with room to
// spare, on an optimised build. The sanitizer builds (scripts/ci_hardening.sh: ASan + UBSan at
// -O0) run wgk's own code several times slower, so they set WGK_TEST_TIME_SCALE and the bound
// grows by that factor; the findings stay far above it.
#pragma once

#include <chrono>
#include <cstdlib>
#include <string>

namespace wgk::test_support {

inline std::chrono::nanoseconds timeLimit(std::chrono::nanoseconds bound) {
  const char* scale = std::getenv("WGK_TEST_TIME_SCALE");
  if (scale == nullptr || *scale == '\0') return bound;
  const double factor = std::stod(scale);
  return std::chrono::nanoseconds(static_cast<long long>(static_cast<double>(bound.count()) * factor));
}

}  // namespace wgk::test_support
