#include "harness/fma_roofline.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>

#include "gpu/buffer.h"
#include "gpu/device.h"
#include "harness/roofline.h"
#include "runtime/introspect.h"
#include "wgk/error.h"

namespace wgk::harness {

std::string FmaShape::name() const {
  return "vec" + std::to_string(width) + "x" + std::to_string(chains) + "/wg" +
         std::to_string(workgroupSize) + (mulAdd ? " mul-add" : "");
}

double FmaShape::flopsPerInvocationPerIteration() const {
  return 2.0 * width * chains * unroll;
}

std::string MatrixShape::name() const {
  return config.componentType + "->" + config.resultComponentType + " " + std::to_string(config.M) + "x" +
         std::to_string(config.N) + "x" + std::to_string(config.K) + " acc" + std::to_string(chains) + "/wg" +
         std::to_string(workgroupSize);
}

namespace {

// The uniform every kernel reads: the loop count, the operands (0.999 and 0.001: the chains
// a = a * 0.999 + 0.001 stay near 1 in f32 and f16, never overflow or go subnormal) and the value
// the result is compared with to decide the store (negative: every chain stays positive).
struct Params {
  uint32_t iters;
  float mul, add, sentinel;
};
constexpr float kMul = 0.999f, kAdd = 0.001f, kSentinel = -12345.0f;
constexpr uint32_t kFirstGrid = 32, kFirstIters = 8;
constexpr uint32_t kMaxIters = 1u << 24;
constexpr int kBatch = 8;  // timed dispatches per submit (each its own pass and timestamps)

const char* kParams =
    "struct Params { iters : u32, mul : f32, add : f32, sentinel : f32 }\n"
    "@group(0) @binding(0) var<uniform> params : Params;\n";

std::string fraction(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

}  // namespace

std::string FmaRoofline::fmaWgsl(const FmaShape& sh) {
  const std::string& T = sh.scalar;
  const std::string vt = "vec" + std::to_string(sh.width) + "<" + T + ">";
  const std::string wg = std::to_string(sh.workgroupSize);
  std::string s = T == "f16" ? "enable f16;\n" : "";
  s += kParams;
  s += "@group(0) @binding(1) var<storage, read_write> sink : array<vec4<f32>>;\n"
       "@compute @workgroup_size(" +
       wg +
       ")\n"
       "fn main(@builtin(local_invocation_index) lid : u32, @builtin(workgroup_id) wid : vec3<u32>) {\n"
       "  let m = " +
       vt + "(" + T + "(params.mul));\n  let c = " + vt + "(" + T +
       "(params.add));\n"
       // Start values differ per invocation and per chain: no two chains are the same computation.
       "  let s = " +
       T + "(f32(lid) / f32(" + wg + "));\n";
  for (uint32_t k = 0; k < sh.chains; ++k)
    s += "  var a" + std::to_string(k) + " = " + vt + "(s + " + T + "(" + fraction(double(k) / sh.chains) +
         "));\n";
  s += "  for (var i = 0u; i < params.iters; i = i + 1u) {\n";
  for (uint32_t u = 0; u < sh.unroll; ++u)
    for (uint32_t k = 0; k < sh.chains; ++k) {
      const std::string a = "a" + std::to_string(k);
      s += "    " + a + (sh.mulAdd ? " = " + a + " * m + c;\n" : " = fma(" + a + ", m, c);\n");
    }
  s += "  }\n  let t = a0";
  for (uint32_t k = 1; k < sh.chains; ++k) s += " + a" + std::to_string(k);
  s += ";\n  let total = f32(t.x) + f32(t.y)";
  if (sh.width == 4) s += " + f32(t.z) + f32(t.w)";
  // Every lane of every chain decides the store, so none is dead; the sentinel is never reached.
  s += ";\n  if (total == params.sentinel) { sink[wid.x % arrayLength(&sink)] = vec4<f32>(total); }\n}\n";
  return s;
}

std::string FmaRoofline::matrixWgsl(const MatrixShape& sh, MatrixStoreSyntax syntax) {
  const SubgroupMatrixConfig& c = sh.config;
  const std::string M = std::to_string(c.M), N = std::to_string(c.N), K = std::to_string(c.K);
  const std::string CT = c.componentType, RT = c.resultComponentType;
  const std::string left = "subgroup_matrix_left<" + CT + ", " + K + ", " + M + ">";  // M rows, K columns
  const std::string right = "subgroup_matrix_right<" + CT + ", " + N + ", " + K + ">";
  const std::string result = "subgroup_matrix_result<" + RT + ", " + N + ", " + M + ">";
  const uint32_t elems = c.M * c.N;
  const std::string total = std::to_string(sh.chains * elems), wg = std::to_string(sh.workgroupSize);
  std::string s = (CT == "f16" || RT == "f16") ? "enable f16;\n" : "";
  s += "enable subgroups;\nenable chromium_experimental_subgroup_matrix;\n";
  s += kParams;
  s += "@group(0) @binding(1) var<storage, read_write> sink : array<f32>;\n"
       "@group(0) @binding(2) var<storage, read_write> info : array<u32>;\n"
       // Each chain's result goes to its own slice of workgroup memory: stores that are all read
       // (no chain is dead), and no traffic to device memory.
       "var<workgroup> scratch : array<" +
       RT + ", " + total +
       ">;\n"
       "@compute @workgroup_size(" +
       wg +
       ")\n"
       "fn main(@builtin(local_invocation_index) lid : u32, @builtin(workgroup_id) wid : vec3<u32>,\n"
       "        @builtin(subgroup_size) sgSize : u32) {\n"
       // The subgroup size the device ran (the FLOP count needs the subgroups per workgroup).
       "  if (wid.x == 0u && lid == 0u) { info[0] = sgSize; }\n"
       "  let l0 = " +
       left + "(" + CT + "(params.add));\n  let l1 = " + left + "(" + CT +
       "(params.add * 2.0));\n  let r = " + right + "(" + CT + "(params.add));\n";
  // Different start values: no two chains are the same computation.
  for (uint32_t k = 0; k < sh.chains; ++k)
    s += "  var c" + std::to_string(k) + " = " + result + "(" + RT + "(params.add + " + std::to_string(k) +
         ".0));\n";
  s += "  for (var i = 0u; i < params.iters; i = i + 1u) {\n";
  for (uint32_t k = 0; k < sh.chains; ++k) {
    const std::string ck = "c" + std::to_string(k);
    s += "    " + ck + " = subgroupMatrixMultiplyAccumulate(" + (k % 2 ? "l1" : "l0") + ", r, " + ck + ");\n";
  }
  s += "  }\n";
  for (uint32_t k = 0; k < sh.chains; ++k) {
    const std::string off = std::to_string(k * elems) + "u", ck = "c" + std::to_string(k);
    if (syntax == MatrixStoreSyntax::TemplateLayout)
      s += "  subgroupMatrixStore<row_major>(&scratch, " + off + ", " + ck + ", " + N + "u);\n";
    else
      s += "  subgroupMatrixStore(&scratch, " + off + ", " + ck + ", false, " + N + "u);\n";
  }
  s += "  workgroupBarrier();\n  var sum = 0.0;\n"
       "  for (var e = lid; e < " +
       total + "u; e = e + " + wg +
       "u) { sum = sum + f32(scratch[e]); }\n"
       "  if (sum == params.sentinel) { sink[wid.x % arrayLength(&sink)] = sum; }\n}\n";
  return s;
}

std::vector<FmaShape> FmaRoofline::fmaShapes(const std::string& scalar, uint64_t maxWorkgroupSize) {
  // (width, chains, workgroup size); chains * unroll = 32 fma statements per loop iteration, so the
  // loop's own instructions are a few percent at most.
  // The last entries are mul-add spellings (1) of shapes above.
  static const std::array<std::array<uint32_t, 4>, 6> f32 = {
      {{4, 8, 256, 0}, {4, 16, 256, 0}, {4, 32, 256, 0}, {4, 16, 128, 0}, {4, 16, 512, 0}, {4, 8, 256, 1}}};
  static const std::array<std::array<uint32_t, 4>, 7> f16 = {{{4, 8, 256, 0},
                                                              {4, 16, 256, 0},
                                                              {4, 16, 128, 0},
                                                              {2, 16, 256, 0},
                                                              {2, 32, 256, 0},
                                                              {4, 16, 128, 1},
                                                              {2, 32, 256, 1}}};
  std::vector<FmaShape> out;
  auto add = [&](const auto& list) {
    for (const auto& [w, ch, wg, mad] : list)
      if (wg <= maxWorkgroupSize) out.push_back({scalar, w, ch, std::max(1u, 32 / ch), wg, mad != 0});
  };
  if (scalar == "f16")
    add(f16);
  else
    add(f32);
  return out;
}

std::vector<MatrixShape> FmaRoofline::matrixShapes(const DeviceProfile& device) {
  auto num = [&](const char* k) {
    auto it = device.adapterInfoNumbers.find(k);
    return it == device.adapterInfoNumbers.end() ? int64_t{0} : it->second;
  };
  const uint64_t sgMax = static_cast<uint64_t>(std::max<int64_t>(1, num("subgroupMaxSize")));
  auto lim = [&](const char* k) {
    auto it = device.limits.find(k);
    return it == device.limits.end() ? uint64_t{0} : it->second;
  };
  const uint64_t maxWg = std::min(lim("maxComputeInvocationsPerWorkgroup"), lim("maxComputeWorkgroupSizeX"));
  const uint64_t maxShared = lim("maxComputeWorkgroupStorageSize");
  // f16 inputs with f32 results (what a MatMul on tensor cores runs); f16 results only when the
  // device has no such config.
  std::vector<SubgroupMatrixConfig> configs;
  for (const char* result : {"f32", "f16"}) {
    for (const auto& c : device.subgroupMatrixConfigs)
      if (c.componentType == "f16" && c.resultComponentType == result && c.M && c.N && c.K)
        configs.push_back(c);
    if (!configs.empty()) break;
  }
  std::vector<MatrixShape> out;
  for (const auto& c : configs)
    for (uint32_t chains : {4u, 8u, 16u})
      for (uint64_t wg : {sgMax, 2 * sgMax, 4 * sgMax}) {
        const uint64_t shared = uint64_t{chains} * c.M * c.N * (c.resultComponentType == "f16" ? 2 : 4);
        if (wg <= maxWg && shared <= maxShared) out.push_back({c, chains, static_cast<uint32_t>(wg)});
      }
  return out;
}

namespace {

struct Timed {
  double median = 0, min = 0, flops = 0;
  uint32_t grid = 0, iters = 0;
};

// One compiled kernel and its bindings, timed on the device.
class KernelTimer {
 public:
  KernelTimer(gpu::Device& dev, const gpu::ComputePipeline& pipe, std::vector<gpu::BindingEntry> entries,
              gpu::Buffer& params)
      : dev_(dev), pipe_(pipe), entries_(std::move(entries)), params_(params) {}

