// wgk/runtime.h — load a kernel package and call it, from C++.
//
// The C++ counterpart of `getKernel(repo, {version: 1})` + `kernel({X: {data, shape}})`:
//
//   #include <wgk/wgk.h>
//
//   auto rt = wgk::Runtime::create();                       // own Vulkan device (Dawn)
//   wgk::Kernel gelu = rt->load("webgpu-kernels/com.microsoft.FastGelu", {.version = 1});
//   wgk::HostTensor x = wgk::HostTensor::fromFloats(wgk::DType::Float16, {2, 8}, values);
//   auto out = gelu({{"X", x}});                            // host in, host out
//   const wgk::HostTensor& y = out.at("Y");
//
//   // Chaining on the device, no readback in between:
//   wgk::DeviceTensor xd = rt->upload(x);
//   wgk::CallResult r1 = gelu.call({{"X", xd}});            // GPU inputs -> outputs stay on the GPU
//   wgk::Kernel rms = rt->load("webgpu-kernels/ai.onnx.RMSNormalization");
//   wgk::CallResult r2 = rms.call({{"x", r1.device.at("Y")}, {"scale", scale}},
//                                 {.attrs = {{"epsilon", 1e-6}}});
//   wgk::HostTensor y2 = rt->download(r2.device.at("y"));
//
// Device in, device out calls are deferred (RuntimeOptions::deferCalls): recorded into a pending
// command buffer that the download above submits, so a loop of single calls costs about what a
// Batch does. A decode loop written the plain way keeps a constant set of buffers: a dropped
// output returns to the pool and the next call takes it.
//
//   wgk::DeviceTensor h = xd;
//   for (int i = 0; i < 1000; ++i) h = gelu.call({{"X", h}}).device.at("Y");  // deferred
//   rt->flush();                                             // optional: start the GPU now
//   wgk::HostTensor last = rt->download(h);                   // submits what is pending, waits
//
// Tensors are named by the manifest's `args` keys (`X`, `bias`, `x`, `scale`, `qT`, ...). Output
// shapes and dtypes come from the manifest; outputs are allocated unless the caller passes its own
// buffers in CallOptions::outputs. Errors are wgk::Error (wgk/error.h); a failed call leaves the
// runtime usable and leaks nothing.
//
// Thread safety: one Runtime (and the Kernels it loaded) may be called from several threads at
// once. Planning and cache look-ups run concurrently; GPU encoding and submission are serialised
// inside the runtime (Dawn's device is not internally synchronised). Results are ordered per call.
// A thread waiting for the GPU (a call's readback, download, waitIdle) does not hold the runtime's
// GPU lock meanwhile: other threads record, submit and finish their calls while it waits.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "wgk/attribute.h"
#include "wgk/device.h"
#include "wgk/export.h"
#include "wgk/plan.h"
#include "wgk/signature.h"
#include "wgk/tensor.h"

#include "wgk/webgpu_handles.h"

namespace wgk {

class RuntimeImpl;
class KernelImpl;
struct IntrospectAccess;
class DeviceTensorImpl;
class Batch;  // wgk/batch.h
class Graph;
class GraphImpl;

// A GPU tensor owned by a Runtime allocation (freed when the last copy goes away). Move or copy
// freely; view() gives the non-owning GpuTensor.
class DeviceTensor {
 public:
  DeviceTensor() = default;
  DType dtype() const { return view_.dtype; }
  const Shape& shape() const { return view_.shape; }
  const GpuTensor& view() const { return view_; }
  explicit operator bool() const { return view_.buffer != nullptr; }

 private:
  friend class RuntimeImpl;
  friend class TensorRef;
  std::shared_ptr<DeviceTensorImpl> owner_;
  GpuTensor view_;
};

// One input of a call: host data or a device buffer (caller's GpuTensor or a DeviceTensor).
class TensorRef {
 public:
  TensorRef(const HostTensor& t) : v_(&t) {}
  TensorRef(const GpuTensor& t) : v_(t) {}
  TensorRef(const DeviceTensor& t) : v_(t.view()), owner_(t.owner_) {}
  bool onHost() const { return std::holds_alternative<const HostTensor*>(v_); }
  const HostTensor& host() const { return *std::get<const HostTensor*>(v_); }
  const GpuTensor& gpu() const { return std::get<GpuTensor>(v_); }
  DType dtype() const { return onHost() ? host().dtype() : gpu().dtype; }
  const Shape& shape() const { return onHost() ? host().shape() : gpu().shape; }

