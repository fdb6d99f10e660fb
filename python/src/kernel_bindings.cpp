// wgk.Kernel and wgk.CallResult: calling a loaded package on numpy arrays, DLPack providers and
// device tensors (Kernel::call, the public API), and planning without running (the plan's JSON).
#include <pybind11/stl.h>

#include <functional>

#include "arrays.h"
#include "bindings.h"
#include "call_args.h"
#include "errors.h"
#include "values.h"

namespace wgk::python {
namespace {

constexpr const char* kKernelDoc =
    R"(A loaded kernel package (Runtime.load). Call it with tensors named by the
manifest's args (`X`, `bias`, `x`, `scale`, `qT`, ...) and attributes as keywords.

Example:
    >>> gelu = rt.load("webgpu-kernels/com.microsoft.FastGelu", version=1)
    >>> y = gelu(X=x, bias=b)["Y"]                       # numpy in, numpy out
    >>> rms = rt.load("webgpu-kernels/ai.onnx.RMSNormalization")
    >>> out = rms(x=x, scale=s, epsilon=1e-6)           # or attrs={"epsilon": 1e-6}
    >>> rms.plan(x=("float16", (4096, 2048)), scale=("float16", (2048,)))["variant"]   # lavapipe
    'last_axis_row_f16x8'
)";

constexpr const char* kCallDoc =
    R"(__call__(self, inputs: Optional[Mapping[str, TensorLike]] = None, /, *, attrs: Optional[Mapping[str, AttributeValue]] = None, args: Optional[Mapping[str, AttributeValue]] = None, variant: Optional[str] = None, placement: str = "auto", outputs: Optional[Mapping[str, DeviceTensor]] = None, **tensors_and_attributes: Any) -> Dict[str, Output]

Runs the kernel and returns its outputs by name.

Args:
    inputs: optional dict of tensors by arg name (for names that are not Python identifiers).
    **kwargs: tensors by arg name (numpy arrays of any strides and byte order, DLPack providers
        such as CPU torch tensors, nested lists, or wgk.DeviceTensor), and attributes by name.
    attrs: dict of attributes (bool, int, float, str, list of numbers), besides the keywords.
    args: dict of scalar args (spec 2.1 packages' `args`: numbers, bools, strings), besides the
        keywords that name one.
    variant: force this variant id (it must be eligible).
    placement: "auto" (host outputs when every input is on the host, else device), "host" or
        "device".
    outputs: dict of wgk.DeviceTensor to write outputs into (dtype and shape must be what the
        manifest derives); they are returned as given. A device tensor passed for an in/out port
        (spec 2.1) is updated in place and returned as given too.

Returns:
    dict of numpy arrays (host outputs) or wgk.DeviceTensor (device outputs) by output name.

Host inputs are copied once, into the upload; the GIL is released while the runtime works and
waits for the GPU. Errors are wgk.Error subclasses (wgk.ContractError, wgk.NoVariantError, ...).

Example:
    >>> gelu(X=np.ones((2, 8), np.float16))["Y"].dtype
    dtype('float16')
    >>> yd = gelu(X=x, placement="device")["Y"]         # wgk.DeviceTensor
)";

constexpr const char* kCallResultDoc =
    R"(call(self, inputs: Optional[Mapping[str, TensorLike]] = None, /, *, attrs: Optional[Mapping[str, AttributeValue]] = None, args: Optional[Mapping[str, AttributeValue]] = None, variant: Optional[str] = None, placement: str = "auto", outputs: Optional[Mapping[str, DeviceTensor]] = None, timestamps: bool = False, **tensors_and_attributes: Any) -> CallResult

As calling the kernel, but returns a wgk.CallResult: the outputs, the
variant that ran, how it was selected and the timings (timestamps=True measures GPU time with
timestamp queries).

Example:
    >>> r = gelu.call(X=x, variant="scalar_no_bias", timestamps=True)
    >>> r.variant, r.selected_by, r.timings["gpu_us"]
)";

constexpr const char* kPlanDoc =
    R"(plan(self, inputs: Optional[Mapping[str, TensorSpec]] = None, /, *, attrs: Optional[Mapping[str, AttributeValue]] = None, args: Optional[Mapping[str, AttributeValue]] = None, variant: Optional[str] = None, device: Union[None, Mapping[str, Any], str, os.PathLike] = None, wgsl: bool = False, **tensors_and_attributes: Any) -> Dict[str, Any]

Plans a call without running it: which variant the request gets, why every
other variant was not chosen, the passes with their dispatch sizes, bindings and uniforms.

Tensors are given as for a call, or as (dtype, shape) pairs: x=("float16", (4096, 2048)).

