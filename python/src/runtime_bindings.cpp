// wgk.Runtime: a device and its caches; loads packages, moves tensors (wgk::Runtime).
#include <pybind11/stl.h>

#include "arrays.h"
#include "bindings.h"
#include "errors.h"
#include "values.h"

namespace wgk::python {
namespace {

constexpr const char* kRuntimeDoc =
    R"(A WebGPU device (Dawn on Vulkan; lavapipe without a GPU) with wgk's caches.

One runtime, and every kernel it loaded, may be used from several Python threads at once; the GIL
is released while the runtime works and waits for the GPU.

Args (all optional, keyword-only):
    packages_dir: the embedded packages root (default: WGK_PACKAGES, then the installed ones).
    cache_dir: the hub cache (default: WGK_CACHE, then ~/.cache/wgk).
    endpoint: the hub endpoint (default: WGK_ENDPOINT, then https://huggingface.co/kernels).
    lock_file: resolve packages only as this lock file (wgk lock) says.
    tuning_file: a `wgk tune` table of this device.
    offline: never touch the network (also WGK_OFFLINE=1).
    trust_remote_code: allow organisations other than webgpu-kernels.

Example:
    >>> import numpy as np, wgk
    >>> rt = wgk.Runtime()
    >>> rt.device["adapterInfo"]["device"]            # lavapipe, without a GPU
    'llvmpipe (LLVM 15.0.6, 256 bits)'
    >>> gelu = rt.load("webgpu-kernels/com.microsoft.FastGelu", version=1)
    >>> gelu(X=np.linspace(-3, 3, 16, dtype=np.float32).reshape(2, 8))["Y"].shape
    (2, 8)
)";

constexpr const char* kInitDoc =
    R"(__init__(self, *, packages_dir: Union[None, str, os.PathLike] = None, cache_dir: Union[None, str, os.PathLike] = None, endpoint: Optional[str] = None, lock_file: Union[None, str, os.PathLike] = None, tuning_file: Union[None, str, os.PathLike] = None, offline: bool = False, trust_remote_code: bool = False) -> None

Creates the runtime and its device (the class's docstring describes the arguments).
)";

constexpr const char* kLoadDoc =
    R"(load(self, repo_or_path: Union[str, os.PathLike], *, version: Optional[int] = None, revision: Optional[str] = None) -> Kernel

Loads a kernel package: a repo id "webgpu-kernels/<domain>.<Op>" (embedded,
cached or downloaded, always digest-checked) or a package folder.

Args:
    version: the contract version N (follows branch vN; default 1).
    revision: a 40-hex commit that pins exact bytes.

Loading the same package twice returns kernels that share one plan cache.

Example:
    >>> rms = rt.load("webgpu-kernels/ai.onnx.RMSNormalization", version=1)
    >>> local = rt.load("packages/webgpu-kernels/com.microsoft.FastGelu")   # a folder
)";

template <class T>
void setIf(T& field, const std::optional<T>& value) {
  if (value) field = *value;
}

std::string pathArgument(py::handle v) {
  return py::str(py::module_::import("os").attr("fspath")(v));
}

PyDeviceTensor upload(const PyRuntime& self, py::handle array, const std::string& what) {
  HostTensor host = toHostTensor(array, what);
  py::gil_scoped_release unlocked;
  return {self.runtime, self.runtime->upload(host), nullptr};
}

// plan, device, cache_stats, wait_idle, repr.
void addInspection(py::class_<PyRuntime>& cls);

}  // namespace

