#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "core/foreign_errors.h"
#include "wgk/error.h"

namespace wgk {
namespace {

TEST(Error, CarriesCodeMessageAndContextInnermostFirst) {
  Error e(ErrorCode::Expression, "unknown name 'x'");
  EXPECT_EQ(e.code(), ErrorCode::Expression);
  EXPECT_EQ(e.message(), "unknown name 'x'");
  EXPECT_STREQ(e.what(), "unknown name 'x'");
  e.with("in expression `x + 1`").with("while planning vec4");
  ASSERT_EQ(e.context().size(), 2u);
  EXPECT_EQ(e.context()[0], "in expression `x + 1`");
  // The entries are whole phrases: the error adds no word of its own.
  EXPECT_STREQ(e.what(), "unknown name 'x'\n  in expression `x + 1`\n  while planning vec4");
}

TEST(Error, RecodedKeepsTheContextChain) {
  Error e(ErrorCode::Expression, "no shape");
  e.with("in output Y").with("while planning p");
  const Error c = e.recoded(ErrorCode::Contract, "Y has no shape");
  EXPECT_EQ(c.code(), ErrorCode::Contract);
  EXPECT_EQ(c.message(), "Y has no shape");
  EXPECT_EQ(c.context(), e.context());
  EXPECT_STREQ(c.what(), "Y has no shape\n  in output Y\n  while planning p");
  const Error built(ErrorCode::Io, "gone", {"while reading a"});
  EXPECT_STREQ(built.what(), "gone\n  while reading a");
}

TEST(Error, FilesystemAndJsonExceptionsBecomeWgkErrors) {
  try {
    asWgkErrors([] { std::filesystem::create_directories("/proc/no/such/place"); });
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Io);
    EXPECT_NE(e.message().find("/proc/no/such/place"), std::string::npos) << e.message();
    EXPECT_EQ(e.message().find("filesystem error:"), std::string::npos) << e.message();
  }
  try {
    asWgkErrors([] { return nlohmann::json::parse("{"); });
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Parse);
  }
  try {
    asWgkErrors([] { return nlohmann::json::object().at("missing").get<int>(); });
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Manifest);
  }
  // A wgk::Error keeps its chain; other exceptions pass through.
  try {
    asWgkErrors([] { withContext("in x", [] { throw Error(ErrorCode::Gpu, "bad"); }); });
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Gpu);
    EXPECT_EQ(e.context(), std::vector<std::string>{"in x"});
  }
  EXPECT_THROW(asWgkErrors([] { throw std::runtime_error("x"); }), std::runtime_error);
  EXPECT_EQ(asWgkErrors([] { return 7; }), 7);
}

// Issue 28: std::bad_alloc from something an input made wgk build (a family of 4 million variants,
// before the budget) aborted the process. At a layer's boundary it becomes the input's kind of
// error: a package's Manifest (exit 4), a server's answer's Network (exit 5).
TEST(Error, OutOfHostMemoryBecomesTheInputsKindOfError) {
  for (ErrorCode code : {ErrorCode::Manifest, ErrorCode::Network}) {
    try {
      hostMemoryErrorsAs(code, "while loading the package p", []() -> int { throw std::bad_alloc(); });
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), code);
      EXPECT_NE(e.message().find("ran out of host memory while loading the package p (std::bad_alloc)"),
                std::string::npos)
          << e.message();
      EXPECT_NE(e.message().find("docs/reliability.md"), std::string::npos);
    }
  }
  EXPECT_EQ(hostMemoryErrorsAs(ErrorCode::Manifest, "x", [] { return 3; }), 3);
  EXPECT_THROW(hostMemoryErrorsAs(ErrorCode::Manifest, "x", [] { throw std::runtime_error("y"); }),
               std::runtime_error);
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