Args:
    device: None (this runtime's device), a device profile dict (Runtime.device of another
        machine) or the path of a profile file (`wgk devices --json`).
    wgsl: also render every pass's WGSL.

Returns:
    the plan as a dict: "variant", "selectedBy", "variants" (id, priority, eligible, demoted,
    reason), "outputs", "intermediates", "passes" (dispatch, workgroups, bindings, uniforms).

Example:
    >>> p = gelu.plan(X=("float16", (4096, 16384)), bias=("float16", (16384,)))
    >>> p["variant"], p["passes"][0]["dispatch"]
    >>> [(v["id"], v["reason"]) for v in p["variants"] if not v["eligible"]]
    >>> gelu.plan(X=x, device="h200.json")           # for another device's profile
)";

constexpr const char* kSignatureDoc = R"(signature: Dict[str, Any]

What the kernel takes, as its manifest declares it (Kernel::signature in C++).

A dict: "op", "description", "since_version"; "ports" (inputs in manifest order, then outputs;
each with "name", "direction" ("input", "output" or "inout"), "dtypes" (the dtype names it takes,
empty: any), "type_variable" (the "T" ports that share a dtype have in common, or None), "rank"
(the rank an input must have, or None), "rank_checked", "optional", "description"); "args" (scalar
args: "name", "kind", "required", "one_of", "description"); "attributes" ("name", "default" or
None, "description"); "variants" ("id", "name", "description", "priority").

Example:
    >>> s = rms.signature
    >>> [(p["name"], p["dtypes"]) for p in s["ports"] if p["direction"] == "input"]
    [('x', ['float32', 'float16']), ('scale', ['float32', 'float16'])]
    >>> {a["name"]: a["default"] for a in s["attributes"]}["epsilon"]
    1e-05
)";

struct PyCallResult {
  py::dict outputs;
  std::string variant, selectedBy;
  py::dict timings;
  py::list passes;  // CallTimings::passes as dicts: id, gpu_us, skipped
};

PyCallResult call(PyKernel& k, py::object inputs, py::object attrs, py::object args, py::object variant,
                  py::handle placement, py::object outputs, bool timestamps, const py::kwargs& kwargs) {
  CallArgs a;
  prepareCall(k, inputs, attrs, args, variant, outputs, kwargs, CallSite::Single, a);
  a.options.placement = placementArgument(placement);
  a.options.timestamps = timestamps;
  CallResult r;
  {
    py::gil_scoped_release unlocked;
    r = k.kernel.call(a.refs, a.options);
  }
  PyCallResult out;
  out.outputs = outputsDict(k, a, std::move(r.host), std::move(r.device), nullptr);
  out.variant = r.variant;
  out.selectedBy = r.selectedBy;
  out.timings["upload_us"] = r.timings.uploadUs;
  out.timings["gpu_us"] =
      r.timings.gpuUs < 0 ? py::object(py::none()) : py::object(py::float_(r.timings.gpuUs));
  out.timings["readback_us"] = r.timings.readbackUs;
  out.timings["total_us"] = r.timings.totalUs;
  for (const PassTiming& p : r.timings.passes) {
    py::dict d;
    d["id"] = p.id;
    d["gpu_us"] = p.gpuUs;
    d["skipped"] = p.skipped;
    out.passes.append(std::move(d));
  }
  return out;
}

bool isDtypeLike(py::handle v) {
  return py::isinstance<py::str>(v) || py::isinstance<py::dtype>(v) || PyType_Check(v.ptr()) ||
         py::hasattr(v, "is_floating_point");  // a torch dtype
}

// A tensor for planning: its dtype and shape only, never copied.
TensorSpec describe(py::handle v, const std::string& name) {
  if (const PyDeviceTensor* d = asDeviceTensor(v)) return {d->tensor.dtype(), d->tensor.shape()};
  if ((py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v)) && py::len(v) == 2 &&
      isDtypeLike(v[py::int_(0)]))
    return {parseDtype(v[py::int_(0)], "input '" + name + "'"),
            shapeOf(v[py::int_(1)], "the shape of input '" + name + "'")};
  py::array a = asNumpy(v, "input '" + name + "'");
  return {parseDtype(a.dtype(), "input '" + name + "'"), Shape(a.shape(), a.shape() + a.ndim())};
}

DeviceProfile profileArgument(py::handle device) {
  if (py::isinstance<py::dict>(device)) return DeviceProfile::fromJsonText(toJsonText(device));
  const std::string path = py::str(py::module_::import("os").attr("fspath")(device));
  return DeviceProfile::load(path);
}