void bindRuntime(py::module_& m) {
  py::class_<PyRuntime> cls(m, "Runtime", kRuntimeDoc);
  addInspection(cls);
  cls.def(py::init([](std::optional<py::object> packagesDir, std::optional<py::object> cacheDir,
                      std::optional<std::string> endpoint, std::optional<py::object> lockFile,
                      std::optional<py::object> tuningFile, bool offline, bool trustRemoteCode) {
            RuntimeOptions o;
            if (packagesDir) o.packagesDir = pathArgument(*packagesDir);
            if (cacheDir) o.cacheDir = pathArgument(*cacheDir);
            setIf(o.endpoint, endpoint);
            if (lockFile) o.lockFile = pathArgument(*lockFile);
            if (tuningFile) o.tuningFile = pathArgument(*tuningFile);
            o.offline = offline;
            o.trustRemoteCode = trustRemoteCode;
            py::gil_scoped_release unlocked;
            // The arguments given, then WGK_* for the rest (the library reads no variable itself).
            return PyRuntime{Runtime::create(RuntimeOptions::fromEnvironment(o))};
          }),
          py::kw_only(), py::arg("packages_dir") = py::none(), py::arg("cache_dir") = py::none(),
          py::arg("endpoint") = py::none(), py::arg("lock_file") = py::none(),
          py::arg("tuning_file") = py::none(), py::arg("offline") = false,
          py::arg("trust_remote_code") = false, kInitDoc)
      .def(
          "load",
          [](const PyRuntime& self, py::object repoOrPath, std::optional<int> version,
             std::optional<std::string> revision) {
            const std::string what = pathArgument(repoOrPath);
            LoadOptions o;
            o.version = version;
            o.revision = revision;
            py::gil_scoped_release unlocked;  // may download
            return loadedKernel(self.runtime, self.runtime->load(what, o));
          },
          py::arg("repo_or_path"), py::kw_only(), py::arg("version") = py::none(),
          py::arg("revision") = py::none(), kLoadDoc)
      .def(
          "upload", [](const PyRuntime& self, py::object array) { return upload(self, array, "the array"); },
          py::arg("array"),
          "upload(self, array: TensorLike) -> DeviceTensor\n\n"
          "Copies a numpy array (or a DLPack provider, or anything numpy.asarray takes) to the device "
          "once.\n\n"
          "Example:\n    >>> xd = rt.upload(np.ones((4, 64), np.float16))\n    >>> xd.shape, xd.dtype\n"
          "    ((4, 64), dtype('float16'))")
      .def(
          "from_dlpack",
          [](const PyRuntime& self, py::object tensor) { return upload(self, tensor, "the tensor"); },
          py::arg("tensor"),
          "from_dlpack(self, tensor: Any) -> DeviceTensor\n\n"
          "A DLPack provider in CPU memory (a torch tensor, a numpy array, ...) as a new "
          "wgk.DeviceTensor.\n\n"
          "Example:\n    >>> xd = rt.from_dlpack(torch.ones(4, 64, dtype=torch.float16))")
      .def(
          "allocate",
          [](const PyRuntime& self, py::object shape, py::object dtype) {
            const Shape s = shapeOf(shape, "shape");
            const DType t = parseDtype(dtype, "the tensor");
            py::gil_scoped_release unlocked;
            return PyDeviceTensor{self.runtime, self.runtime->allocate(t, s), nullptr};
          },
          py::arg("shape"), py::arg("dtype"),
          "allocate(self, shape: Sequence[int], dtype: DTypeLike) -> DeviceTensor\n\n"
          "A new device tensor (contents unspecified), e.g. for a kernel call's outputs=.");
}