  void setIters(uint32_t iters) {
    const Params p{iters, kMul, kAdd, kSentinel};
    dev_.write(params_.handle(), 0, &p, sizeof p);
  }

  // GPU us of each of n dispatches of `grid` workgroups (each its own pass).
  std::vector<double> time(uint32_t grid, int n) {
    std::vector<double> us;
    for (int done = 0; done < n;) {
      const int b = std::min(kBatch, n - done);
      gpu::CommandRecorder rec = dev_.recorder({.timestamps = true});
      for (int i = 0; i < b; ++i) rec.dispatch(pipe_, entries_, grid, 1, 1, "fma roofline");
      const gpu::SubmitResult r = rec.submit();
      for (uint64_t ns : r.passNs) us.push_back(static_cast<double>(ns) / 1e3);
      done += b;
    }
    return us;
  }

  void spin(uint32_t grid, double ms) {
    const auto t0 = std::chrono::steady_clock::now();
    while (std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() < ms) {
      gpu::CommandRecorder rec = dev_.recorder({});
      for (int i = 0; i < kBatch; ++i) rec.dispatch(pipe_, entries_, grid, 1, 1, "fma roofline warm-up");
      rec.submit();
    }
  }

  // Calibrates the grid (doubling until one dispatch takes a quarter of the target or the grid is at
  // the limit) and the loop count (scaled to the target), then times `repeat` dispatches after
  // `warmup` untimed ones (and `warmupMs` of them when > 0). `flopsPerGroupIter` may be refined by
  // `refine` after the first dispatch (the matrix kernel reads back its subgroup size).
  Timed run(double flopsPerGroupIter, uint32_t maxGrid, int warmup, int repeat, double warmupMs) {
    Timed t;
    t.grid = std::min(kFirstGrid, maxGrid);
    t.iters = kFirstIters;
    setIters(t.iters);
    double us = medianOf(time(t.grid, 3));
    while (us < FmaRoofline::kTargetUs / 4 && t.grid < maxGrid) {
      t.grid = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{t.grid} * 2, maxGrid));
      us = medianOf(time(t.grid, 3));
    }
    // Twice: the first small dispatch includes fixed costs (launch, the final stores) that do not
    // scale with the loop, so one scaling can fall well short of the target.
    for (int step = 0; step < 2; ++step) {
      const double scaled = std::ceil(t.iters * FmaRoofline::kTargetUs / std::max(us, 1.0));
      t.iters = static_cast<uint32_t>(std::clamp(scaled, 1.0, double(kMaxIters)));
      setIters(t.iters);
      if (step == 0) us = medianOf(time(t.grid, 3));
      if (us > 0.7 * FmaRoofline::kTargetUs && us < 1.4 * FmaRoofline::kTargetUs) break;
    }
    if (warmupMs > 0) spin(t.grid, warmupMs);
    if (warmup > 0) time(t.grid, warmup);
    const std::vector<double> timed = time(t.grid, repeat);
    t.median = medianOf(timed);
    t.min = minOf(timed);
    t.flops = flopsPerGroupIter * t.grid * t.iters;
    return t;
  }

