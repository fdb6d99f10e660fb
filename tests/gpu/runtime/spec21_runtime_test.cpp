// Spec 2.1 constructs running on the device (tests/data/spec21 packages): a scalar arg feeding a
// uniform field, an in/out port, a zeroInit intermediate that persists across calls, submitAfter,
// a repeat group, a variant family, viewAlias; and the Hub's storage ABI: packed uint8, int64
// projected to uint32 (checked and saturating narrowing), int8/uint8/int16/bool widened words.
#include <cstring>

#include "runtime_test_util.h"
#include "support/expect_error.h"

using namespace wgk;
using namespace wgk::runtime_test;

namespace {

Kernel testKernel(const std::string& id) {
  return runtime().load(std::string(WGK_SOURCE_DIR) + "/tests/data/spec21/" + id);
}

template <class T>
HostTensor tensorOf(DType d, const Shape& s, const std::vector<T>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return HostTensor(d, s, std::move(bytes));
}

template <class T>
std::vector<T> valuesOf(const HostTensor& t) {
  std::vector<T> out(static_cast<size_t>(t.numel()));
  std::memcpy(out.data(), t.bytes().data(), t.byteSize());
  return out;
}

}  // namespace

TEST(Spec21Runtime, ScaleArgsInOutRepeatZeroInit) {
  Kernel k = testKernel("wgk.test.Scale");
  const int n = 300;
  std::vector<float> xs(n), accs(n);
  for (int i = 0; i < n; ++i) xs[i] = 0.25f * static_cast<float>(i - 100), accs[i] = static_cast<float>(i);
  const HostTensor x = tensorOf(DType::Float32, {n}, xs), acc = tensorOf(DType::Float32, {n}, accs);
  for (const char* variant : {"", "wg64", "wg128", ""}) {  // the last call again: tmp must start at zero
    CallResult r = k.call({{"x", x}, {"acc", acc}}, {.args = {{"scale", 2.0}}, .variant = variant});
    EXPECT_EQ(r.variant, std::string(*variant ? variant : "wg64"));
    const auto y = valuesOf<float>(r.host.at("y")), a = valuesOf<float>(r.host.at("acc"));
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(y[i], xs[i] * 2.0f) << i;
      ASSERT_EQ(a[i], accs[i] + 6.0f * (xs[i] * 2.0f)) << i;  // repeat weights 1 + 2 + 3
    }
  }
  // The in/out port on the device: updated in place, returned as the same tensor.
  DeviceTensor accD = runtime().upload(acc);
  CallResult d = k.call({{"x", x}, {"acc", accD}}, {.args = {{"scale", 1.0}}, .placement = OutputPlacement::Device});
  EXPECT_EQ(d.device.count("acc"), 0u);  // a caller's tensor is written in place, not returned again
  const auto a = valuesOf<float>(runtime().download(accD));
  for (int i = 0; i < n; ++i) ASSERT_EQ(a[i], accs[i] + 6.0f * xs[i]) << i;
}

TEST(Spec21Runtime, ScalarArgErrors) {
  Kernel k = testKernel("wgk.test.Scale");
  const HostTensor x(DType::Float32, {4}), acc(DType::Float32, {4});
  test_support::expectError([&] { k.call({{"x", x}, {"acc", acc}}); }, ErrorCode::Contract,
                            {"missing required arg 'scale' (f32)"});
  test_support::expectError([&] { k.call({{"x", x}, {"acc", acc}}, {.args = {{"scale", std::string("two")}}}); },
                            ErrorCode::Contract, {"arg 'scale' (f32) must be a finite number"});
  test_support::expectError([&] { k.call({{"x", x}, {"acc", acc}}, {.args = {{"gain", 1.0}}}); },
                            ErrorCode::Contract, {"unknown arg 'gain' (args: scale)"});
}

// viewAlias: with y the same bytes as x the copy is an identity and is skipped (binding one buffer
// read-only and read-write in a pass would otherwise be refused); with distinct buffers it runs.
TEST(Spec21Runtime, ViewAliasSkipsTheIdentityPass) {
  Kernel k = testKernel("wgk.test.Scale");
  const HostTensor x = tensorOf<float>(DType::Float32, {4}, {1, 2, 3, 4});
  DeviceTensor xd = runtime().upload(x), accd = runtime().upload(x);
  CallResult same = k.call({{"x", xd}, {"acc", accd}},
                           {.args = {{"scale", 1.0}}, .variant = "identity", .outputs = {{"y", xd.view()}}});
  EXPECT_EQ(same.variant, "identity");
  EXPECT_EQ(valuesOf<float>(runtime().download(xd)), (std::vector<float>{1, 2, 3, 4}));
  CallResult copy = k.call({{"x", x}, {"acc", x}}, {.args = {{"scale", 1.0}}, .variant = "identity"});
  EXPECT_EQ(valuesOf<float>(copy.host.at("y")), (std::vector<float>{1, 2, 3, 4}));
  // One buffer as a read-only and a writable binding of one pass, at two offsets: not an
  // identity, and a hazard WebGPU would reject.
  DeviceTensor big = runtime().allocate(DType::Float32, {128});
  const GpuTensor lo{big.view().buffer, DType::Float32, {4}, 0}, hi{big.view().buffer, DType::Float32, {4}, 256};
  test_support::expectError([&] {
    k.call({{"x", lo}, {"acc", accd}}, {.args = {{"scale", 1.0}}, .variant = "identity", .outputs = {{"y", hi}}});
  }, ErrorCode::InvalidArgument, {"binds one GPU buffer as 'x' and 'y', once read-only and once writable"});
}

