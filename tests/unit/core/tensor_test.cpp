#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/half.h"
#include "wgk/error.h"
#include "wgk/tensor.h"

namespace wgk {
namespace {

ErrorCode codeOf(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "expected a wgk::Error";
  return ErrorCode::Internal;
}

TEST(HostTensor, ZeroFilledWithTheRightSize) {
  HostTensor t(DType::Float16, {2, 3});
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.byteSize(), 12u);
  for (double v : t.toDoubles()) EXPECT_EQ(v, 0.0);
  HostTensor scalar(DType::Int64, {});
  EXPECT_EQ(scalar.numel(), 1);
  EXPECT_EQ(scalar.byteSize(), 8u);
  HostTensor empty(DType::Float32, {3, 0, 5});
  EXPECT_EQ(empty.numel(), 0);
  EXPECT_EQ(empty.byteSize(), 0u);
  EXPECT_TRUE(empty.toFloats().empty());
}

TEST(HostTensor, RejectsBadShapesAndSizes) {
  EXPECT_EQ(codeOf([] { HostTensor(DType::Float32, {2, -1}); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf([] {
              HostTensor(DType::Float32, {2, 2}, std::vector<std::byte>(15));
            }),
            ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf([] {
              HostTensor(DType::Float32, {2, 2}, std::vector<std::byte>(17));
            }),
            ErrorCode::InvalidArgument);
  // A shape whose byte size overflows 64 bits must be refused, not wrapped to a small allocation.
  EXPECT_EQ(codeOf([] {
              HostTensor(DType::Float32, {int64_t{1} << 40, int64_t{1} << 40}, {});
            }),
            ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf([] { HostTensor(DType::Int8, {int64_t{1} << 62, 8}); }), ErrorCode::InvalidArgument);
  // ... but an empty tensor with a huge other dimension is fine: zero bytes.
  HostTensor e(DType::Float32, {int64_t{1} << 40, 0}, {});
  EXPECT_EQ(e.byteSize(), 0u);
}

TEST(HostTensor, FromDoublesRoundsAndChecks) {
  const std::vector<double> v = {1.5, -2.0, 0.1, 65504.0, 1e6, -0.0};
  auto h = HostTensor::fromDoubles(DType::Float16, {6}, v);
  EXPECT_EQ(h.at(0), 1.5);
  EXPECT_EQ(h.at(2), static_cast<double>(halfToFloat(0x2e66)));
  EXPECT_EQ(h.at(3), 65504.0);
  EXPECT_TRUE(std::isinf(h.at(4)));
  EXPECT_TRUE(std::signbit(h.at(5)));
  auto f = HostTensor::fromDoubles(DType::Float32, {6}, v);
  EXPECT_EQ(f.at(2), static_cast<double>(0.1f));
  // float16 from a double rounds once (a double just above a tie must not tie to even).
  const double justAboveTie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(HostTensor::fromDoubles(DType::Float16, {}, std::vector<double>{justAboveTie}).at(0),
            1.0 + std::ldexp(1.0, -10));
  // Integer dtypes: exact values only, in range; errors name the index and the value.
  auto i = HostTensor::fromDoubles(DType::Int32, {3}, std::vector<double>{-2147483648.0, 0, 2147483647.0});
  EXPECT_EQ(i.at(0), -2147483648.0);
  EXPECT_EQ(i.at(2), 2147483647.0);
  try {
    HostTensor::fromDoubles(DType::Int8, {2}, std::vector<double>{1, 128});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidArgument);
    EXPECT_NE(e.message().find("index 1"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("128"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("int8"), std::string::npos) << e.message();
  }
  try {
    HostTensor::fromDoubles(DType::Int32, {1}, std::vector<double>{1e-7});
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("1e-07"), std::string::npos)
        << "tiny values must stay readable: " << e.message();
  }
  EXPECT_EQ(codeOf([] { HostTensor::fromDoubles(DType::Uint8, {1}, std::vector<double>{-1}); }),
            ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf([] { HostTensor::fromDoubles(DType::Uint32, {1}, std::vector<double>{4294967296.0}); }),
            ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf([] { HostTensor::fromDoubles(DType::Int16, {1}, std::vector<double>{std::nan("")}); }),
            ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf([] { HostTensor::fromDoubles(DType::Bool, {1}, std::vector<double>{2}); }),
            ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf([] { HostTensor::fromDoubles(DType::Float32, {2}, std::vector<double>{1}); }),
            ErrorCode::InvalidArgument);
}

TEST(HostTensor, EveryDTypeRoundTripsItsValues) {
  const std::vector<std::pair<DType, std::vector<double>>> cases = {
      {DType::Float32, {1.25, -0x1p127, 0x1p-149, -0.0}},
      {DType::Float16, {1.25, -65504, std::ldexp(1.0, -24), -0.0}},
      {DType::Int32, {-2147483648.0, 7, 0, 2147483647.0}},
      {DType::Uint32, {0, 1, 4294967295.0, 12}},
      {DType::Int8, {-128, 127, 0, -1}},
      {DType::Uint8, {0, 255, 1, 128}},
      {DType::Int16, {-32768, 32767, 0, 5}},
      {DType::Int64, {-9e15, 9e15, 0, 1}},
      {DType::Bool, {0, 1, 1, 0}},
  };
  for (const auto& [dtype, values] : cases) {
    auto t = HostTensor::fromDoubles(dtype, {2, 2}, values);
    EXPECT_EQ(t.byteSize(), 4 * dtypeBytes(dtype));
    const auto back = t.toDoubles();
    for (size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ(back[i], values[i]) << dtypeName(dtype) << " element " << i;
      EXPECT_EQ(std::signbit(back[i]), std::signbit(values[i])) << dtypeName(dtype);
    }
    // Bytes are the little-endian storage of the type (checked for one value).
    auto copy = HostTensor(dtype, {2, 2}, std::vector<std::byte>(t.bytes().begin(), t.bytes().end()));
    EXPECT_EQ(copy.toDoubles(), back);
  }
  auto f = HostTensor::fromFloats(DType::Float16, {2}, std::vector<float>{0.5f, 2.0f});
  EXPECT_EQ(f.toFloats(), (std::vector<float>{0.5f, 2.0f}));
  const auto* raw = reinterpret_cast<const uint16_t*>(f.bytes().data());
  EXPECT_EQ(raw[0], 0x3800);
  EXPECT_EQ(raw[1], 0x4000);
}

TEST(HostTensor, AtChecksTheIndex) {
  HostTensor t(DType::Float32, {2});
  EXPECT_EQ(codeOf([&] { t.at(2); }), ErrorCode::InvalidArgument);
  EXPECT_EQ(codeOf([&] { t.at(-1); }), ErrorCode::InvalidArgument);
  HostTensor empty(DType::Float32, {0});
  EXPECT_EQ(codeOf([&] { empty.at(0); }), ErrorCode::InvalidArgument);
}

}  // namespace
}  // namespace wgk