 private:
  gpu::Device& dev_;
  const gpu::ComputePipeline& pipe_;
  std::vector<gpu::BindingEntry> entries_;
  gpu::Buffer& params_;
};

double tflopsOf(double flops, double us) {
  return flops / std::max(us, 1e-3) / 1e6;
}

// Keeps the fastest of the candidates in `out`.
void keepBest(PeakMeasurement& out, const std::string& name, const Timed& t) {
  const double tf = tflopsOf(t.flops, t.median);
  out.candidates[name] = tf;
  if (tf > out.tflops) {
    out.tflops = tf;
    out.gpuUsMedian = t.median;
    out.gpuUsMin = t.min;
    out.flopsPerDispatch = t.flops;
    out.workgroups = t.grid;
    out.iterations = t.iters;
    out.kernel = name;
  }
}

void finish(PeakMeasurement& out) {
  if (out.tflops < 0 && out.absent.empty())
    out.error = out.failed.empty() ? "no kernel shape fits this device" : out.failed.begin()->second;
}

}  // namespace

const FmaMeasurement& FmaRoofline::measure(int warmup, int repeat, double warmupMs) {
  if (done_) return result_;
  if (repeat < 1) throw Error(ErrorCode::InvalidArgument, "the FMA roofline needs at least one timed repeat");
  return withContext("while measuring the FMA roofline", [&]() -> const FmaMeasurement& {
    std::lock_guard lock(introspect::gpuMutex(runtime_));
    gpu::Device& dev = introspect::device(runtime_);
    const DeviceProfile& prof = dev.profile();
    if (!prof.hasFeature("timestamp-query"))
      throw Error(ErrorCode::Unsupported, "the device has no timestamp-query: GPU time cannot be measured");
    gpu::Buffer params =
        dev.createBuffer(sizeof(Params), gpu::BufferUsage::Uniform | gpu::BufferUsage::CopyDst, "fma params");
    gpu::Buffer sink = dev.createBuffer(256, gpu::BufferUsage::Storage, "fma sink");
    gpu::Buffer info =
        dev.createBuffer(16, gpu::BufferUsage::Storage | gpu::BufferUsage::CopySrc, "fma subgroup size");
    const uint32_t maxGrid =
        static_cast<uint32_t>(std::min<uint64_t>(65535, prof.limit("maxComputeWorkgroupsPerDimension")));
    const uint64_t maxWg =
        std::min(prof.limit("maxComputeInvocationsPerWorkgroup"), prof.limit("maxComputeWorkgroupSizeX"));
    double spinMs = warmupMs;  // only before the first kernel timed: the clocks stay up after it

    auto fmaGroup = [&](PeakMeasurement& out, const std::string& scalar) {
      for (const FmaShape& sh : fmaShapes(scalar, maxWg)) {
        try {
          const gpu::BindingKind layout[] = {gpu::BindingKind::Uniform, gpu::BindingKind::Storage};
          gpu::ComputePipeline pipe =
              dev.createComputePipeline(fmaWgsl(sh), layout, "fma " + scalar + " " + sh.name());
          KernelTimer timer(dev, pipe, {{params.handle(), 0, sizeof(Params)}, {sink.handle(), 0, 256}},
                            params);
          const double perGroup = sh.flopsPerInvocationPerIteration() * sh.workgroupSize;
          keepBest(out, sh.name(), timer.run(perGroup, maxGrid, warmup, repeat, spinMs));
          spinMs = 0;
        } catch (const Error& e) {
          if (e.code() == ErrorCode::DeviceLost) throw;
          out.failed[sh.name()] = e.what();
        }
      }
      finish(out);
    };
    fmaGroup(result_.f32, "f32");
    if (prof.hasFeature("shader-f16"))
      fmaGroup(result_.f16, "f16");
    else
      result_.f16.absent = "the device has no shader-f16";

    if (!prof.hasFeature("chromium-experimental-subgroup-matrix")) {
      result_.matrix.absent = "the device has no chromium-experimental-subgroup-matrix";
    } else if (const auto shapes = matrixShapes(prof); shapes.empty()) {
      result_.matrix.absent = "no f16 config in adapterInfo.subgroupMatrixConfigs fits this device's limits";
    } else {
      std::optional<MatrixStoreSyntax> syntax;  // found by the first kernel that compiles
      for (const MatrixShape& sh : shapes) {
        try {
          const gpu::BindingKind layout[] = {gpu::BindingKind::Uniform, gpu::BindingKind::Storage,
                                             gpu::BindingKind::Storage};
          gpu::ComputePipeline pipe;
          std::string firstError;
          for (MatrixStoreSyntax s : {MatrixStoreSyntax::TemplateLayout, MatrixStoreSyntax::BoolArgument}) {
            if (syntax && *syntax != s) continue;
            try {
              pipe = dev.createComputePipeline(matrixWgsl(sh, s), layout, "fma matrix " + sh.name());
              syntax = s;
              break;
            } catch (const Error& e) {
              if (syntax) throw;
              if (firstError.empty()) {
                firstError = e.what();
                continue;
              }
              throw Error(ErrorCode::Gpu, "neither spelling of subgroupMatrixStore compiled: " + firstError +
                                              " / " + e.what());
            }
          }
          KernelTimer timer(
              dev, pipe,
              {{params.handle(), 0, sizeof(Params)}, {sink.handle(), 0, 256}, {info.handle(), 0, 16}},
              params);
          // Subgroups per workgroup as the device ran them (subgroup size from the kernel itself).
          timer.setIters(1);
          timer.time(1, 1);
          uint32_t sg = 0;
          dev.read(info.handle(), 0, &sg, sizeof sg);
          if (sg == 0 || sh.workgroupSize % sg)
            throw Error(ErrorCode::Internal,
                        "the matrix kernel reported subgroup size " + std::to_string(sg));
          const SubgroupMatrixConfig& c = sh.config;
          const double perGroup = 2.0 * c.M * c.N * c.K * sh.chains * (sh.workgroupSize / sg);
          keepBest(result_.matrix, sh.name(), timer.run(perGroup, maxGrid, warmup, repeat, spinMs));
          spinMs = 0;
          if (result_.matrix.kernel == sh.name()) result_.matrix.config = c;
        } catch (const Error& e) {
          if (e.code() == ErrorCode::DeviceLost) throw;
          result_.matrix.failed[sh.name()] = e.what();
        }
      }
      finish(result_.matrix);
    }
    done_ = true;
    return result_;
  });
}

