// Runs the three embedded kernels from C++ through the public API only (<wgk/wgk.h>):
// FastGelu and GemmaRotaryEmbedding with host tensors, then FastGelu -> RMSNormalization chained
// on the device without a readback in between. Exits non-zero if anything fails.
#include <cmath>
#include <cstdio>
#include <vector>

#include <wgk/wgk.h>

namespace {
std::vector<float> ramp(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * std::sin(0.37f * static_cast<float>(i));
  return v;
}
}  // namespace

int main() {
  try {
    // WGK_* variables apply (WGK_OFFLINE, WGK_CACHE, ...): the library reads none by itself.
    auto rt = wgk::Runtime::create(wgk::RuntimeOptions::fromEnvironment());
    std::printf("device: %s\n", rt->device().adapterInfoStrings.count("description")
                                    ? rt->device().adapterInfoStrings.at("description").c_str()
                                    : "?");

    // FastGelu with a bias, host in, host out.
    wgk::Kernel gelu = rt->load("webgpu-kernels/com.microsoft.FastGelu", {.version = 1});
    auto x = wgk::HostTensor::fromFloats(wgk::DType::Float16, {4, 64}, ramp(256, 3.0f));
    auto bias = wgk::HostTensor::fromFloats(wgk::DType::Float16, {64}, ramp(64, 0.5f));
    auto y = gelu({{"X", x}, {"bias", bias}}).at("Y");
    std::printf("FastGelu      %-20s Y[0..3] = %.4f %.4f %.4f  (source %s)\n", "f16 [4, 64] + bias", y.at(0),
                y.at(1), y.at(2), gelu.source().origin.c_str());

    // GemmaRotaryEmbedding: emb [B, S, D] f32 broadcast over the heads of [B, H, S, D] f16.
    wgk::Kernel rope = rt->load("webgpu-kernels/com.microsoft.GemmaRotaryEmbedding");
    const int64_t B = 1, H = 2, S = 3, D = 8;
    auto emb = wgk::HostTensor::fromFloats(wgk::DType::Float32, {B, S, D}, ramp(B * S * D, 100.0f));
    auto q = wgk::HostTensor::fromFloats(wgk::DType::Float16, {B, H, S, D}, ramp(B * H * S * D, 1.0f));
    auto out = rope({{"embT", emb}, {"qT", q}, {"qRotT", q}, {"kT", q}, {"kRotT", q}});
    std::printf("GemmaRoPE     %-20s output1[0] = %.4f output2[0] = %.4f\n", "[1, 2, 3, 8]", out.at("output1T").at(0),
                out.at("output2T").at(0));

    // Chained on the device: FastGelu's output feeds RMSNormalization without a readback.
    wgk::Kernel rms = rt->load("webgpu-kernels/ai.onnx.RMSNormalization");
    wgk::DeviceTensor xd = rt->upload(x);
    wgk::CallResult r1 = gelu.call({{"X", xd}, {"bias", bias}});
    auto scale = wgk::HostTensor::fromFloats(wgk::DType::Float16, {64}, std::vector<float>(64, 1.0f));
    wgk::CallResult r2 = rms.call({{"x", r1.device.at("Y")}, {"scale", scale}}, {.attrs = {{"epsilon", 1e-6}}});
    wgk::HostTensor normed = rt->download(r2.device.at("y"));
    double ss = 0;
    for (int64_t i = 0; i < 64; ++i) ss += normed.at(i) * normed.at(i);
    std::printf("Gelu -> RMS   %-20s variants %s -> %s, mean(y^2) of row 0 = %.4f (expect ~1)\n", "f16 [4, 64]",
                r1.variant.c_str(), r2.variant.c_str(), ss / 64);
    if (std::fabs(ss / 64 - 1.0) > 0.02) {
      std::fprintf(stderr, "unexpected RMS of the normalized row\n");
      return 1;
    }
    return 0;
  } catch (const wgk::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
