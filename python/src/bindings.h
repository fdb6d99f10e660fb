// The Python objects of wgk._wgk and the functions that define them (one file each).
// Every object that can reach the GPU holds the Runtime, so a Kernel or a DeviceTensor keeps it
// alive (a C++ Kernel must not outlive its Runtime).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

#include "wgk/runtime.h"

namespace wgk::python {

namespace py = pybind11;

struct PyRuntime {
  std::shared_ptr<Runtime> runtime;
};

struct PyKernel {
  std::shared_ptr<Runtime> runtime;
  Kernel kernel;
};

struct PyDeviceTensor {
  std::shared_ptr<Runtime> runtime;
  DeviceTensor tensor;
};

void bindTensors(py::module_& m);  // DeviceTensor
void bindKernel(py::module_& m);   // Kernel, CallResult
void bindRuntime(py::module_& m);  // Runtime
void bindCli(py::module_& m);      // _cli_main

// A tensor argument's value as a DeviceTensor, when it is one.
const PyDeviceTensor* asDeviceTensor(py::handle v);

// k.plan(...) for a kernel, as rt.plan(...) also uses it.
py::object planKernel(const PyKernel& k, py::object inputs, py::object attrs, py::object args,
                      py::object variant, py::object device, bool wgsl, py::kwargs kwargs);

}  // namespace wgk::python
