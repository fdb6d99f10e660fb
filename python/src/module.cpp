// wgk._wgk: the Python API of wgk (python/wgk/__init__.py re-exports it; docs/python.md).
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "core/environment.h"
#include "core/log.h"
#include "errors.h"

PYBIND11_MODULE(_wgk, m) {
  m.doc() = "wgk: versioned WebGPU kernels, natively (the extension module; import wgk)";
  // The Python package is an edge: WGK_LOG applies from import on (the library reads no variable).
  wgk::log::setThreshold(wgk::log::levelFromText(wgk::readEnvironment().log, "WGK_LOG"));
  wgk::python::bindErrors(m);
  wgk::python::bindTensors(m);
  wgk::python::bindKernel(m);
  wgk::python::bindRuntime(m);
  wgk::python::bindBatch(m);
  wgk::python::bindModel(m);
  wgk::python::bindCli(m);
  m.attr("__version__") = WGK_VERSION;
}
