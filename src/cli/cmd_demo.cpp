// wgk demo [--json] [hub options]: the README's main command. Runs each embedded kernel on sample
// inputs of realistic small shapes (float16 and float32 where the op allows) on the local device,
// checks every output against the CPU reference with the tolerance the package's test.json uses for
// that dtype combination, and prints one line per sample: package, variant, shape, dtype, max abs
// and ulp error, GPU time of a warm call (timestamp queries), pass/fail. Exit 1 when any fails.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/shape_text.h"
#include "cli/command.h"
#include "cli/support_runtime.h"
#include "cli/support_terminal.h"
#include "core/device_profile.h"
#include "harness/card.h"
#include "harness/test_runner.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace {

using wgk::DType;
using wgk::Shape;
namespace package = wgk::package;

struct Sample {
  std::string op;     // "com.microsoft.FastGelu"
  std::string shape;  // for the table: "1x128x3072 + bias"
  package::TestCase c;
};

package::TensorSpec randomTensor(DType dtype, Shape shape, uint64_t seed, double lo, double hi) {
  package::DataSpec data;
  data.kind = package::DataSpec::Kind::Random;
  data.seed = seed;
  data.min = lo;
  data.max = hi;
  return {dtype, std::move(shape), data};
}

// Expected outputs carry dtype and shape only: prepareCase fills them from the CPU reference.
package::ExpectedOutput expected(DType dtype, Shape shape) {
  package::ExpectedOutput o;
  o.dtype = dtype;
  o.shape = std::move(shape);
  return o;
}

std::vector<Sample> samples() {
  std::vector<Sample> out;
  uint64_t seed = 1;
  // FastGelu: a prefill MLP activation with bias (hidden 3072), and a decode row whose width is not
  // a multiple of four (the tail path) without bias.
  for (const auto& [shape, bias] :
       std::vector<std::pair<Shape, bool>>{{{1, 128, 3072}, true}, {{1, 1, 1030}, false}})
    for (DType t : {DType::Float16, DType::Float32}) {
      Sample s{"com.microsoft.FastGelu", wgk::joinDims(shape, "x") + (bias ? " + bias" : ""), {}};
      s.c.name = "demo-gelu-" + wgk::joinDims(shape, "x");
      s.c.inputs["X"] = randomTensor(t, shape, seed++, -6, 6);
      if (bias) s.c.inputs["bias"] = randomTensor(t, {shape.back()}, seed++, -0.5, 0.5);
      s.c.outputs["Y"] = expected(t, shape);
      out.push_back(std::move(s));
    }
  // RMSNormalization over the last axis: a prefill block (hidden 2048) and one decode token of a
  // wide model (hidden 16384), epsilon as in Llama-style models.
  for (const Shape& shape : {Shape{1, 64, 2048}, Shape{1, 1, 16384}})
    for (DType t : {DType::Float16, DType::Float32}) {
      Sample s{"ai.onnx.RMSNormalization", wgk::joinDims(shape, "x"), {}};
      s.c.name = "demo-rms-" + wgk::joinDims(shape, "x");
      s.c.inputs["x"] = randomTensor(t, shape, seed++, -3, 3);
      s.c.inputs["scale"] = randomTensor(t, {shape.back()}, seed++, 0.5, 1.5);
      s.c.attrs["epsilon"] = wgk::expr::Value(1e-6);
      s.c.outputs["y"] = expected(t, shape);
      out.push_back(std::move(s));
    }
  // Add (the Hub's spec 2.1 manifest): the residual add of a prefill block (hidden 3072) and a bias
  // row broadcast over it.
  for (bool bias : {false, true})
    for (DType t : {DType::Float16, DType::Float32}) {
      const Shape shape{1, 128, 3072};
      Sample s{"ai.onnx.Add", wgk::joinDims(shape, "x") + (bias ? " + 3072" : " + same"), {}};
      s.c.name = std::string("demo-add-") + (bias ? "bias" : "residual");
      s.c.inputs["a"] = randomTensor(t, shape, seed++, -3, 3);
      s.c.inputs["b"] = randomTensor(t, bias ? Shape{3072} : shape, seed++, -3, 3);
      s.c.outputs["c"] = expected(t, shape);
      out.push_back(std::move(s));
    }
  // Softmax (the Hub's spec 2.1 manifest): one token's attention scores (32 heads over 1024 keys)
  // and a prefill block of 64 queries in 8 heads, along the last axis.
  for (const Shape& shape : {Shape{1, 32, 1, 1024}, Shape{1, 8, 64, 64}})
    for (DType t : {DType::Float16, DType::Float32}) {
      Sample s{"ai.onnx.Softmax", wgk::joinDims(shape, "x"), {}};
      s.c.name = "demo-softmax-" + wgk::joinDims(shape, "x");
      s.c.inputs["x"] = randomTensor(t, shape, seed++, -8, 8);
      s.c.outputs["y"] = expected(t, shape);
      out.push_back(std::move(s));
    }
  // GemmaRotaryEmbedding (float16 only): prefill with 8 heads and decode with 16, head dim 256;
  // angles up to 4096 rad as position x inverse frequency reaches them.
  for (const Shape& q : {Shape{1, 8, 64, 256}, Shape{1, 16, 1, 256}}) {
    Sample s{"com.microsoft.GemmaRotaryEmbedding", wgk::joinDims(q, "x"), {}};
    s.c.name = "demo-gemma-" + wgk::joinDims(q, "x");
    s.c.inputs["embT"] = randomTensor(DType::Float32, {q[0], q[2], q[3]}, seed++, 0, 4096);
    for (const char* name : {"qT", "qRotT", "kT", "kRotT"})
      s.c.inputs[name] = randomTensor(DType::Float16, q, seed++, -4, 4);
    s.c.outputs["output1T"] = expected(DType::Float16, q);
    s.c.outputs["output2T"] = expected(DType::Float16, q);
    out.push_back(std::move(s));
  }
  return out;
}

