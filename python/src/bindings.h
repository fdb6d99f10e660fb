// The Python objects of wgk._wgk and the functions that define them (one file each).
// Every object that can reach the GPU holds the Runtime, so a Kernel or a DeviceTensor keeps it
// alive (a C++ Kernel must not outlive its Runtime).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "wgk/runtime.h"

namespace wgk::python {

namespace py = pybind11;

struct PyRuntime {
  std::shared_ptr<Runtime> runtime;
};

struct PyKernel {
  std::shared_ptr<Runtime> runtime;
  Kernel kernel;
  // Read once at load (Kernel::signature): every call sorts its keywords by it.
  std::shared_ptr<const KernelSignature> signature;
};

// A loaded kernel with its signature; may be called without the GIL.
PyKernel loadedKernel(std::shared_ptr<Runtime> runtime, Kernel kernel);

// Whether the outputs of a batch or a graph capture have contents yet: a batch's once it is
// submitted, a capture's once its graph is replayed. Reading one before (a download, a single
// call) would see whatever the buffer held, so those are refused with what to do instead. Only
// touched with the GIL held.
struct Pending {
  enum class State { Recording, Done, Discarded };
  State state = State::Recording;
  bool graph = false;  // a capture's outputs (else a batch's)
};

struct PyDeviceTensor {
  std::shared_ptr<Runtime> runtime;
  DeviceTensor tensor;
  std::shared_ptr<Pending> pending;  // null: defined from the start (uploads, single calls)
};

// Error(InvalidArgument) when `t` has no contents yet or never will (Pending); `what` names it.
void checkDefined(const PyDeviceTensor& t, const std::string& what);

void bindTensors(py::module_& m);  // DeviceTensor
void bindKernel(py::module_& m);   // Kernel, CallResult
void bindRuntime(py::module_& m);  // Runtime
void bindBatch(py::module_& m);  // Batch, Graph, Runtime.batch, Runtime.capture (after bindRuntime)
void bindModel(py::module_& m);  // Gemma, Generation

// A tensor argument's value as a DeviceTensor, when it is one.
const PyDeviceTensor* asDeviceTensor(py::handle v);

// k.plan(...) for a kernel, as rt.plan(...) also uses it.
py::object planKernel(const PyKernel& k, py::object inputs, py::object attrs, py::object args,
                      py::object variant, py::object device, bool wgsl, py::kwargs kwargs);

}  // namespace wgk::python
