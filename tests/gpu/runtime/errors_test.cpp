// The errors a user meets (issue 4, item 6): each has the right code and a message that says what
// was wrong with the values involved; none poisons the runtime for the next call, and repeating
// them leaks nothing (the pool, the pipelines and the bind groups stay as they were).
#include <gtest/gtest.h>

#include <functional>

#include "runtime_test_util.h"

namespace wgk::runtime_test {
namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Runs fn, expects Error(code) whose text holds every one of `parts`; returns the full text.
std::string expectError(ErrorCode code, const std::vector<std::string>& parts,
                        const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << "got " << errorCodeName(e.code()) << ": " << e.what();
    for (const auto& p : parts) EXPECT_TRUE(has(e.what(), p)) << "missing '" << p << "' in:\n" << e.what();
    return e.what();
  }
  ADD_FAILURE() << "expected a wgk::Error (" << errorCodeName(code) << ")";
  return {};
}

// A correct call right after an error: nothing is poisoned.
void expectRuntimeStillWorks() {
  Kernel gelu = kernel(kGelu);
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float16, {4, 64}, 99, -6, 6)},
                                       {"bias", rnd(DType::Float16, {64}, 98, -1, 1)}};
  expectMatchesReference(kGelu, in, gelu(in));
  DeviceTensor xd = runtime().upload(in.at("X"));
  CallResult r = gelu.call({{"X", xd}, {"bias", in.at("bias")}});
  expectMatchesReference(kGelu, in, {{"Y", runtime().download(r.device.at("Y"))}});
}

// One failing call, then 20 more: the caches and the pool do not move between the 1st and 21st.
void expectNoLeak(const std::function<void()>& failing) {
  auto once = [&] {
    try {
      failing();
    } catch (const Error&) {
    }
  };
  once();
  const CacheStats a = runtime().cacheStats();
  for (int i = 0; i < 20; ++i) once();
  const CacheStats b = runtime().cacheStats();
  EXPECT_EQ(b.pooledBuffers, a.pooledBuffers);
  EXPECT_EQ(b.shaderModulesCompiled, a.shaderModulesCompiled);
  EXPECT_EQ(b.bindGroupMisses, a.bindGroupMisses);
}

class RuntimeErrors : public ::testing::Test {
 protected:
  void SetUp() override { expectRuntimeStillWorks(); }  // warm: later checks compare warm caches
  void check(ErrorCode code, const std::vector<std::string>& parts, const std::function<void()>& fn) {
    expectError(code, parts, fn);
    expectRuntimeStillWorks();
    expectNoLeak(fn);
    expectRuntimeStillWorks();
  }
  Kernel gelu = kernel(kGelu), rms = kernel(kRms), rope = kernel(kRope);
  HostTensor x16 = rnd(DType::Float16, {2, 8}, 1), x32 = rnd(DType::Float32, {2, 8}, 2);
};

TEST_F(RuntimeErrors, MissingInput) {
  check(ErrorCode::Contract, {"missing required input 'X'"}, [&] { gelu.call({{"bias", x16}}); });
  check(ErrorCode::Contract, {"missing required input 'scale'"}, [&] { rms({{"x", x16}}); });
}

TEST_F(RuntimeErrors, UnknownInputName) {
  check(ErrorCode::Contract, {"unknown input 'x'", "inputs: X, bias"}, [&] {
    gelu({{"X", x16}, {"x", x16}});
  });
  check(ErrorCode::Contract, {"'Y' is an output"}, [&] { gelu({{"X", x16}, {"Y", x16}}); });
}

TEST_F(RuntimeErrors, WrongDtype) {
  HostTensor ints(DType::Int32, {2, 8});
  check(ErrorCode::Contract, {"input 'X' has dtype int32", "type T allows only float32, float16"}, [&] {
    gelu({{"X", ints}});
  });
  // Two inputs binding one type variable to different dtypes.
  check(ErrorCode::Contract, {"type T is bound to", "float16", "float32", "'bias'"}, [&] {
    gelu({{"X", x16}, {"bias", rnd(DType::Float32, {8}, 3)}});
  });
  // A dtype the arg fixes.
  auto rin = ropeInputs(1, 1, 2, 4, 4);
  rin["embT"] = rnd(DType::Float16, {1, 2, 4}, 5);
  check(ErrorCode::Contract, {"input 'embT' must be float32", "got float16"}, [&] { rope(rin); });
}