TEST(Spec21Runtime, StorageAbi) {
  Kernel k = testKernel("wgk.test.Storage");
  const HostTensor b = tensorOf<uint8_t>(DType::Uint8, {6}, {0, 1, 127, 128, 200, 255});
  const HostTensor ids = tensorOf<int64_t>(DType::Int64, {3}, {0, 41, 4294967294LL});
  const HostTensor sat = tensorOf<int64_t>(DType::Int64, {3}, {-5, 5, int64_t{1} << 40});
  const HostTensor i8 = tensorOf<int8_t>(DType::Int8, {4}, {-128, -1, 0, 127});
  CallResult r = k.call({{"b", b}, {"ids", ids}, {"sat", sat}, {"small", i8}});
  EXPECT_EQ(valuesOf<uint32_t>(r.host.at("bytes")), (std::vector<uint32_t>{0, 1, 127, 128, 200, 255}));
  EXPECT_EQ(r.host.at("next").dtype(), DType::Int64);
  EXPECT_EQ(valuesOf<int64_t>(r.host.at("next")), (std::vector<int64_t>{1, 42, 4294967295LL}));
  EXPECT_EQ(valuesOf<uint32_t>(r.host.at("clamped")), (std::vector<uint32_t>{0, 5, 4294967295u}));
  EXPECT_EQ(valuesOf<int8_t>(r.host.at("negated")), (std::vector<int8_t>{-128, 1, 0, -127}));  // -(-128) wraps
  const HostTensor u8 = tensorOf<uint8_t>(DType::Uint8, {3}, {0, 1, 255});
  EXPECT_EQ(valuesOf<uint8_t>(k.call({{"b", b}, {"ids", ids}, {"sat", sat}, {"small", u8}}).host.at("negated")),
            (std::vector<uint8_t>{0, 255, 1}));
  const HostTensor i16 = tensorOf<int16_t>(DType::Int16, {3}, {-32768, -2, 300});
  EXPECT_EQ(valuesOf<int16_t>(k.call({{"b", b}, {"ids", ids}, {"sat", sat}, {"small", i16}}).host.at("negated")),
            (std::vector<int16_t>{-32768, 2, -300}));
  const HostTensor bools = tensorOf<uint8_t>(DType::Bool, {2}, {0, 1});
  EXPECT_EQ(valuesOf<uint8_t>(k.call({{"b", b}, {"ids", ids}, {"sat", sat}, {"small", bools}}).host.at("negated")),
            (std::vector<uint8_t>{1, 0}));
  // checked narrowing refuses a value outside uint32; a packed port takes host data only.
  const HostTensor bad = tensorOf<int64_t>(DType::Int64, {1}, {-1});
  test_support::expectError([&] { k.call({{"b", b}, {"ids", bad}, {"sat", sat}, {"small", i8}}); },
                            ErrorCode::Contract, {"input 'ids'", "outside the uint32 storage range"});
  DeviceTensor bd = runtime().upload(b);
  test_support::expectError([&] { k.call({{"b", bd}, {"ids", ids}, {"sat", sat}, {"small", i8}}); },
                            ErrorCode::InvalidArgument, {"input 'b' is a GPU tensor", "packed"});
}

// Widened storage round-trips through Runtime::upload/download for every small integer type.
TEST(Spec21Runtime, WidenedUploadDownload) {
  const HostTensor i8 = tensorOf<int8_t>(DType::Int8, {4}, {-128, -1, 0, 127});
  EXPECT_TRUE(sameBytes(runtime().download(runtime().upload(i8)), i8));
  const HostTensor u8 = tensorOf<uint8_t>(DType::Uint8, {3}, {0, 128, 255});
  EXPECT_TRUE(sameBytes(runtime().download(runtime().upload(u8)), u8));
  const HostTensor i16 = tensorOf<int16_t>(DType::Int16, {2}, {-32768, 32767});
  EXPECT_TRUE(sameBytes(runtime().download(runtime().upload(i16)), i16));
}
