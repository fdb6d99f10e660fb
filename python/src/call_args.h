// A kernel call's arguments from Python, shared by Kernel.__call__ / Kernel.call / Kernel.plan and
// Batch.__call__: named values sorted into tensors, scalar args and attributes by what the
// manifest names, host data copied once, and the outputs dict built back from the C++ result.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "bindings.h"

namespace wgk::python {

const KernelSignature& signatureOf(const PyKernel& k);

// A call's named values other than tensors.
struct Scalars {
  std::map<std::string, Attribute> attrs;  // the op's attributes
  std::map<std::string, Attribute> args;   // scalar args (spec 2.1 packages)
};

// Sorts a call's named values into tensors (passed to onTensor), scalar args and attributes.
// `inputs` is the positional dict (or None); anything else there is refused without printing it.
Scalars collect(const PyKernel& k, py::handle inputs, py::handle attrs, py::handle args,
                const py::kwargs& kwargs,
                const std::function<void(const std::string&, py::handle)>& onTensor);

// The positional `inputs` dict of k(inputs, /, ...): None without one. Positionals are taken as
// py::args so that a slip such as gelu(x) or gelu(x, b) gets wgk's message (naming the tensors'
// keywords) instead of pybind11's, which prints every argument's repr, arrays included.
py::object positionalInputs(const PyKernel& k, const py::args& positional, size_t first = 0);

struct CallArgs {
  CallArgs() = default;
  CallArgs(const CallArgs&) = delete;  // refs point into host
  CallArgs& operator=(const CallArgs&) = delete;

  std::map<std::string, HostTensor> host;  // stable addresses: refs point at them
  std::map<std::string, TensorRef> refs;
  CallOptions options;
  py::dict given;      // caller-given outputs, returned as given
  py::dict inPlace;    // device tensors given for in/out ports: written in place, returned as given
  bool torch = false;  // a torch tensor among the inputs: host outputs become torch tensors
};

// Where the call runs: a single call runs now, so every device input must have contents; a batch
// (or a capture) reads them when it runs, so outputs of calls recorded before are fine.
enum class CallSite { Single, Batch };

void prepareCall(const PyKernel& k, py::handle inputs, py::handle attrs, py::handle args, py::handle variant,
                 py::handle outputs, const py::kwargs& kwargs, CallSite site, CallArgs& out);

OutputPlacement placementArgument(py::handle placement);  // "auto", "host", "device"

// The outputs by name: host ones as numpy arrays (torch tensors when a.torch), device ones as
// wgk.DeviceTensor carrying `pending`, then the caller-given and in-place tensors as given.
py::dict outputsDict(const PyKernel& k, CallArgs& a, std::map<std::string, HostTensor>&& host,
                     std::map<std::string, DeviceTensor>&& device, const std::shared_ptr<Pending>& pending);

}  // namespace wgk::python