// The sample's dtypes as one word: "float16", or "float16 -> float32" for mixed signatures.
std::string dtypeLabel(const package::TestCase& c) {
  std::string in, out;
  for (const auto& [n, t] : c.inputs)
    if (t.dtype != DType::Float32 || in.empty()) in = std::string(wgk::dtypeName(t.dtype));
  for (const auto& [n, o] : c.outputs) out = std::string(wgk::dtypeName(o.dtype));
  return in == out ? out : in + " -> " + out;
}

// Runs one sample; errors (no tolerance to check with, failing call) become an "error" outcome.
wgk::harness::TestOutcome runSample(wgk::Runtime& rt, const wgk::cli::HubCliOptions& hub, Sample& s) {
  wgk::harness::TestOutcome failed;
  failed.caseName = s.c.name;
  failed.status = "error";
  try {
    wgk::Kernel kernel = rt.load("webgpu-kernels/" + s.op, wgk::cli::loadOptionsFor(hub));
    const auto& pkg = wgk::introspect::package(kernel);
    const package::TestFile tests = package::loadTestFile((pkg.webgpuDir() / "test.json").string());
    std::map<std::string, DType> inputDtypes;
    for (const auto& [name, t] : s.c.inputs) inputDtypes[name] = t.dtype;
    const std::string signature = wgk::harness::inputDtypesText(pkg.manifest(), inputDtypes);
    for (auto& [name, o] : s.c.outputs) {
      const std::string outDtype(wgk::dtypeName(o.dtype));
      auto tol = wgk::harness::typicalTolerance(pkg.manifest(), tests, outDtype, signature);
      if (!tol)
        throw wgk::Error(wgk::ErrorCode::Manifest, "test.json of " + s.op + " checks no " + outDtype +
                                                       " output '" + name + "' for inputs " + signature +
                                                       ", so there is no tolerance to check the demo with");
      o.tolerance = *tol;
    }
    const auto prepared = wgk::harness::prepareCase(pkg.manifest().id(), s.c);
    // The first call compiles the pipeline, which lavapipe does lazily inside the timed pass; the
    // table reports the second, warm call. Both are checked.
    wgk::harness::TestOutcome cold = wgk::harness::runTestCase(kernel, s.c, prepared, "");
    if (cold.status != "pass") return cold;
    return wgk::harness::runTestCase(kernel, s.c, prepared, "");
  } catch (const wgk::Error& e) {
    failed.detail = e.what();
    return failed;
  }
}

