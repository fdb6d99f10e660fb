#include <gtest/gtest.h>

#include <set>

#include "wgk/error.h"

namespace wgk {
namespace {

TEST(Error, CarriesCodeMessageAndContextInnermostFirst) {
  Error e(ErrorCode::Expression, "unknown name 'x'");
  EXPECT_EQ(e.code(), ErrorCode::Expression);
  EXPECT_EQ(e.message(), "unknown name 'x'");
  EXPECT_STREQ(e.what(), "unknown name 'x'");
  e.with("in expression `x + 1`").with("in variant vec4");
  ASSERT_EQ(e.context().size(), 2u);
  EXPECT_EQ(e.context()[0], "in expression `x + 1`");
  EXPECT_STREQ(e.what(), "unknown name 'x'\n  while in expression `x + 1`\n  while in variant vec4");
}

TEST(Error, WithContextAppendsAndRethrows) {
  try {
    withContext("in package p", [] {
      return withContext("in variant v", []() -> int { throw Error(ErrorCode::Manifest, "bad"); });
    });
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Manifest);
    ASSERT_EQ(e.context().size(), 2u);
    EXPECT_EQ(e.context()[0], "in variant v");
    EXPECT_EQ(e.context()[1], "in package p");
  }
  EXPECT_EQ(withContext("ok", [] { return 42; }), 42);
  // Other exceptions pass through untouched.
  EXPECT_THROW(withContext("ctx", []() -> int { throw std::runtime_error("x"); }), std::runtime_error);
}

TEST(Error, CodeNamesAreStableAndDistinct) {
  EXPECT_EQ(errorCodeName(ErrorCode::NoVariant), "no-variant");
  EXPECT_EQ(errorCodeName(ErrorCode::OutOfMemory), "out-of-memory");
  EXPECT_EQ(errorCodeName(ErrorCode::InvalidArgument), "invalid-argument");
  EXPECT_EQ(errorCodeName(ErrorCode::DeviceLost), "device-lost");
  std::set<std::string_view> names;
  for (int c = 0; c <= static_cast<int>(ErrorCode::Internal); ++c) {
    const auto n = errorCodeName(static_cast<ErrorCode>(c));
    EXPECT_NE(n, "unknown") << c;
    EXPECT_TRUE(names.insert(n).second) << n;
  }
}

}  // namespace
}  // namespace wgk
