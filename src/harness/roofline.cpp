#include "harness/roofline.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>

#include "gpu/device.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::harness {
namespace {
// Copy variants: vec4<f32> words per invocation x workgroup size. More words per invocation put
// more bytes in flight (coalesced: neighbouring invocations touch neighbouring words); the
// workgroup size changes occupancy. Every one is timed and the fastest is the bar.
constexpr uint32_t kPerThread[] = {1, 2, 4, 8};
constexpr uint32_t kWorkgroupSizes[] = {128, 256, 512, 1024};
// Dispatches per submit while timing: amortises submit cost on the host; each pass still has its
// own timestamps, so the GPU time per copy is unaffected.
constexpr int kBatch = 16;

std::string kernelName(uint32_t perThread, uint32_t wg) {
  return "vec4x" + std::to_string(perThread) + "/wg" + std::to_string(wg);
}
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

std::string CopyRoofline::copyWgsl(uint32_t perThread, uint32_t workgroupSize) {
  const std::string wg = std::to_string(workgroupSize);
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
      std::to_string(workgroupSize * perThread) + "u + lid;\n";
  // Unrolled: all loads first, then the stores, so every load of the invocation is in flight at once.
  for (uint32_t k = 0; k < perThread; ++k) {
    const std::string i = "i" + std::to_string(k), v = "v" + std::to_string(k);
    s += "  let " + i + " = base + " + std::to_string(k * workgroupSize) + "u;\n";
    s += "  var " + v + " = vec4<f32>();\n";
    s += "  if (" + i + " < n) { " + v + " = src[" + i + "]; }\n";
  }
  for (uint32_t k = 0; k < perThread; ++k) {
    const std::string i = "i" + std::to_string(k), v = "v" + std::to_string(k);
    s += "  if (" + i + " < n) { dst[" + i + "] = " + v + "; }\n";
  }
  return s + "}\n";
}

void CopyRoofline::spinUp(double ms) {
  if (ms <= 0) return;
  withContext("while spinning the GPU up", [&] {
    std::lock_guard lock(introspect::gpuMutex(runtime_));
    gpu::Device& dev = introspect::device(runtime_);
    constexpr uint64_t kHalf = 32ull << 20;  // 64 MiB moved per copy
    if (!spinSrc_) {
      spinSrc_ =
          std::make_unique<gpu::Buffer>(dev.createBuffer(kHalf, gpu::BufferUsage::Storage, "spin-up src"));
      spinDst_ =
          std::make_unique<gpu::Buffer>(dev.createBuffer(kHalf, gpu::BufferUsage::Storage, "spin-up dst"));
    }
    const std::string name = kernelName(1, 256);
    auto& pipe = pipelines_[name];
    if (!pipe) {
      const gpu::BindingKind layout[] = {gpu::BindingKind::ReadOnlyStorage, gpu::BindingKind::Storage};
      pipe = dev.createComputePipeline(copyWgsl(1, 256), layout, "copy " + name);
    }
    const gpu::BindingEntry entries[] = {{spinSrc_->handle(), 0, kHalf}, {spinDst_->handle(), 0, kHalf}};
    const auto groups = static_cast<uint32_t>(kHalf / 16 / 256);  // 8192: no folding needed
    const auto t0 = std::chrono::steady_clock::now();
    // Each submit waits for its copies: the GPU stays busy and the queue never runs ahead.
    while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < ms) {
      gpu::CommandRecorder rec = dev.recorder({});
      for (int i = 0; i < 4 * kBatch; ++i) rec.dispatch(pipe, entries, groups, 1, 1, "spin-up copy");
      rec.submit();
    }
  });
}