py::dict sourceDict(const PackageSource& s) {
  py::dict d;
  d["repo"] = s.repo;
  d["op"] = s.opId;
  d["requested"] = s.requested;
  d["revision"] = s.revision;
  d["origin"] = s.origin;
  d["folder"] = s.folder;
  return d;
}

py::list portNames(const std::vector<const PortSignature*>& ports) {
  py::list out;
  for (const PortSignature* p : ports) out.append(p->name);
  return out;
}

const char* directionName(PortDirection d) {
  switch (d) {
    case PortDirection::Input:
      return "input";
    case PortDirection::Output:
      return "output";
    case PortDirection::InOut:
      return "inout";
  }
  return "input";
}

py::object orNone(bool present, py::object value) {
  return present ? value : py::object(py::none());
}

// Kernel::signature() as plain Python values (wgk/signature.h names each field).
py::dict signatureDict(const KernelSignature& s) {
  py::dict d;
  d["op"] = s.op;
  d["description"] = s.description;
  d["since_version"] = s.sinceVersion;
  py::list ports;
  for (const PortSignature& p : s.ports) {
    py::dict e;
    e["name"] = p.name;
    e["direction"] = directionName(p.direction);
    py::list dtypes;
    for (DType t : p.dtypes) dtypes.append(std::string(dtypeName(t)));
    e["dtypes"] = dtypes;
    e["type_variable"] = orNone(!p.typeVariable.empty(), py::str(p.typeVariable));
    e["rank"] = orNone(p.rank.has_value(), py::int_(p.rank.value_or(0)));
    e["rank_checked"] = p.rankChecked;
    e["optional"] = p.optional;
    e["description"] = p.description;
    ports.append(e);
  }
  d["ports"] = ports;
  py::list args;
  for (const ArgSignature& a : s.args)
    args.append(py::dict(py::arg("name") = a.name, py::arg("kind") = a.kind, py::arg("required") = a.required,
                         py::arg("one_of") = a.oneOf, py::arg("description") = a.description));
  d["args"] = args;
  py::list attributes;
  for (const AttributeSignature& a : s.attributes)
    attributes.append(py::dict(
        py::arg("name") = a.name,
        py::arg("default") =
            orNone(a.defaultValue.has_value(), a.defaultValue ? fromAttribute(*a.defaultValue) : py::none()),
        py::arg("description") = a.description));
  d["attributes"] = attributes;
  py::list variants;
  for (const VariantSignature& v : s.variants)
    variants.append(py::dict(py::arg("id") = v.id, py::arg("name") = v.name,
                             py::arg("description") = v.description, py::arg("priority") = v.priority));
  d["variants"] = variants;
  return d;
}

}  // namespace

py::object planKernel(const PyKernel& k, py::object inputs, py::object attrs, py::object args,
                      py::object variant, py::object device, bool wgsl, py::kwargs kwargs) {
  std::map<std::string, TensorSpec> specs;
  Scalars scalars = collect(k, inputs, attrs, args, kwargs, [&](const std::string& name, py::handle v) {
    specs.emplace(name, describe(v, name));
  });
  PlanOptions o;
  o.attrs = std::move(scalars.attrs);
  o.args = std::move(scalars.args);
  o.variant = stringOrEmpty(variant, "variant");
  if (!device.is_none()) o.device = profileArgument(device);
  o.wgsl = wgsl;
  KernelPlan p;
  {
    py::gil_scoped_release unlocked;
    p = k.kernel.plan(specs, o);
  }
  return fromJsonText(p.json);
}

static void bindCallResult(py::module_& m) {
  py::class_<PyCallResult>(m, "CallResult",
                           "What Kernel.call returns: the outputs and how the call ran.\n\nExample:\n"
                           "    >>> r = gelu.call(X=x, timestamps=True)\n"
                           "    >>> r.outputs[\"Y\"], r.variant, r.selected_by, r.timings[\"gpu_us\"]")
      .def_readonly("outputs", &PyCallResult::outputs,
                    "outputs: Dict[str, Output]\n\nNumpy arrays or wgk.DeviceTensor by output name.")
      .def_readonly("variant", &PyCallResult::variant, "variant: str\n\nThe variant that ran.")
      .def_readonly("selected_by", &PyCallResult::selectedBy,
                    "selected_by: str\n\n\"priority\", \"forced\" or \"tuning\".")
      .def_readonly("timings", &PyCallResult::timings,
                    "timings: Dict[str, Optional[float]]\n\n"
                    "upload_us, gpu_us (timestamps=True, else None), readback_us, total_us.")
      .def_readonly(
          "passes", &PyCallResult::passes,
          "passes: List[Dict[str, Any]]\n\n"
          "With timestamps=True, every pass of the plan in order: \"id\" (the plan's pass id),\n"
          "\"gpu_us\" (its GPU time; they sum to timings[\"gpu_us\"]) and \"skipped\" (not\n"
          "dispatched: 0 us). Empty without timestamps.\n\n"
          "Example:\n"
          "    >>> r = softmax.call(x=np.ones((2, 65536), np.float32), timestamps=True)\n"
          "    >>> [(p[\"id\"], p[\"gpu_us\"]) for p in r.passes]   # block_stats, row_stats, normalize")
      .def("__repr__", [](const PyCallResult& r) {
        return "wgk.CallResult(variant='" + r.variant +
               "', outputs=" + std::string(py::repr(r.outputs.attr("keys")())) + ")";
      });
}

