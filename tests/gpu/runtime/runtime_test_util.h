// Shared pieces of the runtime tests: one Runtime per test process (a lavapipe device costs more
// than most tests), the embedded kernels by repo id, seeded inputs and comparison with the CPU
// references under the tolerances of docs/tolerances.md.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <variant>

#include "reference/compare.h"
#include "reference/random.h"
#include "reference/registry.h"
#include "wgk/wgk.h"

namespace wgk::runtime_test {

inline const char* kGelu = "com.microsoft.FastGelu";
inline const char* kRms = "ai.onnx.RMSNormalization";
inline const char* kRope = "com.microsoft.GemmaRotaryEmbedding";

inline Runtime& runtime() {
  static std::shared_ptr<Runtime> rt = Runtime::create();
  return *rt;
}

inline Kernel kernel(const std::string& opId) {
  return runtime().load("webgpu-kernels/" + opId, {.version = 1});
}

inline HostTensor rnd(DType dtype, const Shape& shape, uint64_t seed, double lo = -3, double hi = 3) {
  return reference::randomTensor(dtype, shape, seed, lo, hi);
}

// The tolerance docs/tolerances.md gives for an op's output dtype (and, for RMSNorm, input dtype).
inline Tolerance toleranceFor(const std::string& opId, DType out, DType in) {
  Tolerance t;
  if (opId == kGelu) {
    if (out == DType::Float16)
      t.ulp = 1;
    else
      t.abs = 1e-7, t.rel = 1e-5;
  } else if (opId == kRms) {
    if (out == DType::Float16)
      t.ulp = 2;
    else if (in == DType::Float16)
      t.rel = 2e-3, t.abs = 2.5e-7;
    else
      t.rel = 2e-6, t.abs = 1e-30;
  } else {
    t.ulp = 1, t.abs = 0.004;
  }
  return t;
}

inline std::map<std::string, double> numericAttrs(const std::map<std::string, Attribute>& attrs) {
  std::map<std::string, double> out;
  for (const auto& [k, v] : attrs) {
    if (auto* i = std::get_if<int64_t>(&v))
      out[k] = static_cast<double>(*i);
    else if (auto* d = std::get_if<double>(&v))
      out[k] = *d;
    else
      ADD_FAILURE() << "attribute " << k << " is not a number";
  }
  return out;
}

// Every output of `got` equals the CPU reference of `inputs` within the op's tolerance; returns
// a description of the first mismatch, empty when all match (usable from any thread).
inline std::string mismatch(const std::string& opId, const std::map<std::string, HostTensor>& inputs,
                            const std::map<std::string, HostTensor>& got,
                            const std::map<std::string, Attribute>& attrs = {}) {
  const auto want = reference::runReference(opId, inputs, numericAttrs(attrs));
  if (got.size() != want.size())
    return "got " + std::to_string(got.size()) + " outputs, want " + std::to_string(want.size());
  const DType in = inputs.begin()->second.dtype();
  for (const auto& [name, w] : want) {
    auto it = got.find(name);
    if (it == got.end()) return "output '" + name + "' missing";
    const CompareResult r = compareTensors(it->second, w, toleranceFor(opId, w.dtype(), in));
    if (!r.pass) return opId + " output '" + name + "': " + r.summary();
  }
  return {};
}

inline void expectMatchesReference(const std::string& opId, const std::map<std::string, HostTensor>& inputs,
                                   const std::map<std::string, HostTensor>& got,
                                   const std::map<std::string, Attribute>& attrs = {}) {
  const std::string m = mismatch(opId, inputs, got, attrs);
  EXPECT_TRUE(m.empty()) << m;
}

// Bit-for-bit equality (same kernels on the same data must agree exactly).
inline bool sameBytes(const HostTensor& a, const HostTensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && a.byteSize() == b.byteSize() &&
         std::equal(a.bytes().begin(), a.bytes().end(), b.bytes().begin());
}

// The five RoPE inputs of shape [b, h, s, d] (emb [b, s, d] f32 with large angles, the rest f16).
inline std::map<std::string, HostTensor> ropeInputs(int64_t b, int64_t h, int64_t s, int64_t d,
                                                    uint64_t seed) {
  return {{"embT", rnd(DType::Float32, {b, s, d}, seed, 0, 300)},
          {"qT", rnd(DType::Float16, {b, h, s, d}, seed + 1, -4, 4)},
          {"qRotT", rnd(DType::Float16, {b, h, s, d}, seed + 2, -4, 4)},
          {"kT", rnd(DType::Float16, {b, h, s, d}, seed + 3, -4, 4)},
          {"kRotT", rnd(DType::Float16, {b, h, s, d}, seed + 4, -4, 4)}};
}

inline std::map<std::string, TensorRef> refsOf(const std::map<std::string, HostTensor>& tensors) {
  std::map<std::string, TensorRef> out;
  for (const auto& [k, v] : tensors) out.emplace(k, TensorRef(v));
  return out;
}

}  // namespace wgk::runtime_test