namespace {
// One bound window of the copy: [offset, offset + size) of src copied to the same range of dst,
// with its (balanced, folded) workgroup grid for a given words-per-workgroup.
struct Chunk {
  uint64_t offset = 0, size = 0;
};

// The copy of `half` bytes as windows of at most maxStorageBufferBindingSize each, at offsets
// aligned to minStorageBufferOffsetAlignment: a device that binds less than the case moves still
// gets its roofline (each window is its own dispatch; their GPU times add up).
std::vector<Chunk> copyChunks(uint64_t half, uint64_t maxBinding, uint64_t offsetAlign) {
  const uint64_t align = std::max<uint64_t>(16, offsetAlign);
  const uint64_t window = std::max<uint64_t>(align, maxBinding / align * align);
  std::vector<Chunk> out;
  for (uint64_t off = 0; off < half; off += window) out.push_back({off, std::min(window, half - off)});
  return out;
}
}  // namespace

std::vector<std::pair<uint64_t, uint64_t>> CopyRoofline::chunksFor(uint64_t half, uint64_t maxBinding,
                                                                   uint64_t offsetAlign) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const Chunk& c : copyChunks(half, maxBinding, offsetAlign)) out.emplace_back(c.offset, c.size);
  return out;
}

namespace {

// The device's limits that shape a copy, checked for a copy of `bytes`.
struct CopySetup {
  uint64_t half = 0;  // bytes per buffer
  std::vector<Chunk> chunks;
  uint64_t maxDim = 0, maxWg = 0;
};

CopySetup copySetup(const DeviceProfile& prof, uint64_t bytes) {
  if (!prof.hasFeature("timestamp-query"))
    throw Error(ErrorCode::Unsupported, "the device has no timestamp-query: GPU time cannot be measured");
  CopySetup c;
  c.half = std::max<uint64_t>(16, (bytes / 2 + 15) / 16 * 16);
  if (c.half > prof.limit("maxBufferSize"))
    throw Error(ErrorCode::Unsupported, "a copy of " + std::to_string(bytes) + " bytes needs buffers of " +
                                            std::to_string(c.half) + " bytes, more than the device's maxBufferSize (" +
                                            std::to_string(prof.limit("maxBufferSize")) + ")");
  c.chunks = copyChunks(c.half, prof.limit("maxStorageBufferBindingSize"), prof.limit("minStorageBufferOffsetAlignment"));
  c.maxDim = prof.limit("maxComputeWorkgroupsPerDimension");
  c.maxWg = std::min(prof.limit("maxComputeInvocationsPerWorkgroup"), prof.limit("maxComputeWorkgroupSizeX"));
  return c;
}

// Each chunk's workgroup grid for `per` words per invocation at workgroup size `wg`, folded
// balanced into y (as the planner folds `threads` dispatches): few idle workgroups.
std::vector<std::pair<uint32_t, uint32_t>> copyGrids(const CopySetup& c, uint32_t wg, uint32_t per, uint64_t bytes) {
  std::vector<std::pair<uint32_t, uint32_t>> grids;
  for (const Chunk& chunk : c.chunks) {
    const uint64_t groups = (chunk.size / 16 + uint64_t{wg} * per - 1) / (uint64_t{wg} * per);
    const uint64_t y = (groups + c.maxDim - 1) / c.maxDim;
    const uint64_t x = (groups + y - 1) / y;
    if (y > c.maxDim)
      throw Error(ErrorCode::Unsupported, "copy of " + std::to_string(bytes) + " bytes needs too many workgroups");
    grids.emplace_back(static_cast<uint32_t>(x), static_cast<uint32_t>(y));
  }
  return grids;
}

// Records and submits n copies, each one dispatch per chunk (its own pass: its own timestamps).
gpu::SubmitResult submitCopies(gpu::Device& dev, const gpu::ComputePipeline& pipe,
                               const std::vector<std::array<gpu::BindingEntry, 2>>& entries,
                               const std::vector<std::pair<uint32_t, uint32_t>>& grids, int n, bool timestamps) {
  gpu::CommandRecorder rec = dev.recorder({.timestamps = timestamps});
  for (int i = 0; i < n; ++i)
    for (size_t j = 0; j < entries.size(); ++j)
      rec.dispatch(pipe, entries[j], grids[j].first, grids[j].second, 1, "copy");
  return rec.submit();
}

// The GPU time of each of `repeat` copies after `warmup` untimed ones (microseconds; a copy's time
// is the sum of its chunks').
std::vector<double> timeCopies(gpu::Device& dev, const gpu::ComputePipeline& pipe,
                               const std::vector<std::array<gpu::BindingEntry, 2>>& entries,
                               const std::vector<std::pair<uint32_t, uint32_t>>& grids, int warmup, int repeat) {
  const size_t k = entries.size();
  std::vector<double> us;
  const int total = warmup + repeat;
  for (int done = 0; done < total;) {
    const int n = std::min(kBatch, total - done);
    gpu::SubmitResult r = submitCopies(dev, pipe, entries, grids, n, true);
    for (int i = 0; i < n; ++i, ++done) {
      if (done < warmup) continue;
      double ns = 0;
      for (size_t j = 0; j < k; ++j) ns += static_cast<double>(r.passNs.at(static_cast<size_t>(i) * k + j));
      us.push_back(ns / 1e3);
    }
  }
  return us;
}

}  // namespace