 private:
  // The runtime's kernels, batches and graphs keep the allocation behind a DeviceTensor (owner_,
  // null otherwise) alive while they may still read it.
  friend class KernelImpl;
  friend class GraphImpl;
  const std::shared_ptr<DeviceTensorImpl>& owner() const { return owner_; }
  std::variant<const HostTensor*, GpuTensor> v_;
  std::shared_ptr<DeviceTensorImpl> owner_;
};

enum class OutputPlacement {
  Auto,    // on the host when every input is a host tensor, else on the device
  Host,    // read back into HostTensors
  Device,  // leave in runtime-allocated DeviceTensors
};

struct CallOptions {
  std::map<std::string, Attribute> attrs;  // unknown names and values outside the contract are errors
  std::map<std::string, Attribute> args;   // scalar args (spec 2.1 packages' `args`): numbers, bools, strings
  std::string variant;                     // force a variant id (must be eligible)
  OutputPlacement placement = OutputPlacement::Auto;
  std::map<std::string, GpuTensor> outputs;  // caller-given output buffers, by arg name
  bool timestamps = false;                   // measure GPU time with timestamp queries (waits)
};

// One pass of a call timed with timestamps (CallTimings::passes).
struct PassTiming {
  std::string id;        // the plan's pass id: "block_stats", or "<group>[<i>].<pass>" in a repeat group
  double gpuUs = 0;      // its compute pass's GPU time, begin to end, from the previous pass's end at the earliest
  bool skipped = false;  // not dispatched (zero workgroups, or an in-place view aliased away): gpuUs 0
};

// Where a call's time went. With CallOptions::timestamps each pass runs in a compute pass of its
// own between two timestamp queries; `passes` lists every pass of the plan in plan order (skipped
// ones too) and gpuUs is their sum, so a multi-pass kernel's time splits by pass:
//
//   CallOptions o;
//   o.timestamps = true;
//   CallResult r = softmax.call(inputs, o);        // longrow_split: 3 passes
//   for (const PassTiming& p : r.timings.passes)   // block_stats, row_stats, normalize
//     std::printf("%s %.1f us (%.0f%%)\n", p.id.c_str(), p.gpuUs, 100 * p.gpuUs / r.timings.gpuUs);
//
// Without timestamps gpuUs is -1 and passes is empty. gpuUs is not the span from the first pass's
// start to the last one's end: the gaps between passes, and overlaps, are in no pass's time.
struct CallTimings {
  double uploadUs = 0;             // host -> device copies
  double gpuUs = -1;               // sum of the passes' GPU times from timestamps; -1 when not measured
  double readbackUs = 0;           // device -> host copies (includes waiting for the GPU)
  double totalUs = 0;              // the whole call, wall clock
  std::vector<PassTiming> passes;  // per pass, filled exactly when gpuUs is (their sum is gpuUs)
};

struct CallResult {
  std::map<std::string, HostTensor> host;      // outputs read back to the host
  std::map<std::string, DeviceTensor> device;  // outputs left on the device (runtime-allocated)
  std::string variant;                         // the variant that ran
  std::string selectedBy;                      // "priority", "forced" or "tuning"
  CallTimings timings;
};

struct LoadOptions {
  std::optional<int> version;           // contract version: branch v<N> (default 1)
  std::optional<std::string> revision;  // a 40-hex commit pins exact bytes
};

// Where a loaded package came from.
struct PackageSource {
  std::string repo;       // "webgpu-kernels/com.microsoft.FastGelu", or the folder for a path
  std::string opId;       // "com.microsoft.FastGelu"
  std::string requested;  // "v1", a revision, or "path"
  std::string revision;   // the resolved revision (40 hex), "embedded:<content hash>" for embedded
  std::string origin;     // "embedded", "cache", "network", "lock" or "path"
  std::string folder;     // local folder holding build/webgpu/
};

// A loaded package. Copies share one kernel (its plans and caches); calls are const, as a Batch
// takes a const Kernel&, and may come from several threads.
class WGK_API Kernel {
 public:
  Kernel() = default;
  // Host tensors in, host tensors out, by arg name.
  std::map<std::string, HostTensor> operator()(const std::map<std::string, HostTensor>& inputs,
                                               const std::map<std::string, Attribute>& attrs = {}) const;
  CallResult call(const std::map<std::string, TensorRef>& inputs, const CallOptions& options = {}) const;
  // What the kernel takes: ports (dtypes, ranks), scalar args, attributes with defaults, variants
  // (wgk/signature.h).
  KernelSignature signature() const;
  // What a call with inputs of these dtypes and shapes would do, on the runtime's device (with its
  // tuning) or on options.device; runs nothing (wgk/plan.h).
  KernelPlan plan(const std::map<std::string, TensorSpec>& inputs, const PlanOptions& options = {}) const;
  const PackageSource& source() const;
  explicit operator bool() const { return impl_ != nullptr; }

