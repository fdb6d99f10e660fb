// test.json / bench.json parsing and data generation.
#include <gtest/gtest.h>

#include <cmath>

#include "core/half.h"
#include "package/test_spec.h"
#include "wgk/error.h"

using namespace wgk;
using namespace wgk::package;

namespace {
// The shape of the public ai.onnx.Add test.json: bare-number tolerance, $ref, fillFloat32, no
// tolerance on an integer output, provenance and skipGpu.
const char* kAddLike = R"({
  "fixtureArrays": {"a": [1.5, -2.0, 0.25, 4.0]},
  "cases": [
    {"name": "vector_19",
     "inputs": {"a": {"dtype": "float32", "shape": [19], "data": {"kind": "fillFloat32", "sinStep": 0.13, "cosStep": 0.29}}},
     "outputs": {"c": {"dtype": "float32", "shape": [19], "tolerance": 0.000001}}},
    {"name": "ref", "variant": "vec4", "skipGpu": {"category": "permanent", "reason": "why"},
     "provenance": {"source": "somewhere"},
     "attrs": {"axis": -1, "epsilon": 1e-6},
     "inputs": {"a": {"dtype": "float16", "shape": [2, 2], "data": {"kind": "values", "values": {"$ref": "#/fixtureArrays/a"}}}},
     "outputs": {"c": {"dtype": "float16", "shape": [2, 2], "tolerance": {"abs": 0.001, "rel": 0.01, "ulp": 2},
                       "allowNaN": true, "data": {"kind": "values", "values": [1, "NaN", "Infinity", "-Infinity"]}}}},
    {"name": "ints",
     "inputs": {"a": {"dtype": "int32", "shape": [3], "data": {"kind": "values", "values": [1, 2, 3]}}},
     "outputs": {"c": {"dtype": "int32", "shape": [3]}}}
  ]})";

void expectError(const std::string& text, bool bench, std::initializer_list<std::string> fragments) {
  try {
    Json j = wgk::parseOrderedJson(text, "test");
    if (bench)
      parseBenchFile(j);
    else
      parseTestFile(j);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    for (const auto& f : fragments)
      EXPECT_NE(std::string(e.what()).find(f), std::string::npos) << "missing '" << f << "' in:\n"
                                                                  << e.what();
  }
}
}  // namespace

TEST(TestFile, ParsesHubShape) {
  TestFile t = parseTestFile(wgk::parseOrderedJson(kAddLike, "add"));
  ASSERT_EQ(t.cases.size(), 3u);
  const TestCase& c0 = t.cases[0];
  EXPECT_EQ(c0.outputs.at("c").tolerance.abs.value_or(-1), 1e-6);
  EXPECT_FALSE(c0.outputs.at("c").tolerance.ulp);
  const TestCase& c1 = *t.findCase("ref");
  EXPECT_EQ(c1.variant.value_or(""), "vec4");
  EXPECT_EQ(c1.skipGpu->category, "permanent");
  EXPECT_EQ(c1.provenance["source"], "somewhere");
  EXPECT_EQ(c1.attrs.at("axis").asInt(), -1);
  const ExpectedOutput& o = c1.outputs.at("c");
  EXPECT_EQ(*o.tolerance.ulp, 2);
  EXPECT_EQ(*o.tolerance.rel, 0.01);
  EXPECT_TRUE(o.allowNaN);
  auto want = materializeExpected(o);
  ASSERT_TRUE(want);
  EXPECT_TRUE(std::isnan(want->at(1)));
  EXPECT_EQ(want->at(2), INFINITY);
  EXPECT_EQ(want->at(3), -INFINITY);
  auto in = materializeInputs(c1);
  EXPECT_EQ(in.at("a").dtype(), DType::Float16);
  EXPECT_EQ(in.at("a").at(2), 0.25);
  // No tolerance means exact.
  const auto& tol = t.cases[2].outputs.at("c").tolerance;
  EXPECT_FALSE(tol.abs || tol.rel || tol.ulp);
}