TEST_F(RuntimeErrors, WrongRankOrShape) {
  auto rin = ropeInputs(1, 1, 2, 4, 6);
  rin["qT"] = rnd(DType::Float16, {1, 2, 4}, 7);
  check(ErrorCode::Contract, {"input 'qT' must have rank 4", "[1, 2, 4]"}, [&] { rope(rin); });
  // Shapes that break a clause of the contract: every variant is rejected, quoting the clause
  // with the values it read.
  check(ErrorCode::NoVariant,
        {"no variant of com.microsoft.FastGelu is eligible", "biasOk", "shapes.bias=[7]"}, [&] {
          gelu({{"X", x16}, {"bias", rnd(DType::Float16, {7}, 8)}});
        });
  check(ErrorCode::NoVariant, {"no variant of ai.onnx.RMSNormalization is eligible", "shapes.scale=[3]"},
        [&] {
          rms({{"x", x16}, {"scale", rnd(DType::Float16, {3}, 9)}});
        });
  auto bad = ropeInputs(1, 1, 2, 4, 10);
  bad["embT"] = rnd(DType::Float32, {1, 3, 4}, 11);  // seq 3, q has seq 2
  check(ErrorCode::NoVariant, {"contract", "shapes.embT=[1, 3, 4]"}, [&] { rope(bad); });
}

TEST_F(RuntimeErrors, UnknownAttributeAndValueOutsideConstraints) {
  std::map<std::string, HostTensor> in{{"x", x16}, {"scale", rnd(DType::Float16, {8}, 12)}};
  check(ErrorCode::Contract, {"unknown attribute 'eps'", "attributes: axis, epsilon, stash_type"}, [&] {
    rms(in, {{"eps", 1e-5}});
  });
  check(ErrorCode::Contract, {"stash_type = 3", "attributeConstraints.stash_type.values [1, 10]"}, [&] {
    rms(in, {{"stash_type", int64_t{3}}});
  });
  check(ErrorCode::Contract, {"attribute 'epsilon' must be a number"}, [&] {
    rms(in, {{"epsilon", std::string("x")}});
  });
  check(ErrorCode::Contract, {"unknown attribute 'approximate'", "(none)"}, [&] {
    gelu({{"X", x16}}, {{"approximate", std::string("tanh")}});
  });
}

// lavapipe's maxStorageBufferBindingSize is 128 MiB: an f32 tensor one element larger than that.
TEST_F(RuntimeErrors, TensorLargerThanTheBindingLimit) {
  const uint64_t limit = runtime().device().limit("maxStorageBufferBindingSize");
  if (limit > (512ull << 20))
    GTEST_SKIP() << "binding limit " << limit << " is too large to exceed in a test";
  HostTensor huge(DType::Float32, {static_cast<int64_t>(limit / 4 + 1)});
  const std::string bytes = std::to_string(limit + 4);
  check(ErrorCode::Contract,
        {"input 'X' has " + bytes + " bytes", "maxStorageBufferBindingSize (" + std::to_string(limit) + ")"},
        [&] {
          gelu({{"X", huge}});
        });
}

TEST_F(RuntimeErrors, NoEligibleVariantListsEveryVariantAndWhy) {
  // RMSNorm over a scale that does not broadcast: every variant named, each with its reason.
  const std::string text = expectError(ErrorCode::NoVariant, {}, [&] {
    rms({{"x", rnd(DType::Float32, {2, 8}, 13)}, {"scale", rnd(DType::Float32, {2, 3}, 14)}});
  });
  for (const char* id : {"stash_f16_serial", "suffix_axis_splitk", "last_axis", "suffix_axis",
                         "last_axis_row_vec4", "last_axis_row"})
    EXPECT_TRUE(has(text, std::string("\n  ") + id + " (priority ")) << id << " not listed in:\n" << text;
  EXPECT_TRUE(has(text, "is false")) << text;
  expectRuntimeStillWorks();
}