std::string toleranceSummary(const package::TestCase& c) {
  return c.outputs.empty() ? "" : wgk::harness::toleranceText(c.outputs.begin()->second.tolerance);
}

void addDemoCommand(CLI::App& app) {
  struct State {
    bool json = false;
    wgk::cli::HubCliOptions hub;
  };
  auto s = std::make_shared<State>();
  auto* cmd = app.add_subcommand(
      "demo",
      "Run each embedded kernel on sample inputs on the local device, checked against the CPU reference");
  cmd->add_flag("--json", s->json, "print one JSON object instead of the table");
  wgk::cli::addHubOptions(cmd, s->hub);
  cmd->callback([s] {
    auto rt = wgk::cli::openRuntime(s->hub);
    const auto& info = rt->device().adapterInfoStrings;
    const std::string device = info.count("description") ? info.at("description") : "?";
    if (!s->json) {
      std::printf("wgk demo on %s: embedded kernels on sample inputs, checked against the CPU reference\n\n",
                  device.c_str());
    }
    wgk::cli::Table table({"package", "variant", "shape", "dtype", "max abs", "max ulp", "gpu us", "result"},
                          {false, false, false, false, true, true, true, false});
    wgk::cli::Progress progress("demo");
    nlohmann::json results = nlohmann::json::array();
    int passed = 0, failed = 0;
    auto all = samples();
    for (size_t i = 0; i < all.size(); ++i) {
      Sample& sample = all[i];
      if (!s->json && wgk::cli::Progress::isTerminal())
        progress.show(sample.op + " " + sample.shape, i, all.size());
      wgk::harness::TestOutcome o = runSample(*rt, s->hub, sample);
      const bool ok = o.status == "pass";
      (ok ? passed : failed)++;
      const std::string dtype = dtypeLabel(sample.c);
      if (s->json) {
        nlohmann::json j = o.toJson();
        j["package"] = sample.op;
        j["shape"] = sample.shape;
        j["dtype"] = dtype;
        j["tolerance"] = toleranceSummary(sample.c);
        results.push_back(j);
        continue;
      }
      char gpu[32] = "-";
      if (o.gpuUs >= 0) std::snprintf(gpu, sizeof gpu, "%.1f", o.gpuUs);
      table.add({sample.op, o.variant.empty() ? "-" : o.variant, sample.shape, dtype,
                 wgk::cli::format("%.3g", o.maxAbsError), wgk::cli::format("%.3g", o.maxUlpError), gpu,
                 ok ? "PASS" : (o.status == "fail" ? "FAIL" : "ERROR")});
      if (!ok) table.add({"    " + o.detail});
    }
    progress.clear();
    if (!s->json) table.print(stdout);
    if (s->json) {
      nlohmann::json j = {{"device", wgk::toJson(rt->device())},
                          {"passed", passed},
                          {"failed", failed},
                          {"results", results}};
      std::cout << j.dump(2) << "\n";
    } else {
      std::printf("\n%d passed, %d failed\n", passed, failed);
    }
    if (failed) wgk::cli::exitCode().value = 1;
  });
}

}  // namespace

WGK_REGISTER_COMMAND(addDemoCommand);
