// The compute rooflines beside the copy one (roofline.h): how many floating-point operations per
// second this device sustains in plain WebGPU compute kernels. Compute-bound bench cases (bench.json
// `flops`, e.g. a large MatMul) are measured against them (`wgk bench`):
//   f32     fma() on vec4<f32> accumulators
//   f16     fma() on vec4<f16> / vec2<f16> accumulators (with shader-f16)
//   matrix  subgroupMatrixMultiplyAccumulate on register-resident f16 matrices with f32 results
//           (with chromium-experimental-subgroup-matrix, in a config of adapterInfo.subgroupMatrixConfigs)
// One FMA counts as 2 FLOP; one M x N x K matrix multiply-accumulate as 2*M*N*K.
//
//   harness::FmaRoofline fma(*rt);
//   const harness::FmaMeasurement& m = fma.measure(/*warmup=*/3, /*repeat=*/10, /*warmupMs=*/200);
//   double f16Peak = m.f16.tflops;   // -1 when not measured (m.f16.absent / m.f16.error say why)
//
// Every kernel is compute-bound by construction: many independent accumulator chains per
// invocation (so latency is hidden within one invocation as well as across them), operands from a
// uniform buffer (nothing for the compiler to fold), a loop count from the same uniform, and a
// result that decides a store (so no chain is dead code) which never happens (so no memory
// traffic). Each kernel's grid and loop count are calibrated on the device: the grid doubles until
// one dispatch takes a good part of the target time (enough workgroups to fill every SM, many
// waves so the tail wave costs little), then the loop count scales it to the target. Several
// shapes (accumulator count, vector width, workgroup size) are timed and the fastest median wins,
// as the copy roofline does.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu/pipeline.h"
#include "package/test_spec.h"
#include "wgk/device.h"
#include "wgk/runtime.h"

namespace wgk::harness {

// One roofline (f32, f16 or matrix): the fastest kernel and every kernel timed.
struct PeakMeasurement {
  double tflops = -1;  // -1: not measured (absent or error say why)
  double gpuUsMedian = 0, gpuUsMin = 0;
  double flopsPerDispatch = 0;
  uint32_t workgroups = 0, iterations = 0;    // the winner's calibrated grid and loop count
  std::string kernel;                         // the winner ("vec4x16/wg256", "16x16x16 acc4/wg32")
  std::map<std::string, double> candidates;   // TFLOPS (median) of every kernel timed
  std::map<std::string, std::string> failed;  // kernels that did not compile or run: why
  std::string absent;  // non-empty: not measured because the device lacks what it needs
  std::string error;   // non-empty: every kernel failed (the first error)
  std::optional<SubgroupMatrixConfig> config;  // matrix: the config the winner used
  nlohmann::json toJson() const;
};

struct FmaMeasurement {
  PeakMeasurement f32, f16, matrix;
  nlohmann::json toJson() const;  // the evidence's "fmaRoofline" object
};

// The peaks a case is compared with (TFLOPS; -1: none).
struct ComputePeaks {
  double f32 = -1, f16 = -1, matrix = -1;
  std::string matrixComponent;  // the matrix kernel's input type ("f16"): the dtype it serves
  static ComputePeaks of(const FmaMeasurement& m);
};

// A case with `flops` against the rooflines. The case's peak is its dtype's FMA peak, or the
// matrix peak where that is higher and serves the dtype: the highest roof the case could reach on
// this device. The ridge is that peak over the copy bandwidth (FLOP per byte); a case whose
// flops / bytes exceeds it is compute-bound.
struct ComputeShare {
  double tflops = -1, flopsPerByte = -1;
  double fmaPeak = -1, ofFmaPeak = -1;        // the dtype's FMA peak and the share of it
  double matrixPeak = -1, ofMatrixPeak = -1;  // only for the matrix kernel's dtype
  double ridge = -1;                          // -1: no peak for this dtype (no classification)
  std::string bound;                          // "compute", "memory", or "" without a ridge
};
ComputeShare computeShare(double flops, uint64_t bytes, double gpuUs, double copyGbps,
                          const std::string& dtype, const ComputePeaks& peaks);

// The floating-point type a bench case computes in, by its inputs: "f32" when any input is
// float32, else "f16" when any is float16, else "" (integers: no FMA peak applies).
std::string computeDtype(const package::BenchCase& c);

// One FMA kernel shape: `chains` independent accumulators of vec<width><scalar>, each loop
// iteration applying fma to every chain `unroll` times. `mulAdd` spells it `a * m + c` (which the
// driver may contract into one FMA, or not) instead of `fma(a, m, c)`: compilers differ in which
// they turn into packed half2 instructions.
struct FmaShape {
  std::string scalar = "f32";  // "f32" or "f16"
  uint32_t width = 4, chains = 16, unroll = 2, workgroupSize = 256;
  bool mulAdd = false;
  std::string name() const;                       // "vec4x16/wg256", "vec2x32/wg256 mul-add"
  double flopsPerInvocationPerIteration() const;  // 2 * width * chains * unroll
};

// One matrix kernel shape: `chains` independent result matrices per subgroup.
struct MatrixShape {
  SubgroupMatrixConfig config;
  uint32_t chains = 4, workgroupSize = 32;
  std::string name() const;  // "f16->f32 16x16x16 acc4/wg32"
};

// How the WGSL of this Dawn spells subgroupMatrixStore: the current form takes the layout as a
// template parameter (`subgroupMatrixStore<row_major>(p, offset, value, stride)`), the earlier one
// as a bool argument (`subgroupMatrixStore(p, offset, value, false, stride)`). Both are tried.
enum class MatrixStoreSyntax { TemplateLayout, BoolArgument };

class FmaRoofline {
 public:
  explicit FmaRoofline(Runtime& runtime) : runtime_(runtime) {}
  // Measures the three rooflines once (later calls return the same result). Needs timestamp-query.
  // Warm-up: `warmup` dispatches per kernel, and at least `warmupMs` of dispatches before the first.
  const FmaMeasurement& measure(int warmup, int repeat, double warmupMs = 0);
  const FmaMeasurement* result() const { return done_ ? &result_ : nullptr; }

  // Each loop iteration of a calibrated dispatch aims at this much GPU time per dispatch (us).
  static constexpr double kTargetUs = 2000;

  // The kernels (exposed for tests). Bindings: 0 the uniform {iters, mul, add, sentinel},
  // 1 the storage sink (and for the matrix kernel 2: a u32 the kernel writes its subgroup size to).
  static std::string fmaWgsl(const FmaShape& shape);
  static std::string matrixWgsl(const MatrixShape& shape, MatrixStoreSyntax syntax);
  // The shapes timed on a device (f32, f16; matrix from its configs: f16 inputs with f32 results).
  static std::vector<FmaShape> fmaShapes(const std::string& scalar, uint64_t maxWorkgroupSize);
  static std::vector<MatrixShape> matrixShapes(const DeviceProfile& device);

 private:
  Runtime& runtime_;
  bool done_ = false;
  FmaMeasurement result_;
};

}  // namespace wgk::harness