void bindKernel(py::module_& m) {
  bindCallResult(m);
  py::class_<PyKernel>(m, "Kernel", kKernelDoc)
      .def(
          "__call__",
          [](PyKernel& k, py::args positional, py::object attrs, py::object args, py::object variant,
             py::object placement, py::object outputs, py::kwargs kwargs) {
            return call(k, positionalInputs(k, positional), attrs, args, variant, placement, outputs, false,
                        kwargs)
                .outputs;
          },
          py::arg("attrs") = py::none(), py::arg("args") = py::none(), py::arg("variant") = py::none(),
          py::arg("placement") = py::str("auto"), py::arg("outputs") = py::none(), kCallDoc)
      .def(
          "call",
          [](PyKernel& k, py::args positional, py::object attrs, py::object args, py::object variant,
             py::object placement, py::object outputs, py::object timestamps, py::kwargs kwargs) {
            return call(k, positionalInputs(k, positional), attrs, args, variant, placement, outputs,
                        flagArgument(timestamps, "timestamps"), kwargs);
          },
          py::arg("attrs") = py::none(), py::arg("args") = py::none(), py::arg("variant") = py::none(),
          py::arg("placement") = py::str("auto"), py::arg("outputs") = py::none(),
          py::arg("timestamps") = py::bool_(false), kCallResultDoc)
      .def(
          "plan",
          [](const PyKernel& k, py::args positional, py::object attrs, py::object args, py::object variant,
             py::object device, py::object wgsl, py::kwargs kwargs) {
            return planKernel(k, positionalInputs(k, positional), attrs, args, variant, device,
                              flagArgument(wgsl, "wgsl"), kwargs);
          },
          py::arg("attrs") = py::none(), py::arg("args") = py::none(), py::arg("variant") = py::none(),
          py::arg("device") = py::none(), py::arg("wgsl") = py::bool_(false), kPlanDoc)
      .def_property_readonly(
          "source", [](const PyKernel& k) { return sourceDict(k.kernel.source()); },
          "source: Dict[str, str]\n\nWhere the package came from: repo, op, requested, revision, origin "
          "(embedded, cache, network,\n"
          "lock, path), folder.")
      .def_property_readonly(
          "signature", [](const PyKernel& k) { return signatureDict(signatureOf(k)); }, kSignatureDoc)
      .def_property_readonly(
          "op", [](const PyKernel& k) { return k.kernel.source().opId; },
          "op: str\n\nThe op id, e.g. com.microsoft.FastGelu.")
      .def_property_readonly(
          "inputs", [](const PyKernel& k) { return portNames(signatureOf(k).inputs()); },
          "inputs: List[str]\n\nThe input tensors' names (in/out ports too), in manifest order.")
      .def_property_readonly(
          "outputs", [](const PyKernel& k) { return portNames(signatureOf(k).outputs()); },
          "outputs: List[str]\n\nThe output tensors' names (in/out ports too), in manifest order.")
      .def_property_readonly(
          "args",
          [](const PyKernel& k) {
            py::dict out;
            for (const auto& a : signatureOf(k).args) out[py::str(a.name)] = a.kind;
            return out;
          },
          "args: Dict[str, str]\n\nThe scalar args (spec 2.1 packages) with their kinds: u32, i32, f32, "
          "bool, string.")
      .def_property_readonly(
          "attributes",
          [](const PyKernel& k) {
            py::dict out;
            for (const auto& a : signatureOf(k).attributes)
              out[py::str(a.name)] = a.defaultValue ? fromAttribute(*a.defaultValue) : py::object(py::none());
            return out;
          },
          "attributes: Dict[str, Any]\n\nThe attributes with their defaults (None: no default).")
      .def("__repr__", [](const PyKernel& k) {
        const PackageSource& s = k.kernel.source();
        return "wgk.Kernel('" + s.opId + "', origin='" + s.origin + "', revision='" + s.revision + "')";
      });
}

}  // namespace wgk::python