TEST_F(RuntimeErrors, ForcingAnIneligibleOrUnknownVariant) {
  HostTensor odd = rnd(DType::Float16, {3, 7}, 15);
  check(ErrorCode::NoVariant, {"forced variant 'vec4_no_bias' is not eligible", "vec4Ok", "all variants:"},
        [&] {
          gelu.call({{"X", odd}}, {.variant = "vec4_no_bias"});
        });
  check(ErrorCode::InvalidArgument, {"nope", "vec4_bias", "scalar_no_bias"}, [&] {
    gelu.call({{"X", odd}}, {.variant = "nope"});
  });
}

TEST_F(RuntimeErrors, BadGpuTensors) {
  Runtime& rt = runtime();
  DeviceTensor small = rt.upload(rnd(DType::Float16, {4}, 16));
  check(ErrorCode::InvalidArgument, {"GPU tensor 'X' has no buffer"}, [&] {
    gelu.call({{"X", GpuTensor{nullptr, DType::Float16, {2, 8}}}});
  });
  // The pool rounds buffers up to 256 bytes: ask for more than the buffer really has.
  check(ErrorCode::InvalidArgument, {"GPU tensor 'X' needs 4096 bytes", "its buffer has 256"}, [&] {
    gelu.call({{"X", GpuTensor{small.view().buffer, DType::Float16, {64, 32}}}});
  });
  check(ErrorCode::InvalidArgument, {"GPU tensor 'X' has offset 4", "minStorageBufferOffsetAlignment"}, [&] {
    gelu.call({{"X", GpuTensor{small.view().buffer, DType::Float16, {2}, 4}}});
  });
  check(ErrorCode::InvalidArgument, {"GPU tensor 'X' has offset 2"}, [&] {
    gelu.call({{"X", GpuTensor{small.view().buffer, DType::Float16, {2}, 2}}});
  });
  // Caller-given outputs: unknown name, wrong shape, null buffer.
  DeviceTensor out = rt.allocate(DType::Float16, {2, 8});
  check(ErrorCode::Contract, {"'Z' given as an output buffer is not an output"}, [&] {
    gelu.call({{"X", x16}}, {.outputs = {{"Z", out.view()}}});
  });
  check(ErrorCode::Contract, {"output buffer 'Y' is float16 [16]", "float16 [2, 8]"}, [&] {
    gelu.call({{"X", x16}}, {.outputs = {{"Y", GpuTensor{out.view().buffer, DType::Float16, {16}}}}});
  });
  check(ErrorCode::InvalidArgument, {"GPU tensor 'Y' has no buffer"}, [&] {
    gelu.call({{"X", x16}}, {.outputs = {{"Y", GpuTensor{nullptr, DType::Float16, {2, 8}}}}});
  });
}

TEST(RuntimeErrorsMisc, EmptyKernelAndUnknownPackage) {
  Kernel empty;
  expectError(ErrorCode::InvalidArgument, {"empty wgk::Kernel"}, [&] { empty({}); });
  // Offline, so the answer does not depend on the network.
  std::shared_ptr<Runtime> offline = Runtime::create({.offline = true});
  expectError(ErrorCode::NotFound,
              {"unknown package webgpu-kernels/com.example.Nope", "not embedded or cached", "offline"},
              [&] { offline->load("webgpu-kernels/com.example.Nope"); });
  Kernel gelu = offline->load(std::string("webgpu-kernels/") + kGelu);
  std::map<std::string, HostTensor> in{{"X", rnd(DType::Float32, {2, 8}, 17)}};
  expectMatchesReference(kGelu, in, gelu(in));
}

}  // namespace
}  // namespace wgk::runtime_test
