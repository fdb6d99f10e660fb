#include "call_args.h"

#include <pybind11/stl.h>

#include <set>

#include "arrays.h"
#include "errors.h"
#include "values.h"

namespace wgk::python {
namespace {

// "X=..., bias=..." for a message about how to pass the tensors.
std::string keywordList(const PyKernel& k) {
  std::string out;
  for (const PortSignature* p : signatureOf(k).inputs()) out += (out.empty() ? "" : ", ") + p->name + "=...";
  return out;
}

// A device tensor lives in one runtime's device: another runtime's kernels cannot bind it.
const DeviceTensor& ownDeviceTensor(const PyKernel& k, const PyDeviceTensor& d, const std::string& what) {
  if (d.runtime != k.runtime)
    invalidArgument(what +
                    " is a device tensor of another wgk.Runtime: download it (.numpy()) or upload it to "
                    "this kernel's runtime");
  return d.tensor;
}

}  // namespace

PyKernel loadedKernel(std::shared_ptr<Runtime> runtime, Kernel kernel) {
  auto signature = std::make_shared<const KernelSignature>(kernel.signature());
  return PyKernel{std::move(runtime), std::move(kernel), std::move(signature)};
}

const KernelSignature& signatureOf(const PyKernel& k) {
  return *k.signature;
}

void checkDefined(const PyDeviceTensor& t, const std::string& what) {
  if (!t.pending || t.pending->state == Pending::State::Done) return;
  if (t.pending->state == Pending::State::Discarded)
    invalidArgument(what + " is an output of a " + (t.pending->graph ? "graph capture" : "batch") +
                    " that was discarded (an error in its `with` block or capture function, or dropped "
                    "before submit): its contents were never computed");
  if (t.pending->graph)
    invalidArgument(what +
                    " is an output of a captured graph that has not been replayed yet: call replay() "
                    "first (capture records, it does not run)");
  invalidArgument(what +
                  " is an output of a batch that has not been submitted yet: leave the `with rt.batch()` "
                  "block (or call submit()) first; calls recorded in the same batch may take it");
}

py::object positionalInputs(const PyKernel& k, const py::args& positional, size_t first) {
  const size_t n = positional.size() - first;
  if (n == 0) return py::none();
  if (n == 1) return positional[first];  // collect() refuses anything but a dict
  std::string got;
  for (size_t i = first; i < positional.size() && i < first + 3; ++i)
    got += (got.empty() ? "" : ", ") + describeValue(positional[i]);
  invalidArgument(signatureOf(k).op + " takes its tensors by name (" + keywordList(k) +
                  "), or as one dict of them; got " + std::to_string(n) + " positional arguments (" + got +
                  (n > 3 ? ", ..." : "") + ")");
}

// Ports are tensors, `args` scalar args, attributes attributes. An unknown name is a tensor when
// its value is array-like, else an attribute, so that the runtime's error calls it what the
// caller meant ("unknown input 'x'", "unknown attribute 'eps'").
Scalars collect(const PyKernel& k, py::handle inputs, py::handle attrs, py::handle args,
                const py::kwargs& kwargs,
                const std::function<void(const std::string&, py::handle)>& onTensor) {
  const KernelSignature& m = signatureOf(k);
  Scalars out{toAttributes(attrs, "attrs"), toAttributes(args, "args")};
  std::set<std::string> seen;
  auto once = [&](const std::string& name) {
    if (!seen.insert(name).second || out.attrs.count(name) || out.args.count(name))
      invalidArgument("'" + name + "' is given twice (as a keyword, in inputs=, args= or attrs=)");
  };
  for (const auto& [name, v] : out.attrs)
    if (out.args.count(name)) once(name);
  if (!inputs.is_none()) {
    // gelu(x) is the usual slip: say how tensors are passed, and never print the array.
    if (!py::isinstance<py::dict>(inputs))
      invalidArgument(m.op + " takes its tensors by name (" + keywordList(k) +
                      "), or as one dict of them; got " + describeValue(inputs) +
                      " as a positional argument");
    for (auto [key, value] : py::reinterpret_borrow<py::dict>(inputs)) {
      const std::string name = py::str(key);
      once(name);
      onTensor(name, value);
    }
  }
  for (auto [key, value] : kwargs) {
    const std::string name = py::str(key);
    once(name);
    if (m.findPort(name))
      onTensor(name, value);
    else if (m.findArg(name))
      out.args.emplace(name, toAttribute(value, name));
    else if (!m.findAttribute(name) && (asDeviceTensor(value) || isArrayLike(value)))
      onTensor(name, value);
    else
      out.attrs.emplace(name, toAttribute(value, name));
  }
  return out;
}

void prepareCall(const PyKernel& k, py::handle inputs, py::handle attrs, py::handle args, py::handle variant,
                 py::handle outputs, const py::kwargs& kwargs, CallSite site, CallArgs& a) {
  Scalars scalars = collect(k, inputs, attrs, args, kwargs, [&](const std::string& name, py::handle v) {
    const std::string what = "input '" + name + "'";
    if (const PyDeviceTensor* d = asDeviceTensor(v)) {
      if (site == CallSite::Single || (d->pending && d->pending->state == Pending::State::Discarded))
        checkDefined(*d, what);
      a.refs.emplace(name, TensorRef(ownDeviceTensor(k, *d, what)));
      const PortSignature* port = signatureOf(k).findPort(name);
      if (port && port->direction == PortDirection::InOut) a.inPlace[py::str(name)] = v;
    } else {
      a.torch = a.torch || isTorchTensor(v);
      a.refs.emplace(name, TensorRef(a.host.emplace(name, toHostTensor(v, what)).first->second));
    }
  });
  a.options.attrs = std::move(scalars.attrs);
  a.options.args = std::move(scalars.args);
  a.options.variant = stringOrEmpty(variant, "variant");
  if (outputs.is_none()) return;
  if (!py::isinstance<py::dict>(outputs))
    invalidArgument("outputs must be a dict of wgk.DeviceTensor by output name, got " +
                    describeValue(outputs));
  for (auto [key, value] : py::reinterpret_borrow<py::dict>(outputs)) {
    const std::string name = py::str(key);
    const PyDeviceTensor* d = asDeviceTensor(value);
    if (!d) invalidArgument("outputs['" + name + "'] must be a wgk.DeviceTensor (Runtime.allocate)");
    a.options.outputs.emplace(name, ownDeviceTensor(k, *d, "outputs['" + name + "']").view());
    a.given[key] = value;
  }
}

OutputPlacement placementArgument(py::handle placement) {
  const std::string p = stringOrEmpty(placement, "placement");
  if (p == "auto") return OutputPlacement::Auto;
  if (p == "host") return OutputPlacement::Host;
  if (p == "device") return OutputPlacement::Device;
  invalidArgument("placement must be \"auto\", \"host\" or \"device\", got \"" + p + "\"");
}

py::dict outputsDict(const PyKernel& k, CallArgs& a, std::map<std::string, HostTensor>&& host,
                     std::map<std::string, DeviceTensor>&& device, const std::shared_ptr<Pending>& pending) {
  py::dict out;
  for (auto& [name, t] : host)
    out[py::str(name)] = a.torch ? toTorch(std::move(t)) : py::object(toNumpy(std::move(t)));
  for (auto& [name, t] : device) out[py::str(name)] = py::cast(PyDeviceTensor{k.runtime, t, pending});
  for (auto [key, value] : a.given) out[key] = value;
  for (auto [key, value] : a.inPlace)
    if (!out.contains(key)) out[key] = value;
  return out;
}

}  // namespace wgk::python