const CopyMeasurement& CopyRoofline::measure(uint64_t bytes, int warmup, int repeat, double warmupMs) {
  if (auto it = done_.find(bytes); it != done_.end()) return it->second;
  if (repeat < 1)
    throw Error(ErrorCode::InvalidArgument, "the copy roofline needs at least one timed repeat");
  return withContext(
      "while measuring the copy roofline on " + std::to_string(bytes) + " bytes", [&]() -> const CopyMeasurement& {
        std::lock_guard lock(introspect::gpuMutex(runtime_));
        gpu::Device& dev = introspect::device(runtime_);
        const CopySetup setup = copySetup(dev.profile(), bytes);
        gpu::Buffer src =
            dev.createBuffer(setup.half, gpu::BufferUsage::Storage | gpu::BufferUsage::CopyDst, "copy src");
        gpu::Buffer dst = dev.createBuffer(setup.half, gpu::BufferUsage::Storage, "copy dst");
        std::vector<std::array<gpu::BindingEntry, 2>> entries;
        for (const Chunk& c : setup.chunks)
          entries.push_back({gpu::BindingEntry{src.handle(), c.offset, c.size},
                             gpu::BindingEntry{dst.handle(), c.offset, c.size}});
        CopyMeasurement best;
        bool spunUp = false;
        for (uint32_t wg : kWorkgroupSizes) {
          if (wg > setup.maxWg) continue;
          for (uint32_t per : kPerThread) {
            const std::string name = kernelName(per, wg);
            auto& pipe = pipelines_[name];
            if (!pipe) {
              const gpu::BindingKind layout[] = {gpu::BindingKind::ReadOnlyStorage, gpu::BindingKind::Storage};
              pipe = dev.createComputePipeline(copyWgsl(per, wg), layout, "copy " + name);
            }
            const auto grids = copyGrids(setup, wg, per, bytes);
            if (!spunUp) {
              // Untimed batches until warmupMs has passed: the clocks stay up between the cases'
              // own spin-up (spinUp()) and the timed copies.
              const auto t0 = std::chrono::steady_clock::now();
              while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() <
                     warmupMs)
                submitCopies(dev, pipe, entries, grids, kBatch, false);
              spunUp = true;
            }
            const std::vector<double> us = timeCopies(dev, pipe, entries, grids, warmup, repeat);
            const double med = medianOf(us);
            best.candidates[name] = static_cast<double>(bytes) / std::max(med, 1e-3) / 1e3;
            if (best.kernel.empty() || med < best.gpuUsMedian) {
              best.gpuUsMedian = med;
              best.gpuUsMin = minOf(us);
              best.kernel = name;
            }
          }
        }
        best.bytes = bytes;
        best.chunks = static_cast<int>(setup.chunks.size());
        // A timestamp resolution of zero (a copy too small to see) would give infinite GB/s: clamp to 1 ns.
        best.gbps = static_cast<double>(bytes) / std::max(best.gpuUsMedian, 1e-3) / 1e3;
        return done_.emplace(bytes, best).first->second;
      });
}

}  // namespace wgk::harness