 private:
  friend class RuntimeImpl;
  friend class BatchImpl;
  friend struct IntrospectAccess;  // wgk's own tools (not part of the public API)
  std::shared_ptr<KernelImpl> impl_;
};

// What a runtime is created with. The library reads no environment variable: a field left at its
// default gets wgk's default (below), whatever WGK_* variables say, unless the caller fills the
// options through fromEnvironment, as the wgk command and the Python package do:
//
//   auto rt = wgk::Runtime::create(wgk::RuntimeOptions::fromEnvironment());   // WGK_* apply
//   auto offline = wgk::Runtime::create(wgk::RuntimeOptions::fromEnvironment({.offline = true}));
//
// One precedence rule: an option the caller set > its WGK_* variable > wgk's default
// (docs/runtime.md, "Options and the environment", lists every variable).
struct WGK_API RuntimeOptions {
  std::string packagesDir;       // embedded packages root; default: the installed ones (WGK_PACKAGES)
  std::string cacheDir;          // hub cache; default: ~/.cache/wgk (WGK_CACHE, $XDG_CACHE_HOME/wgk)
  std::string endpoint;          // hub endpoint; default: the public one (WGK_ENDPOINT)
  std::string lockFile;          // resolve only as this lock file says
  std::string tuningFile;        // per-device tuning table (wgk tune); default: none (WGK_TUNING)
  bool offline = false;          // never touch the network (WGK_OFFLINE=1)
  bool trustRemoteCode = false;  // allow organisations other than webgpu-kernels
  // The endpoint whose webgpu-kernels packages load without trustRemoteCode; default: the public
  // one (WGK_TRUSTED_ENDPOINT). Packages from any other endpoint need trustRemoteCode.
  std::string trustedEndpoint;
  // A package folder with a metadata.json is checked against its digests on every load; false
  // (WGK_NO_VERIFY=1, the CLI's --no-verify) skips that while an author edits the folder.
  bool verifyDigests = true;
  long refsTtlSec = -1;  // seconds a branch's commit is used before asking again; -1: 300 (WGK_REFS_TTL)
  DeviceOptions device;  // how to create the device when the runtime creates its own
  // The longest one wait for the GPU may take (a call's submit and readback, download, waitIdle):
  // past it the call throws Error(DeviceLost) "GPU deadline exceeded", and a device the runtime created is
  // replaced by a new one before the next call (tensors made before then are lost with the old device). 0:
  // 60000 (WGK_GPU_TIMEOUT_MS).
  uint64_t gpuTimeoutMs = 0;
  // Deferred single calls: a Kernel::call that reads only device tensors and leaves its outputs on
  // the device (no readback, no timestamps) is recorded into the runtime's pending command buffer
  // instead of being submitted alone. The pending calls are submitted together, in order, before
  // any other queue work (a download, a host upload or write, a Batch::submit, a replay, a call
  // that reads back), by waitIdle() and flush(), and when deferMaxCalls calls are pending or the
  // first of them is deferMaxUs old (checked when a call is deferred). Results are the same as
  // with deferCalls = false, which submits every call at once. An error Dawn reports for deferred
  // work is thrown by whatever flushed it, naming the calls. A runtime on the caller's device
  // (createForDevice) never defers: wgk cannot order the caller's own submissions.
  bool deferCalls = true;
  uint32_t deferMaxCalls = 64;  // the pending buffer's bound, in calls (0: 64)
  uint32_t deferMaxUs = 500;    // the longest a deferred call waits for a later one (0: 500)
  // The persistent pipeline cache: Dawn's compiled code (Tint's SPIR-V, the driver's pipeline cache
  // data) kept under <cacheDir>/pipelines/, one folder per adapter, driver and Dawn build, so a later
  // process compiles nothing this one compiled. false (WGK_NO_PIPELINE_CACHE=1) compiles every
  // pipeline anew and writes nothing. A cache folder that cannot be used (a symbolic link below
  // cacheDir, no permission) is skipped with a warning, never an error.
  bool pipelineCache = true;
  uint64_t pipelineCacheMaxBytes = 0;  // least recently used entries go past it (0: 256 MiB)
  // The in-memory pipeline cache: compiled pipelines shared by every kernel of this runtime, at
  // most this many (0: 256); past it the least recently used one is dropped (a plan still using
  // it keeps it alive) and compiled again when asked for. CacheStats counts hits, misses, evictions.
  uint32_t maxPipelines = 0;