// Cases of the Hub's real ai.onnx.Add test.json (GitHub StayLameBro/backburner, vendored), verbatim:
// a skipped case with pinned float32 subnormals and tolerance 0, a skipped int16 case (a dtype the
// op does not take), an empty tensor, an int32 output without tolerance, allowNaN false and a
// notes-only provenance.
const char* kHubAddCases = R"({
  "cases": [
    {
      "name": "f32_subnormal_identity_and_cancellation_gpu_gap",
      "skipGpu": {
        "category": "permanent",
        "reason": "Portable WGSL floating-point semantics do not guarantee preservation of the subnormal values required by this fixture."
      },
      "provenance": {
        "source": "onnxruntime/test/providers/cpu/math/element_wise_ops_test.cc",
        "test": "MathOpTest.Add_float",
        "notes": "Finite subnormal addends are valid float32 values; zero-add identity and exact opposite cancellation should not flush unrelated lanes."
      },
      "inputs": {
        "a": { "dtype": "float32", "shape": [4], "data": { "kind": "values", "values": [1e-40, -1e-40, 0.0, 1e-39] } },
        "b": { "dtype": "float32", "shape": [4], "data": { "kind": "values", "values": [0.0, 0.0, 1e-40, -1e-39] } }
      },
      "outputs": {
        "c": { "dtype": "float32", "shape": [4], "tolerance": 0, "data": { "kind": "values", "values": [1e-40, -1e-40, 1e-40, 0.0] } }
      }
    },
    {
      "name": "ort_int16_basic_gpu_gap",
      "skipGpu": { "category": "todo", "reason": "The widened-i32 Add path does not yet restore signed 16-bit wraparound after overflow." },
      "provenance": { "source": "onnxruntime/test/providers/cpu/math/element_wise_ops_test.cc", "test": "MathOpTest.Add_int16" },
      "inputs": {
        "a": { "dtype": "int16", "shape": [3], "data": { "kind": "values", "values": [1, -2, 3] } },
        "b": { "dtype": "int16", "shape": [3], "data": { "kind": "values", "values": [4, 5, 6] } }
      },
      "outputs": { "c": { "dtype": "int16", "shape": [3], "tolerance": 0 } }
    },
    {
      "name": "ort_dim_zero_equal_rank",
      "inputs": {
        "a": { "dtype": "float32", "shape": [3, 1], "data": { "kind": "values", "values": [1.0, 2.0, 3.0] } },
        "b": { "dtype": "float32", "shape": [3, 0], "data": { "kind": "values", "values": [] } }
      },
      "outputs": { "c": { "dtype": "float32", "shape": [3, 0], "tolerance": 0 } }
    },
    {
      "name": "int32_exact_above_float24",
      "inputs": {
        "a": { "dtype": "int32", "shape": [4], "data": { "kind": "values", "values": [16777217, -16777217, 123456789, -123456789] } },
        "b": { "dtype": "int32", "shape": [4], "data": { "kind": "values", "values": [2, -2, 10, -10] } }
      },
      "outputs": { "c": { "dtype": "int32", "shape": [4] } }
    },
    {
      "name": "f16_result_overflows_to_inf",
      "inputs": {
        "a": { "dtype": "float16", "shape": [4], "data": { "kind": "values", "values": [60000.0, -60000.0, 32768.0, 0.0] } },
        "b": { "dtype": "float16", "shape": [4], "data": { "kind": "values", "values": [10000.0, -10000.0, 32768.0, 65504.0] } }
      },
      "outputs": { "c": { "dtype": "float16", "shape": [4], "tolerance": 0, "allowNaN": false } }
    },
    {
      "name": "scalar_b_vec4_route",
      "provenance": { "notes": "One scalar operand broadcasts across a vec4-aligned output." },
      "inputs": {
        "a": { "dtype": "float32", "shape": [2, 8], "data": { "kind": "fillFloat32", "sinStep": 0.17, "cosStep": 0.23, "scale": 1.5 } },
        "b": { "dtype": "float32", "shape": [1], "data": { "kind": "fillFloat32", "sinStep": 0.31, "cosStep": 0.11, "scale": 1.5 } }
      },
      "outputs": { "c": { "dtype": "float32", "shape": [2, 8], "tolerance": 0.000001 } }
    }
  ]})";

