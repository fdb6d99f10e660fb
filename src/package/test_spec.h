// test.json (SPEC.md §5) and bench.json (docs/formats.md) as typed data.
//
//   wgk::package::TestFile t = wgk::package::loadTestFile(pkg->webgpuDir() / "test.json");
//   for (const auto& c : t.cases) {
//     auto inputs = wgk::package::materializeInputs(c);   // arg -> HostTensor
//     ...
//   }
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "expr/value.h"
#include "package/json_reader.h"
#include "package/tensor_data.h"
#include "wgk/tensor.h"

namespace wgk::package {

struct TensorSpec {
  DType dtype = DType::Float32;
  Shape shape;
  std::optional<DataSpec> data;  // absent: bench default random / test expected from the reference
};

// An element passes when |got - want| <= abs + rel*|want| (if abs or rel is given) OR its ulp
// distance in the output dtype is <= ulp (if given). No tolerance at all means exact (abs 0).
// A bare number in the file is {abs: number}.
struct Tolerance {
  std::optional<double> abs, rel;
  std::optional<int64_t> ulp;
};

struct ExpectedOutput {
  DType dtype = DType::Float32;
  Shape shape;
  Tolerance tolerance;
  std::optional<DataSpec> data;  // absent: the harness computes it with the CPU reference
  bool allowNaN = false;
};

struct SkipGpu {
  std::string category, reason;
};

struct TestCase {
  std::string name;
  std::string description;
  std::optional<std::string> variant;  // the variant the case targets (informational)
  std::optional<SkipGpu> skipGpu;
  Json provenance;  // free-form object (or string), kept as written (null when absent)
  std::map<std::string, expr::Value> attrs;
  std::map<std::string, TensorSpec> inputs;  // absent optional inputs are simply not listed
  std::map<std::string, ExpectedOutput> outputs;
};

struct TestFile {
  FixtureArrays fixtureArrays;
  std::vector<TestCase> cases;
  const TestCase* findCase(std::string_view name) const;
};

TestFile parseTestFile(const Json& j);
TestFile loadTestFile(const std::string& file);

// Every input of a case as a HostTensor (a TensorSpec without data is an error in test.json).
std::map<std::string, HostTensor> materializeInputs(const TestCase& c);
// The expected output, when the case gives data.
std::optional<HostTensor> materializeExpected(const ExpectedOutput& o);

struct BenchCase {
  std::string name;
  std::string description;
  std::vector<std::string> tags;  // "decode", "prefill", "large", "compute", "smoke"
  std::map<std::string, TensorSpec> inputs;
  std::map<std::string, expr::Value> attrs;
  std::vector<std::string> absent;  // optional inputs left out explicitly
  // Floating-point operations of one call (2*M*N*K for a MatMul), as the package declares them:
  // the harness reports TFLOPS and the share of the device's FMA / matrix peak (no op knowledge).
  std::optional<double> flops;
};

struct BenchReport {
  int64_t warmup = 5;       // untimed runs before measuring
  int64_t iterations = 50;  // timed runs; the harness reports min/median/mean
};

struct BenchFile {
  std::vector<BenchCase> cases;
  BenchReport report;
  const BenchCase* findCase(std::string_view name) const;
};

BenchFile parseBenchFile(const Json& j);
BenchFile loadBenchFile(const std::string& file);

// Inputs of a bench case; inputs without data get {"kind": "random", "seed":
// fnv1a64("<case>:<arg>"), "min": -1, "max": 1}.
std::map<std::string, HostTensor> materializeInputs(const BenchCase& c);

// Minimum bytes the op must move: sum of input and output tensor bytes (outputs by the caller,
// usually from a plan). The harness divides it by GPU time for GB/s.
uint64_t bytesMoved(const std::map<std::string, HostTensor>& inputs,
                    const std::map<std::string, std::pair<DType, Shape>>& outputs);

}  // namespace wgk::package
