// RMSNormalization with stash_type 10: the parallel variants stash_f16_rows_f16x8 and
// stash_f16_rows add the f16 squares in their documented tree order, bit for bit, on random data
// of every shape they take (the CPU reference of that order: rmsNormalizationStashF16Tree); the
// seed's stash_f16_serial adds them in index order (the op's reference). test.json compares every
// variant with the one op reference, so the order itself is checked here.
#include <cmath>

#include "reference/ops.h"
#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

const std::map<std::string, Attribute> kStash{{"stash_type", int64_t{10}}};

// "" when a and b hold the same bits, else the first element that differs.
std::string firstDifference(const HostTensor& got, const HostTensor& want) {
  if (sameBytes(got, want)) return {};
  if (got.shape() != want.shape() || got.dtype() != want.dtype()) return "shape or dtype differs";
  const auto g = got.toDoubles(), w = want.toDoubles();
  for (size_t i = 0; i < g.size(); ++i)
    if (g[i] != w[i] && !(std::isnan(g[i]) && std::isnan(w[i])))
      return "element " + std::to_string(i) + ": got " + std::to_string(g[i]) + ", want " +
             std::to_string(w[i]);
  return "the bits differ (signed zeros)";
}

HostTensor run(Kernel& rms, const std::map<std::string, HostTensor>& in, const std::string& variant,
               std::map<std::string, Attribute> attrs = kStash) {
  CallResult r = rms.call(refsOf(in), {.attrs = std::move(attrs), .variant = variant});
  EXPECT_EQ(r.variant, variant);
  return r.host.at("y");
}

TEST(RmsStashOrder, ParallelVariantsAddInTheTreeOrder) {
  Kernel rms = kernel(kRms);
  struct Case {
    Shape x, scale;
    DType t, v;
    int64_t axis;
    double lo, hi;
  };
  const Case cases[] = {
      {{48, 4096}, {4096}, DType::Float16, DType::Float16, -1, -3, 3},       // 2 words per slot, cached
      {{8, 40960}, {40960}, DType::Float16, DType::Float16, -1, -2, 2},      // 20 words per slot: re-read
      {{4, 1000}, {1000}, DType::Float16, DType::Float16, -1, -4, 4},        // 125 words, 128 slots
      {{2, 2048}, {2048}, DType::Float16, DType::Float16, -1, -0.02, 0.02},  // squares in f16 subnormals
      {{2, 64}, {64}, DType::Float16, DType::Float16, -1, -300, 300},        // squares overflow to inf
      {{3, 1001}, {1001}, DType::Float16, DType::Float16, -1, -3, 3},        // not words of 8: general only
      {{2, 3, 40}, {3, 1}, DType::Float32, DType::Float16, -2, -3, 3},       // f32 in, suffix axis, broadcast
      {{2, 600}, {600}, DType::Float16, DType::Float32, -1, -3, 3},          // f16 in, f32 out
  };
  uint64_t seed = 900;
  for (const Case& c : cases) {
    const std::map<std::string, HostTensor> in{{"x", rnd(c.t, c.x, seed++, c.lo, c.hi)},
                                               {"scale", rnd(c.v, c.scale, seed++, -2, 2)}};
    std::map<std::string, Attribute> attrs = kStash;
    attrs["axis"] = c.axis;
    const HostTensor want = reference::rmsNormalizationStashF16Tree(in.at("x"), in.at("scale"), c.axis, 1e-5);
    const bool words = c.axis == -1 && c.t == DType::Float16 && c.v == DType::Float16 && c.x.back() % 8 == 0;
    for (const std::string v : {"stash_f16_rows_f16x8", "stash_f16_rows"}) {
      if (v == "stash_f16_rows_f16x8" && !words) continue;
      SCOPED_TRACE(v + " on case " + std::to_string(seed));
      const std::string d = firstDifference(run(rms, in, v, attrs), want);
      EXPECT_TRUE(d.empty()) << d;
    }
  }
}

TEST(RmsStashOrder, SerialVariantAddsInIndexOrder) {
  Kernel rms = kernel(kRms);
  const std::map<std::string, HostTensor> in{{"x", rnd(DType::Float16, {3, 4096}, 950)},
                                             {"scale", rnd(DType::Float16, {4096}, 951, -2, 2)}};
  const HostTensor want = reference::rmsNormalization(in.at("x"), in.at("scale"), -1, 1e-5, 10);
  const std::string d = firstDifference(run(rms, in, "stash_f16_serial"), want);
  EXPECT_TRUE(d.empty()) << d;
}

// Where the orders part: 4096 ones. Index order stops at 2048 (2048 + 1 rounds back to 2048),
// so mean = 0.5 and n = f16(1 / f16(sqrt(0.5))) = 1.4140625; the tree adds exactly to 4096, so
// n = 1, the true answer.
TEST(RmsStashOrder, OrdersPartOnLongRows) {
  Kernel rms = kernel(kRms);
  const std::map<std::string, HostTensor> in{
      {"x", HostTensor::fromDoubles(DType::Float16, {1, 4096}, std::vector<double>(4096, 1.0))},
      {"scale", HostTensor::fromDoubles(DType::Float16, {4096}, std::vector<double>(4096, 1.0))}};
  EXPECT_EQ(run(rms, in, "stash_f16_serial").at(0), 1.4140625);
  EXPECT_EQ(run(rms, in, "stash_f16_rows_f16x8").at(4095), 1.0);
  EXPECT_EQ(run(rms, in, "stash_f16_rows").at(17), 1.0);
}

}  // namespace
}  // namespace wgk::runtime_test
