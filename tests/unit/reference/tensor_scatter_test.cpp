#include <gtest/gtest.h>

#include <cstring>

#include "package/test_spec.h"
#include "ref_test_util.h"
#include "reference/compare.h"
#include "reference/ops.h"
#include "reference/registry.h"

namespace wgk {
namespace {
using reference::tensorScatter;
using testutil::expectError;
using testutil::f16;
using testutil::f32;

HostTensor of(DType t, Shape s, std::vector<double> v) {
  return HostTensor::fromDoubles(t, std::move(s), v);
}
HostTensor indices(std::vector<int64_t> v) {
  HostTensor t(DType::Int64, {static_cast<int64_t>(v.size())});
  if (!v.empty()) std::memcpy(t.bytes().data(), v.data(), v.size() * 8);
  return t;
}
// 0, 1, 2, ... as float32 of `shape`, plus `base`.
HostTensor iota(Shape shape, double base = 0) {
  std::vector<double> v(static_cast<size_t>(numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = base + static_cast<double>(i);
  return f32(std::move(shape), v);
}

TEST(TensorScatter, LinearDecodeAlongAxisMinus2) {
  // cache [1, 2, 4, 2] (batch, heads, max_seq, head_dim), one token at position 2.
  const HostTensor cache = iota({1, 2, 4, 2}), update = f32({1, 2, 1, 2}, {-1, -2, -3, -4});
  const HostTensor got = tensorScatter(cache, update, nullptr, -2, false);
  EXPECT_EQ(got.shape(), cache.shape());
  EXPECT_EQ(got.toDoubles(), (std::vector<double>{-1, -2, 2, 3, 4, 5, 6, 7, -3, -4, 10, 11, 12, 13, 14, 15}));
  const auto w = indices({2});
  EXPECT_EQ(tensorScatter(cache, update, &w, -2, false).toDoubles(),
            (std::vector<double>{0, 1, 2, 3, -1, -2, 6, 7, 8, 9, 10, 11, -3, -4, 14, 15}));
}

TEST(TensorScatter, TransposedKeyCacheAlongTheLastAxis) {
  // cache [1, 2, 3] (batch, head_dim, max_seq): the update [1, 2, 1] lands in column 1 of each row.
  const auto w = indices({1});
  EXPECT_EQ(tensorScatter(iota({1, 2, 3}), f32({1, 2, 1}, {-1, -2}), &w, -1, false).toDoubles(),
            (std::vector<double>{0, -1, 2, 3, -2, 5}));
  // A positive axis: axis 2 of rank 3 is the same axis.
  EXPECT_EQ(tensorScatter(iota({1, 2, 3}), f32({1, 2, 1}, {-1, -2}), &w, 2, false).toDoubles(),
            (std::vector<double>{0, -1, 2, 3, -2, 5}));
}

TEST(TensorScatter, EachBatchSampleAtItsOwnIndex) {
  // cache [3, 4, 1], update [3, 2, 1]: samples write at 0, 2 and 1.
  const auto w = indices({0, 2, 1});
  EXPECT_EQ(tensorScatter(iota({3, 4, 1}), iota({3, 2, 1}, 100), &w, 1, false).toDoubles(),
            (std::vector<double>{100, 101, 2, 3, 4, 5, 102, 103, 8, 104, 105, 11}));
  // With heads between batch and sequence, every head of a sample uses the sample's index.
  const auto w2 = indices({1, 0});
  EXPECT_EQ(tensorScatter(iota({2, 2, 2, 1}), iota({2, 2, 1, 1}, 100), &w2, -2, false).toDoubles(),
            (std::vector<double>{0, 100, 2, 101, 102, 5, 103, 7}));
}

TEST(TensorScatter, LinearPositionsOutsideTheCacheAreNotWritten) {
  const HostTensor cache = iota({4, 4, 1}), update = iota({4, 2, 1}, 100);
  // Sample 0 fits; sample 1 writes position 3 only, sample 2 nothing (it starts past the end),
  // sample 3 (at -1) its second entry at position 0.
  const auto w = indices({1, 3, 4, -1});
  EXPECT_EQ(tensorScatter(cache, update, &w, 1, false).toDoubles(),
            (std::vector<double>{0, 100, 101, 3, 4, 5, 6, 102, 8, 9, 10, 11, 107, 13, 14, 15}));
  // A non-zero high word: 2^32 + 1 is past the end, not position 1; -(2^32 - 1) is before the start.
  const auto big = indices({(int64_t{1} << 32) + 1, -((int64_t{1} << 32) - 1), INT64_MAX, INT64_MIN});
  EXPECT_EQ(tensorScatter(cache, update, &big, 1, false).toDoubles(), cache.toDoubles());
}

TEST(TensorScatter, CircularWrapsTheSequenceIndexOnly) {
  const auto w = indices({3, -1});
  // max_seq 4: sample 0 writes 3, 0; sample 1 (-1 mod 4 = 3) the same positions.
  EXPECT_EQ(tensorScatter(iota({2, 4, 1}), iota({2, 2, 1}, 100), &w, 1, true).toDoubles(),
            (std::vector<double>{101, 1, 2, 100, 103, 5, 6, 102}));
  // Large and negative 64-bit indices: (2^32 + 5) mod 5 = 1, -(2^32 + 3) mod 5 = 1, INT64_MIN mod 5 = 2.
  const auto big = indices({(int64_t{1} << 32) + 5, -((int64_t{1} << 32) + 3), INT64_MIN});
  EXPECT_EQ(tensorScatter(iota({3, 5, 1}), iota({3, 1, 1}, 100), &big, 1, true).toDoubles(),
            (std::vector<double>{0, 100, 2, 3, 4, 5, 101, 7, 8, 9, 10, 11, 102, 13, 14}));
  // onnx/onnx#8353: five samples, max_seq 4, all at slot 0: batch 4 stays batch 4 (the
  // pseudocode's modulo of the whole index tuple would fold it onto batch 0).
  const auto zeros = indices({0, 0, 0, 0, 0});
  const HostTensor got = tensorScatter(of(DType::Float32, {5, 4, 1}, std::vector<double>(20, -1)),
                                       iota({5, 1, 1}, 1), &zeros, 1, true);
  for (int b = 0; b < 5; ++b) EXPECT_EQ(got.at(b * 4), b + 1) << b;
  // The whole sequence, rotated.
  const auto rot = indices({2});
  EXPECT_EQ(tensorScatter(iota({1, 3, 1}), iota({1, 3, 1}, 100), &rot, 1, true).toDoubles(),
            (std::vector<double>{101, 102, 100}));
}

TEST(TensorScatter, AbsentWriteIndicesAreZeros) {
  const auto zeros = indices({0, 0});
  const HostTensor cache = iota({2, 3, 5, 2}), update = iota({2, 3, 2, 2}, 100);
  for (bool circular : {false, true}) {
    const CompareResult r = compareTensors(tensorScatter(cache, update, nullptr, -2, circular),
                                           tensorScatter(cache, update, &zeros, -2, circular), Tolerance{});
    EXPECT_TRUE(r.pass) << r.summary();
  }
}

TEST(TensorScatter, EveryDtypeIsCopiedAsBits) {
  // float16 NaN payloads, -0 and subnormals keep their bits; narrow integers their values.
  HostTensor cache(DType::Float16, {1, 2, 2}), update(DType::Float16, {1, 1, 2});
  const uint16_t bits[2] = {0x7d21, 0x8001};  // a signalling-pattern NaN, the smallest negative subnormal
  std::memcpy(update.bytes().data(), bits, 4);
  const auto w = indices({1});
  const HostTensor got = tensorScatter(cache, update, &w, 1, false);
  EXPECT_EQ(std::memcmp(got.bytes().data() + 4, bits, 4), 0);
  EXPECT_EQ(std::memcmp(got.bytes().data(), cache.bytes().data(), 4), 0);
  for (DType t :
       {DType::Int8, DType::Uint8, DType::Int16, DType::Int32, DType::Uint32, DType::Int64, DType::Bool}) {
    SCOPED_TRACE(dtypeName(t));
    const bool flag = t == DType::Bool;
    const HostTensor c = of(t, {2, 3}, {0, 0, 0, 0, 0, 0}), u = of(t, {2, 1}, {1, flag ? 1.0 : 7.0});
    const auto wi = indices({2, 0});
    EXPECT_EQ(tensorScatter(c, u, &wi, -1, false).toDoubles(),
              (std::vector<double>{0, 0, 1, flag ? 1.0 : 7.0, 0, 0}));
  }
  EXPECT_EQ(tensorScatter(f16({1, 2, 1}, {1, 2}), f16({1, 1, 1}, {-5}), nullptr, 1, false).toDoubles(),
            (std::vector<double>{-5, 2}));
}

TEST(TensorScatter, EmptyUpdatesChangeNothing) {
  const HostTensor cache = iota({2, 3, 2});
  EXPECT_EQ(tensorScatter(cache, f32({2, 0, 2}, {}), nullptr, 1, false).toDoubles(), cache.toDoubles());
  EXPECT_EQ(tensorScatter(f32({0, 3, 2}, {}), f32({0, 1, 2}, {}), nullptr, 1, true).shape(),
            (Shape{0, 3, 2}));
}

TEST(TensorScatter, ContractErrors) {
  const HostTensor cache = iota({2, 4, 3}), update = iota({2, 1, 3});
  expectError([&] { tensorScatter(cache, update, nullptr, 0, false); }, ErrorCode::Contract,
              {"TensorScatter: axis 0 is the batch axis 0"});
  expectError([&] { tensorScatter(cache, update, nullptr, -3, false); }, ErrorCode::Contract, {"batch axis"});
  expectError([&] { tensorScatter(cache, update, nullptr, 3, false); }, ErrorCode::Contract,
              {"axis 3 is out of range for rank 3"});
  expectError([&] { tensorScatter(iota({4}), iota({1}), nullptr, -1, false); }, ErrorCode::Contract,
              {"past_cache must have rank >= 2"});
  expectError(
      [&] {
        tensorScatter(cache, iota({2, 1, 2}), nullptr, 1, false);
      },
      ErrorCode::Contract, {"must equal past_cache [2, 4, 3] in every dimension but axis 1"});
  expectError(
      [&] {
        tensorScatter(cache, iota({2, 5, 3}), nullptr, 1, false);
      },
      ErrorCode::Contract, {"sequence length 5 exceeds max_sequence_length 4"});
  expectError(
      [&] {
        tensorScatter(cache, of(DType::Float16, {2, 1, 3}, std::vector<double>(6)), nullptr, 1, false);
      },
      ErrorCode::Contract, {"update must have past_cache's dtype float32"});
  const auto three = indices({0, 1, 2});
  expectError([&] { tensorScatter(cache, update, &three, 1, false); }, ErrorCode::Contract,
              {"write_indices must have shape [2]"});
  const HostTensor i32 = of(DType::Int32, {2}, {0, 1});
  expectError([&] { tensorScatter(cache, update, &i32, 1, false); }, ErrorCode::Contract,
              {"write_indices must be int64"});
}

TEST(TensorScatter, RegistryEntryIsLinear) {
  const auto w = indices({3});
  const auto out = reference::runReference(
      "ai.onnx.TensorScatter",
      {{"cache", iota({1, 4, 1})}, {"update", iota({1, 2, 1}, 100)}, {"write_indices", w}}, {{"axis", 1}});
  EXPECT_EQ(out.at("cache").toDoubles(), (std::vector<double>{0, 1, 2, 100}));  // linear: 4 is not written
  const auto dflt = reference::runReference(
      "ai.onnx.TensorScatter", {{"cache", iota({1, 2, 4, 1})}, {"update", iota({1, 2, 1, 1}, 100)}}, {});
  EXPECT_EQ(dflt.at("cache").toDoubles(), (std::vector<double>{100, 1, 2, 3, 101, 5, 6, 7}));  // axis -2
}

// Every output the package's test.json pins (the circular cases, which the harness cannot send to
// the reference: their mode is a string) is what the reference computes.
TEST(TensorScatter, ReproducesEveryPinnedOutputOfTheTestFile) {
  const auto file = package::loadTestFile(
      std::string(WGK_SOURCE_DIR) + "/packages/webgpu-kernels/ai.onnx.TensorScatter/build/webgpu/test.json");
  int pinned = 0;
  for (const auto& c : file.cases) {
    const auto want = package::materializeExpected(c.outputs.at("cache"));
    if (!want) continue;
    SCOPED_TRACE(c.name);
    const auto in = package::materializeInputs(c);
    auto mode = c.attrs.find("mode");
    const bool circular = mode != c.attrs.end() && mode->second.asString() == "circular";
    const auto w = in.find("write_indices");
    const HostTensor got =
        tensorScatter(in.at("cache"), in.at("update"), w == in.end() ? nullptr : &w->second,
                      static_cast<int64_t>(c.attrs.at("axis").asNumber()), circular);
    Tolerance t;
    t.allowNaN = c.outputs.at("cache").allowNaN;
    const CompareResult r = compareTensors(got, *want, t);
    EXPECT_TRUE(r.pass) << r.summary();
    ++pinned;
  }
  EXPECT_GE(pinned, 70);
}

}  // namespace
}  // namespace wgk
