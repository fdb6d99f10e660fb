// One way for every test suite to expect a wgk::Error: run fn, check the code and that what()
// contains each fragment, and hand back what() for further checks ("" when nothing was thrown).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "wgk/error.h"

namespace wgk::test_support {

inline std::string expectError(const std::function<void()>& fn, ErrorCode code,
                               const std::vector<std::string>& fragments) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(errorCodeName(e.code()), errorCodeName(code)) << e.what();
    for (const auto& f : fragments)
      EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << "missing '" << f << "' in:\n"
                                                                  << e.what();
    return e.what();
  }
  ADD_FAILURE() << "expected a wgk::Error (" << errorCodeName(code) << ")"
                << (fragments.empty() ? "" : " mentioning '" + fragments[0] + "'");
  return "";
}

inline std::string expectError(const std::function<void()>& fn, ErrorCode code,
                               std::initializer_list<std::string_view> fragments) {
  return expectError(fn, code, std::vector<std::string>(fragments.begin(), fragments.end()));
}

}  // namespace wgk::test_support