TEST(TestFile, ReadsTheHubsAddCases) {
  TestFile t = parseTestFile(wgk::parseOrderedJson(kHubAddCases, "hub add"));
  ASSERT_EQ(t.cases.size(), 6u);
  const TestCase& sub = t.cases[0];
  ASSERT_TRUE(sub.skipGpu);
  EXPECT_EQ(sub.skipGpu->category, "permanent");
  EXPECT_NE(sub.skipGpu->reason.find("subnormal"), std::string::npos);
  EXPECT_EQ(sub.provenance["test"], "MathOpTest.Add_float");
  EXPECT_NE(sub.provenance["notes"].get<std::string>().find("cancellation"), std::string::npos);
  // tolerance 0 is {abs: 0}: exact; the pinned subnormals survive materialisation unflushed.
  const ExpectedOutput& c = sub.outputs.at("c");
  EXPECT_EQ(c.tolerance.abs.value_or(-1), 0.0);
  EXPECT_FALSE(c.tolerance.rel || c.tolerance.ulp);
  auto pinned = materializeExpected(c);
  ASSERT_TRUE(pinned);
  EXPECT_EQ(pinned->at(0), static_cast<double>(1e-40f));
  EXPECT_GT(pinned->at(0), 0.0);
  EXPECT_EQ(materializeInputs(sub).at("b").at(3), static_cast<double>(-1e-39f));
  // A skipped case may use a dtype the op does not take; it still parses and materialises.
  const TestCase& i16 = *t.findCase("ort_int16_basic_gpu_gap");
  EXPECT_EQ(i16.skipGpu->category, "todo");
  EXPECT_EQ(i16.inputs.at("a").dtype, DType::Int16);
  EXPECT_EQ(materializeInputs(i16).at("a").at(1), -2.0);
  EXPECT_FALSE(i16.outputs.at("c").data);
  // An empty tensor: [] values for a zero-size shape.
  const TestCase& empty = *t.findCase("ort_dim_zero_equal_rank");
  EXPECT_EQ(materializeInputs(empty).at("b").numel(), 0);
  EXPECT_EQ(empty.outputs.at("c").shape, (Shape{3, 0}));
  // An integer output without tolerance: exact; no provenance is null.
  const TestCase& ints = *t.findCase("int32_exact_above_float24");
  const Tolerance& it = ints.outputs.at("c").tolerance;
  EXPECT_FALSE(it.abs || it.rel || it.ulp);
  EXPECT_TRUE(ints.provenance.is_null());
  EXPECT_EQ(materializeInputs(ints).at("a").at(0), 16777217.0);
  EXPECT_FALSE(t.findCase("f16_result_overflows_to_inf")->outputs.at("c").allowNaN);
  const TestCase& route = *t.findCase("scalar_b_vec4_route");
  EXPECT_EQ(route.provenance.size(), 1u);
  EXPECT_EQ(route.outputs.at("c").tolerance.abs.value_or(-1), 1e-6);
  EXPECT_FALSE(route.skipGpu);
}

TEST(TestFile, HubFieldErrors) {
  expectError(R"({"cases": [{"name": "x", "skipGpu": {"category": "todo"}, "inputs": {}, "outputs": {}}]})",
              false, {"/cases/0/skipGpu/reason", "missing"});
  expectError(R"({"cases": [{"name": "x", "skipGpu": "yes", "inputs": {}, "outputs": {}}]})", false,
              {"/cases/0/skipGpu"});
  expectError(R"({"cases": [{"name": "x", "provenance": 3, "inputs": {}, "outputs": {}}]})", false,
              {"/cases/0/provenance", "object or a string"});
  expectError(
      R"({"cases": [{"name": "x", "inputs": {}, "outputs": {"c": {"dtype": "int32", "shape": [1], "tolerance": -1}}}]})",
      false, {"/cases/0/outputs/c/tolerance", "negative"});
  expectError(R"({"fixtureArrays": {"a": [1, "x"]}, "cases": []})", false, {"/fixtureArrays/a/1"});
}

TEST(TestFile, FillFloat32Definition) {
  DataSpec d;
  d.kind = DataSpec::Kind::FillFloat32;
  d.sinStep = 0.13;
  d.cosStep = 0.29;
  d.scale = 0.5;
  auto v = generateValues(d, 4);
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(v[i], static_cast<float>(0.5 * (std::sin(i * 0.13) + std::cos(i * 0.29))));
  EXPECT_EQ(v[0], 0.5);
}