namespace {

void addInspection(py::class_<PyRuntime>& cls) {
  cls.def(
         "plan",
         [](const PyRuntime& self, py::object repoOrPath, py::object inputs, std::optional<int> version,
            std::optional<std::string> revision, py::object attrs, py::object args, py::object variant,
            py::object device, py::object wgsl, py::kwargs kwargs) {
           const std::string what = pathArgument(repoOrPath);
           LoadOptions o;
           o.version = version;
           o.revision = revision;
           PyKernel k;
           {
             py::gil_scoped_release unlocked;
             k = loadedKernel(self.runtime, self.runtime->load(what, o));
           }
           return planKernel(k, inputs, attrs, args, variant, device, flagArgument(wgsl, "wgsl"), kwargs);
         },
         py::arg("repo_or_path"), py::arg("inputs") = py::none(), py::pos_only(), py::kw_only(),
         py::arg("version") = py::none(), py::arg("revision") = py::none(), py::arg("attrs") = py::none(),
         py::arg("args") = py::none(), py::arg("variant") = py::none(), py::arg("device") = py::none(),
         py::arg("wgsl") = py::bool_(false),
         "plan(self, repo_or_path: Union[str, os.PathLike], "
         "inputs: Optional[Mapping[str, TensorSpec]] = None, /, *, version: Optional[int] = None, "
         "revision: Optional[str] = None, attrs: Optional[Mapping[str, AttributeValue]] = None, "
         "args: Optional[Mapping[str, AttributeValue]] = None, variant: Optional[str] = None, "
         "device: Union[None, Mapping[str, Any], str, os.PathLike] = None, wgsl: bool = False, "
         "**tensors_and_attributes: Any) -> Dict[str, Any]\n\n"
         "Loads a package and plans a request on it (Kernel.plan): the explanation as a dict.\n\n"
         "Example:\n"
         "    >>> p = rt.plan(\"webgpu-kernels/com.microsoft.FastGelu\", X=(\"float16\", (4096, 16384)),\n"
         "    ...             bias=(\"float16\", (16384,)), device=\"h200.json\")\n"
         "    >>> p[\"variant\"], [(v[\"id\"], v[\"reason\"]) for v in p[\"variants\"]]")
      .def_property_readonly(
          "device", [](const PyRuntime& self) { return fromJsonText(self.runtime->device().toJsonText(-1)); },
          "device: Dict[str, Any]\n\nThe device profile as a dict: adapterInfo, features, "
          "wgslLanguageFeatures, limits, numerics "
          "(the JSON of `wgk devices --json`; Kernel.plan(device=...) takes it).")
      .def_property_readonly(
          "cache_stats",
          [](const PyRuntime& self) {
            const CacheStats s = self.runtime->cacheStats();
            py::dict d;
            d["shader_modules_compiled"] = s.shaderModulesCompiled;
            d["pipeline_hits"] = s.pipelineHits;
            d["pipeline_misses"] = s.pipelineMisses;
            d["pipeline_evictions"] = s.pipelineEvictions;
            d["pipelines_cached"] = s.pipelinesCached;
            d["plan_hits"] = s.planHits;
            d["plan_misses"] = s.planMisses;
            d["bind_group_hits"] = s.bindGroupHits;
            d["bind_group_misses"] = s.bindGroupMisses;
            d["pooled_buffers"] = s.pooledBuffers;
            d["buffers_created"] = s.buffersCreated;
            d["pipeline_blob_hits"] = s.pipelineBlobHits;
            d["pipeline_blob_misses"] = s.pipelineBlobMisses;
            d["pipeline_blob_stores"] = s.pipelineBlobStores;
            d["pipeline_blob_evictions"] = s.pipelineBlobEvictions;
            d["pipeline_blobs_rejected"] = s.pipelineBlobsRejected;
            return d;
          },
          "cache_stats: Dict[str, int]\n\nThe runtime's cache counters (docs/runtime.md, Caches).")
      .def(
          "wait_idle",
          [](const PyRuntime& self) {
            py::gil_scoped_release unlocked;
            self.runtime->waitIdle();
          },
          "wait_idle(self) -> None\n\nBlocks until all submitted GPU work has finished.")
      .def("__repr__", [](const PyRuntime& self) {
        const auto& info = self.runtime->device().adapterInfoStrings;
        auto it = info.find("description");
        return "wgk.Runtime(device='" + (it == info.end() ? std::string("?") : it->second) + "')";
      });
}

}  // namespace

}  // namespace wgk::python