nlohmann::json PeakMeasurement::toJson() const {
  nlohmann::json j = nlohmann::json::object();
  if (!absent.empty()) {
    j["absent"] = absent;
    return j;
  }
  if (tflops < 0) {
    j["error"] = error;
  } else {
    j["tflops"] = tflops;
    j["kernel"] = kernel;
    j["gpuUsMedian"] = gpuUsMedian;
    j["gpuUsMin"] = gpuUsMin;
    j["flopsPerDispatch"] = flopsPerDispatch;
    j["workgroups"] = workgroups;
    j["iterations"] = iterations;
    j["candidates"] = candidates;
    if (config)
      j["config"] = {{"componentType", config->componentType},
                     {"resultComponentType", config->resultComponentType},
                     {"M", config->M},
                     {"N", config->N},
                     {"K", config->K}};
  }
  if (!failed.empty()) j["failed"] = failed;
  return j;
}

nlohmann::json FmaMeasurement::toJson() const {
  return {{"f32", f32.toJson()}, {"f16", f16.toJson()}, {"matrix", matrix.toJson()}};
}

ComputePeaks ComputePeaks::of(const FmaMeasurement& m) {
  ComputePeaks p;
  p.f32 = m.f32.tflops;
  p.f16 = m.f16.tflops;
  p.matrix = m.matrix.tflops;
  if (m.matrix.config) p.matrixComponent = m.matrix.config->componentType;
  return p;
}