TEST(TestFile, RandomIsSplitmix64) {
  // splitmix64 from state 0: the first output is 0xE220A8397B1DCDAF (the published test vector).
  uint64_t state = 0;
  EXPECT_EQ(splitmixUniform(state), static_cast<double>(0xE220A8397B1DCDAFull >> 11) * 0x1.0p-53);
  DataSpec d;
  d.kind = DataSpec::Kind::Random;
  d.seed = 42;
  d.min = -2;
  d.max = 6;
  auto a = generateValues(d, 1000);
  auto b = generateValues(d, 1000);
  EXPECT_EQ(a, b);
  double lo = 1e9, hi = -1e9;
  for (double x : a) lo = std::min(lo, x), hi = std::max(hi, x);
  EXPECT_GE(lo, -2);
  EXPECT_LT(hi, 6);
  EXPECT_LT(lo, -1.9);
  EXPECT_GT(hi, 5.9);
  HostTensor h = materialize(d, DType::Float16, {10});
  for (int i = 0; i < 10; ++i) EXPECT_EQ(h.at(i), roundToHalf(static_cast<float>(a[i])));
}

// Large tensors are generated a chunk at a time straight into the tensor: the same bytes as the
// values generated whole, for every kind of data (random continues its stream across chunks).
TEST(TestFile, ChunkedGenerationEqualsWholeGeneration) {
  const int64_t n = 200003;  // four chunks of 2^16, the last partial
  DataSpec random;
  random.kind = DataSpec::Kind::Random;
  random.seed = 7;
  random.min = -3;
  random.max = 1000;
  DataSpec wave;
  wave.kind = DataSpec::Kind::FillFloat32;
  wave.sinStep = 0.01;
  wave.cosStep = 0.003;
  wave.scale = 2;
  DataSpec values;
  values.kind = DataSpec::Kind::Values;
  for (int64_t i = 0; i < n; ++i) values.values.push_back(static_cast<double>(i % 977));
  for (const DataSpec* d : {&random, &wave, &values})
    for (DType t : {DType::Float32, DType::Float16, DType::Int32}) {
      if (t == DType::Int32 && d == &wave) continue;
      std::vector<double> whole = generateValues(*d, n);
      if (t == DType::Int32 && d->kind == DataSpec::Kind::Random)
        for (double& x : whole) x = std::floor(x);
      const HostTensor want = HostTensor::fromDoubles(t, {n}, whole);
      const HostTensor got = materialize(*d, t, {n});
      ASSERT_EQ(got.byteSize(), want.byteSize());
      EXPECT_TRUE(std::equal(got.bytes().begin(), got.bytes().end(), want.bytes().begin()))
          << "data kind " << static_cast<int>(d->kind) << ", " << dtypeName(t);
    }
}

TEST(TestFile, Errors) {
  expectError(R"({"cases": [{"name": "x", "inputs": {}, "outputs": {}, "extra": 1}]})", false,
              {"/cases/0/extra", "unknown field"});
  expectError(
      R"({"cases": [{"name": "x", "inputs": {"a": {"dtype": "float32", "shape": [2], "data": {"kind": "values", "values": [1]}}}, "outputs": {}}]})",
      false, {"/cases/0/inputs/a/data", "1 values"});
  expectError(
      R"({"cases": [{"name": "x", "inputs": {"a": {"dtype": "float33", "shape": [2], "data": {"kind": "fill", "value": 1}}}, "outputs": {}}]})",
      false, {"/cases/0/inputs/a/dtype", "float33"});
  expectError(
      R"({"cases": [{"name": "x", "inputs": {"a": {"dtype": "float32", "shape": [1], "data": {"kind": "values", "values": {"$ref": "#/fixtureArrays/zz"}}}}, "outputs": {}}]})",
      false, {"no fixture array 'zz'"});
  expectError(
      R"({"cases": [{"name": "x", "inputs": {"a": {"dtype": "float32", "shape": [1], "data": {"kind": "gauss"}}}, "outputs": {}}]})",
      false, {"/cases/0/inputs/a/data/kind", "unknown data kind"});
  expectError(
      R"({"cases": [{"name": "x", "inputs": {}, "outputs": {"y": {"dtype": "float32", "shape": [1], "tolerance": {"abs": -1}}}}]})",
      false, {"/cases/0/outputs/y/tolerance", "negative"});
  expectError(
      R"({"cases": [{"name": "x", "inputs": {}, "outputs": {}}, {"name": "x", "inputs": {}, "outputs": {}}]})",
      false, {"/cases/1/name", "duplicate"});
  expectError(
      R"({"cases": [{"name": "x", "inputs": {"a": {"dtype": "float32", "shape": [1]}}, "outputs": {}}]})",
      false, {"/cases/0/inputs/a/data", "missing"});
}

