// numpy arrays (and anything numpy can view: DLPack providers such as torch tensors, buffers,
// nested lists) <-> wgk tensors. Inputs are copied exactly once, from any strides and byte order,
// into a HostTensor; outputs are numpy arrays that own the HostTensor's bytes (no copy).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>

#include "wgk/tensor.h"

namespace wgk::python {

namespace py = pybind11;

// The numpy dtype of a wgk dtype (float16 is numpy's 'e', bool numpy's '?').
py::dtype numpyDtype(DType t);
// The wgk dtype of a numpy dtype (any byte order); nullopt when wgk has none (float64, complex, ...).
std::optional<DType> wgkDtype(const py::dtype& d);
// A dtype argument: "float16", numpy.float16, numpy.dtype("float16"), torch-style names.
// Error(InvalidArgument) naming `what` when wgk has no such dtype.
DType parseDtype(py::handle dtypeLike, const std::string& what);

// Whether `v` is something a tensor argument takes on the host: a numpy array, a DLPack provider,
// or an object with __array__ / the buffer protocol (not a bare Python number, string or list).
bool isArrayLike(py::handle v);
// Whether `v` is a torch.Tensor (false without importing torch when the caller has not).
bool isTorchTensor(py::handle v);
// `v` as a numpy array without copying where numpy can avoid it: arrays as they are, CPU DLPack
// providers through numpy.from_dlpack, the rest through numpy.asarray; Python numbers and lists as
// torch.tensor reads them (floats float32, ints int32 here: WGSL has no 64-bit types). `what` names
// the tensor in errors ("input 'X'"), which say what to do: a torch tensor that requires grad or
// lives on a GPU, a dtype wgk has none of (float64, bfloat16), something that is not a tensor.
py::array asNumpy(py::handle v, const std::string& what);
// One copy of `v` into a new HostTensor (C order, native byte order).
HostTensor toHostTensor(py::handle v, const std::string& what);
// A numpy array owning `t`'s bytes (the tensor is moved into the array's base object).
py::array toNumpy(HostTensor&& t);
// The same as a CPU torch tensor sharing those bytes (torch.from_numpy), where torch has the dtype
// (torch before 2.3 has no uint32: such an output stays a numpy array).
py::object toTorch(HostTensor&& t);

py::tuple shapeTuple(const Shape& shape);
Shape shapeOf(py::handle sequence, const std::string& what);  // a sequence of non-negative ints

}  // namespace wgk::python