ComputeShare computeShare(double flops, uint64_t bytes, double gpuUs, double copyGbps,
                          const std::string& dtype, const ComputePeaks& peaks) {
  ComputeShare s;
  if (!(flops > 0) || !(gpuUs >= 0)) return s;
  s.tflops = tflopsOf(flops, gpuUs);
  if (bytes > 0) s.flopsPerByte = flops / static_cast<double>(bytes);
  const double fma = dtype == "f32" ? peaks.f32 : dtype == "f16" ? peaks.f16 : -1;
  if (fma > 0) {
    s.fmaPeak = fma;
    s.ofFmaPeak = s.tflops / fma;
  }
  if (peaks.matrix > 0 && !dtype.empty() && dtype == peaks.matrixComponent) {
    s.matrixPeak = peaks.matrix;
    s.ofMatrixPeak = s.tflops / peaks.matrix;
  }
  const double peak = std::max(s.fmaPeak, s.matrixPeak);
  if (peak > 0 && copyGbps > 0 && s.flopsPerByte > 0) {
    s.ridge = peak * 1e12 / (copyGbps * 1e9);
    s.bound = s.flopsPerByte > s.ridge ? "compute" : "memory";
  }
  return s;
}

std::string computeDtype(const package::BenchCase& c) {
  bool f16 = false;
  for (const auto& [name, t] : c.inputs) {
    if (t.dtype == DType::Float32) return "f32";
    if (t.dtype == DType::Float16) f16 = true;
  }
  return f16 ? "f16" : "";
}

}  // namespace wgk::harness