  // Hub downloads: the bearer token, sent only to the endpoint's origin (WGK_TOKEN; empty: none),
  // and the longest one file and one package may take, in seconds (0: 300 and 900;
  // WGK_HUB_FILE_TIMEOUT_S, WGK_HUB_DOWNLOAD_TIMEOUT_S).
  std::string token;
  long hubFileTimeoutSec = 0, hubDownloadTimeoutSec = 0;

  // `given` with every field it leaves at its default taken from the WGK_* variable named beside
  // that field, if set (the rest keep wgk's defaults). A malformed variable is
  // Error(InvalidArgument) naming it. Reads the environment on every call.
  static RuntimeOptions fromEnvironment(const RuntimeOptions& given);
  static RuntimeOptions fromEnvironment();  // fromEnvironment(RuntimeOptions{})
};

// Sets the threshold of wgk's log (Dawn's messages and the runtime's notes, on stderr) from WGK_LOG:
// error, warn, info or debug (unset: warn). The edges call it (the CLI, the Python package); the
// library itself never reads the variable. A value that is none of these is Error(InvalidArgument).
WGK_API void setLogLevelFromEnvironment();

struct CacheStats {
  // The in-memory pipeline cache (RuntimeOptions::maxPipelines): look-ups answered (hits) and not
  // (misses, each a compilation), pipelines dropped for the bound, and how many it holds now.
  uint64_t shaderModulesCompiled = 0;  // successful compilations
  uint64_t pipelineHits = 0, pipelineMisses = 0, pipelineEvictions = 0, pipelinesCached = 0;
  uint64_t planHits = 0, planMisses = 0;
  uint64_t bindGroupHits = 0, bindGroupMisses = 0;
  uint64_t pooledBuffers = 0;   // buffers held by the scratch/staging pool
  uint64_t bufferAcquires = 0;  // buffers the pool handed out (outputs, uploads, staging)
  uint64_t buffersCreated = 0;  // of those, newly allocated on the device
  uint64_t deferredCalls = 0;   // Kernel::calls recorded into the pending buffer
  uint64_t flushes = 0;         // pending buffers submitted
  uint64_t pendingCalls = 0;    // deferred calls not yet submitted
  // The persistent pipeline cache (RuntimeOptions::pipelineCache), over the runtime's life: Dawn's
  // asks answered from disk (hits) or not (misses), blobs written, entries removed to stay under
  // the size bound, and damaged or foreign files removed instead of being used.
  uint64_t pipelineBlobHits = 0, pipelineBlobMisses = 0, pipelineBlobStores = 0;
  uint64_t pipelineBlobEvictions = 0, pipelineBlobsRejected = 0;
};

class WGK_API Runtime {
 public:
  static std::shared_ptr<Runtime> create(const RuntimeOptions& options = {});
  // Binds to a device the caller created with the same WebGPU library (the runtime adds a
  // reference and releases it when destroyed).
  static std::shared_ptr<Runtime> createForDevice(WGPUDevice device, const RuntimeOptions& options = {});
  ~Runtime();

  // repoOrPath: "webgpu-kernels/<domain>.<Op>" (embedded, cache or hub) or a package folder.
  Kernel load(const std::string& repoOrPath, const LoadOptions& options = {});

  DeviceTensor allocate(DType dtype, const Shape& shape);
  DeviceTensor upload(const HostTensor& tensor);
  // Copies host data into an existing device tensor (a DeviceTensor's view or a caller's
  // GpuTensor, offset included): same dtype and element count, else Error(InvalidArgument).
  // Queue-ordered like a submit: calls, batches and replays submitted later read the new data,
  // those submitted earlier the old. How a model feeds a captured graph its per-token inputs.
  void write(const GpuTensor& dst, const HostTensor& src);
  void write(const DeviceTensor& dst, const HostTensor& src) { write(dst.view(), src); }
  HostTensor download(const GpuTensor& tensor);
  HostTensor download(const DeviceTensor& tensor) { return download(tensor.view()); }
  void waitIdle();  // submits the deferred calls, then blocks until all submitted work has finished
  // Submits the deferred calls (RuntimeOptions::deferCalls) now; does not wait. Errors of that
  // work -> wgk::Error naming the calls.
  void flush();

  // Many calls, one submission; and recorded calls replayed with new data (wgk/batch.h).
  Batch batch();
  Graph capture(const std::function<void(Batch&)>& record);

  const DeviceProfile& device() const;
  CacheStats cacheStats() const;

 private:
  friend struct IntrospectAccess;  // wgk's own tools (not part of the public API)
  explicit Runtime(std::unique_ptr<RuntimeImpl> impl);
  std::unique_ptr<RuntimeImpl> impl_;
};

}  // namespace wgk
