// Shared helpers of the plan tests: seed packages, device profiles, requests, error matching.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "plan/plan.h"
#include "wgk/error.h"

namespace wgk::plan::test {

std::shared_ptr<const package::Package> seedPackage(const std::string& id);  // "com.microsoft.FastGelu"
const DeviceProfile& profile(const std::string& name);  // tests/data/profiles/<name>.json
const Planner& seedPlanner(const std::string& id);

PlanRequest request(std::initializer_list<std::pair<std::string, TensorDesc>> inputs,
                    std::initializer_list<std::pair<std::string, expr::Value>> attrs = {});
Plan planSeed(const std::string& id, const PlanRequest& r, const std::string& profileName);
const VariantVerdict& verdict(const Plan& p, const std::string& id);
std::string hex(const std::vector<uint8_t>& bytes);

std::string readFile(const std::string& path);  // the whole file, bytes as they are
std::string code(const std::string& wgsl);      // the WGSL without // comments (code only)
inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs fn, expects Error(code) whose text holds every fragment; returns the text.
std::string expectError(ErrorCode code, const std::function<void()>& fn,
                        std::initializer_list<std::string> fragments);

inline TensorDesc f32(Shape s) {
  return {DType::Float32, std::move(s)};
}
inline TensorDesc f16(Shape s) {
  return {DType::Float16, std::move(s)};
}

// GemmaRotaryEmbedding's five inputs for q/k of [b, h, s, d] (emb [b, s, d] in f32).
inline PlanRequest ropeRequest(int64_t b, int64_t h, int64_t s, int64_t d) {
  return request({{"embT", f32({b, s, d})},
                  {"qT", f16({b, h, s, d})},
                  {"qRotT", f16({b, h, s, d})},
                  {"kT", f16({b, h, s, d})},
                  {"kRotT", f16({b, h, s, d})}});
}

}  // namespace wgk::plan::test
