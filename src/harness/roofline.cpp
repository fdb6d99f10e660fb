#include "harness/roofline.h"

#include <algorithm>
#include <cmath>

#include "runtime/runtime_impl.h"
#include "wgk/error.h"

namespace wgk::harness {
namespace {
constexpr uint32_t kWorkgroupSize = 256;
// Copy variants, by vec4s per invocation. 1: one load/store each; 4 and 8: more bytes in flight
// per invocation, still coalesced (neighbouring invocations touch neighbouring vec4s).
constexpr uint32_t kVariants[] = {1, 4, 8};
// Dispatches per submit while timing: amortises submit cost on the host; each pass still has its
// own timestamps, so the GPU time per copy is unaffected.
constexpr int kBatch = 16;
}  // namespace

double medianOf(std::vector<double> v) {
  if (v.empty()) throw Error(ErrorCode::Internal, "median of an empty sample");
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double minOf(const std::vector<double>& v) {
  if (v.empty()) throw Error(ErrorCode::Internal, "minimum of an empty sample");
  return *std::min_element(v.begin(), v.end());
}

std::string CopyRoofline::copyWgsl(uint32_t perThread) {
  const std::string wg = std::to_string(kWorkgroupSize);
  std::string s =
      "@group(0) @binding(0) var<storage, read> src : array<vec4<f32>>;\n"
      "@group(0) @binding(1) var<storage, read_write> dst : array<vec4<f32>>;\n"
      "@compute @workgroup_size(" +
      wg +
      ")\n"
      "fn main(@builtin(workgroup_id) wid : vec3<u32>, @builtin(num_workgroups) nwg : vec3<u32>,\n"
      "        @builtin(local_invocation_index) lid : u32) {\n"
      "  let block = wid.x + wid.y * nwg.x;\n"
      "  let n = arrayLength(&dst);\n"
      "  let base = block * " +
      std::to_string(kWorkgroupSize * perThread) + "u + lid;\n";
  // Unrolled: all loads first, then the stores, so every load of the invocation is in flight at once.
  for (uint32_t k = 0; k < perThread; ++k) {
    const std::string i = "i" + std::to_string(k), v = "v" + std::to_string(k);
    s += "  let " + i + " = base + " + std::to_string(k * kWorkgroupSize) + "u;\n";
    s += "  var " + v + " = vec4<f32>();\n";
    s += "  if (" + i + " < n) { " + v + " = src[" + i + "]; }\n";
  }
  for (uint32_t k = 0; k < perThread; ++k) {
    const std::string i = "i" + std::to_string(k), v = "v" + std::to_string(k);
    s += "  if (" + i + " < n) { dst[" + i + "] = " + v + "; }\n";
  }
  return s + "}\n";
}

const CopyMeasurement& CopyRoofline::measure(uint64_t bytes, int warmup, int repeat) {
  if (auto it = done_.find(bytes); it != done_.end()) return it->second;
  if (repeat < 1)
    throw Error(ErrorCode::InvalidArgument, "the copy roofline needs at least one timed repeat");
  return withContext(
      "measuring the copy roofline on " + std::to_string(bytes) + " bytes", [&]() -> const CopyMeasurement& {
        std::lock_guard lock(runtime_.gpuMutex());
        gpu::Device& dev = runtime_.device();
        if (!dev.profile().hasFeature("timestamp-query"))
          throw Error(ErrorCode::Unsupported,
                      "the device has no timestamp-query: GPU time cannot be measured");
        const uint64_t half = std::max<uint64_t>(16, (bytes / 2 + 15) / 16 * 16);
        const uint64_t n4 = half / 16;
        const uint64_t maxDim = dev.profile().limit("maxComputeWorkgroupsPerDimension");
        gpu::Buffer src =
            dev.createBuffer(half, gpu::BufferUsage::Storage | gpu::BufferUsage::CopyDst, "copy src");
        gpu::Buffer dst = dev.createBuffer(half, gpu::BufferUsage::Storage, "copy dst");
        CopyMeasurement best;
        for (uint32_t per : kVariants) {
          auto& pipe = pipelines_[per];
          if (!pipe) {
            const gpu::BindingKind layout[] = {gpu::BindingKind::ReadOnlyStorage, gpu::BindingKind::Storage};
            pipe = dev.createComputePipeline(copyWgsl(per), layout, "copy vec4x" + std::to_string(per));
          }
          const uint64_t groups =
              (n4 + uint64_t{kWorkgroupSize} * per - 1) / (uint64_t{kWorkgroupSize} * per);
          const uint64_t x = std::min(groups, maxDim);
          const uint64_t y = (groups + x - 1) / x;
          if (y > maxDim)
            throw Error(ErrorCode::Unsupported,
                        "copy of " + std::to_string(bytes) + " bytes needs too many workgroups");
          const gpu::BindingEntry entries[] = {{src.handle(), 0, half}, {dst.handle(), 0, half}};
          std::vector<double> us;
          const int total = warmup + repeat;
          for (int done = 0; done < total;) {
            gpu::CommandRecorder rec = dev.recorder({.timestamps = true});
            const int n = std::min(kBatch, total - done);
            for (int i = 0; i < n; ++i)
              rec.dispatch(pipe, entries, static_cast<uint32_t>(x), static_cast<uint32_t>(y), 1, "copy");
            gpu::SubmitResult r = rec.submit();
            for (int i = 0; i < n; ++i, ++done)
              if (done >= warmup)
                us.push_back(static_cast<double>(r.passNs.at(static_cast<size_t>(i))) / 1e3);
          }
          const double med = medianOf(us);
          if (best.kernel.empty() || med < best.gpuUsMedian) {
            best.gpuUsMedian = med;
            best.gpuUsMin = minOf(us);
            best.kernel = "vec4x" + std::to_string(per);
          }
        }
        best.bytes = bytes;
        // A timestamp resolution of zero (a copy too small to see) would give infinite GB/s: clamp to 1 ns.
        best.gbps = static_cast<double>(bytes) / std::max(best.gpuUsMedian, 1e-3) / 1e3;
        return done_.emplace(bytes, best).first->second;
      });
}

}  // namespace wgk::harness