TEST(BenchFile, ParsesAndDefaultsToSeededRandom) {
  const char* text = R"({
    "cases": [
      {"name": "decode_16384_f16", "tags": ["decode"], "description": "one token",
       "inputs": {"x": {"dtype": "float16", "shape": [1, 16384]}, "scale": {"dtype": "float16", "shape": [16384],
                  "data": {"kind": "fill", "value": 1}}},
       "attrs": {"epsilon": 1e-6}, "absent": ["bias"]}
    ],
    "report": {"warmup": 3, "iterations": 20}})";
  BenchFile b = parseBenchFile(wgk::parseOrderedJson(text, "bench"));
  ASSERT_EQ(b.cases.size(), 1u);
  EXPECT_EQ(b.report.iterations, 20);
  EXPECT_EQ(b.cases[0].absent, std::vector<std::string>{"bias"});
  auto in = materializeInputs(b.cases[0]);
  EXPECT_EQ(in.at("scale").at(5), 1.0);
  DataSpec d;
  d.kind = DataSpec::Kind::Random;
  d.seed = fnv1a64("decode_16384_f16:x");
  HostTensor want = materialize(d, DType::Float16, {1, 16384});
  EXPECT_EQ(in.at("x").toFloats(), want.toFloats());
  EXPECT_EQ(bytesMoved(in, {{"y", {DType::Float16, {1, 16384}}}}), 16384u * 2 * 3);
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_FALSE(b.cases[0].flops.has_value());
}

// `flops` (floating-point operations of one call, the package's own count) and the `compute` tag.
TEST(BenchFile, FlopsAndTheComputeTag) {
  const char* text = R"({"cases": [
    {"name": "mm_4096_f16", "tags": ["prefill", "compute"], "flops": 137438953472,
     "inputs": {"a": {"dtype": "float16", "shape": [4096, 4096]}, "b": {"dtype": "float16", "shape": [4096, 4096]}}}]})";
  BenchFile b = parseBenchFile(wgk::parseOrderedJson(text, "bench"));
  ASSERT_TRUE(b.cases[0].flops.has_value());
  EXPECT_DOUBLE_EQ(*b.cases[0].flops, 2.0 * 4096 * 4096 * 4096);
  EXPECT_EQ(b.cases[0].tags, (std::vector<std::string>{"prefill", "compute"}));
  expectError(R"({"cases": [{"name": "a", "flops": -1, "inputs": {}}]})", true, {"/cases/0/flops", ">= 0"});
  expectError(R"({"cases": [{"name": "a", "flops": "many", "inputs": {}}]})", true, {"/cases/0/flops"});
}

TEST(BenchFile, Errors) {
  expectError(R"({"cases": [{"name": "a", "tags": ["fast"], "inputs": {}}]})", true,
              {"/cases/0/tags/0", "unknown tag"});
  expectError(
      R"({"cases": [{"name": "a", "inputs": {"x": {"dtype": "float32", "shape": [1]}}, "absent": ["x"]}]})",
      true, {"/cases/0/absent/0", "both"});
  expectError(R"({"cases": [], "report": {"iterations": 0}})", true, {"/report"});
  expectError(R"({"cases": [{"name": "a", "inputs": {"x": {"dtype": "float32", "shape": [-1]}}}]})", true,
              {"/cases/0/inputs/x/shape/0", "negative"});
}
