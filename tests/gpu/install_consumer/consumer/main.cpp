// A program outside the wgk tree: only <wgk/wgk.h> and wgk::wgk from find_package(wgk) (or
// pkg-config). Runs FastGelu on the local device and prints where the package came from.
#include <wgk/wgk.h>
#include <cstdio>

int main() {
  try {
    auto rt = wgk::Runtime::create();
    wgk::Kernel gelu = rt->load("webgpu-kernels/com.microsoft.FastGelu", {.version = 1});
    auto x =
        wgk::HostTensor::fromFloats(wgk::DType::Float32, {1, 4}, std::vector<float>{0.0f, 1.0f, -1.0f, 2.0f});
    auto y = gelu({{"X", x}}).at("Y");
    // gelu(0) = 0, gelu(1) ~ 0.8412, gelu(-1) ~ -0.1588, gelu(2) ~ 1.9546
    const double want[] = {0.0, 0.841192, -0.158808, 1.954598};
    for (int i = 0; i < 4; ++i)
      if (y.at(i) < want[i] - 1e-4 || y.at(i) > want[i] + 1e-4) {
        std::fprintf(stderr, "Y[%d] = %f, want %f\n", i, y.at(i), want[i]);
        return 1;
      }
    std::printf("consumer ok: %s %s\n", gelu.source().origin.c_str(), gelu.source().folder.c_str());
    return 0;
  } catch (const wgk::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
