// wgk._wgk: the Python API of wgk (python/wgk/__init__.py re-exports it; docs/python.md).
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "errors.h"

PYBIND11_MODULE(_wgk, m) {
  m.doc() = "wgk: versioned WebGPU kernels, natively (the extension module; import wgk)";
  // Each binding's docstring begins with its Python signature, types included (after the line
  // pybind11 writes from the C++ types): tools/stubgen/wgk_stubgen.py writes python/wgk/_wgk.pyi
  // from them, and tests/python/test_stubs.py checks each against pybind11's line.
  // The Python package is an edge: WGK_LOG applies from import on (the library reads no variable).
  wgk::setLogLevelFromEnvironment();
  wgk::python::bindErrors(m);
  wgk::python::bindTensors(m);
  wgk::python::bindKernel(m);
  wgk::python::bindRuntime(m);
  wgk::python::bindBatch(m);
  wgk::python::bindModel(m);
  m.attr("__version__") = WGK_VERSION;
}
