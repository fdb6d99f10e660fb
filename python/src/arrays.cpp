#include "arrays.h"

#include <pybind11/stl.h>

#include <string_view>

#include "errors.h"
#include "wgk/dtype.h"

namespace wgk::python {
namespace {

py::module_ numpy() {
  return py::module_::import("numpy");
}

std::string knownDtypes() {
  return "float16, float32, int32, uint32, int8, uint8, int16, int64, bool";
}

}  // namespace

py::dtype numpyDtype(DType t) {
  // dtypeName is numpy's name for every wgk dtype.
  return py::dtype(std::string(dtypeName(t)));
}

std::optional<DType> wgkDtype(const py::dtype& d) {
  const char kind = d.kind();
  const auto size = d.itemsize();
  switch (kind) {
    case 'f':
      if (size == 2) return DType::Float16;
      if (size == 4) return DType::Float32;
      break;
    case 'i':
      if (size == 1) return DType::Int8;
      if (size == 2) return DType::Int16;
      if (size == 4) return DType::Int32;
      if (size == 8) return DType::Int64;
      break;
    case 'u':
      if (size == 1) return DType::Uint8;
      if (size == 4) return DType::Uint32;
      break;
    case 'b':
      return DType::Bool;
    default:
      break;
  }
  return std::nullopt;
}

DType parseDtype(py::handle dtypeLike, const std::string& what) {
  py::dtype d;
  try {
    // Strings such as "float16" and types such as numpy.float16; torch dtypes print as
    // "torch.float16".
    py::object arg = py::reinterpret_borrow<py::object>(dtypeLike);
    if (!py::isinstance<py::str>(arg) && !py::isinstance<py::dtype>(arg) &&
        py::hasattr(arg, "is_floating_point"))
      arg = py::str(arg).attr("removeprefix")("torch.");
    d = py::dtype::from_args(arg);
  } catch (const py::error_already_set&) {
    invalidArgument(what + " is not a dtype: " + std::string(py::repr(dtypeLike)) + " (wgk takes " +
                    knownDtypes() + ")");
  }
  if (auto t = wgkDtype(d)) return *t;
  invalidArgument(what + " has dtype " + std::string(py::str(d)) + ", which wgk does not take (it takes " +
                  knownDtypes() + ")");
}

bool isArrayLike(py::handle v) {
  return py::isinstance<py::array>(v) || py::hasattr(v, "__dlpack__") || py::hasattr(v, "__array__") ||
         PyObject_CheckBuffer(v.ptr());
}

py::array asNumpy(py::handle v, const std::string& name) {
  if (py::isinstance<py::array>(v)) return py::reinterpret_borrow<py::array>(v);
  if (py::hasattr(v, "__dlpack__") && py::hasattr(v, "__dlpack_device__")) {
    const auto device = v.attr("__dlpack_device__")().cast<std::pair<int, int>>();
    constexpr int kDLCPU = 1;
    if (device.first != kDLCPU)
      invalidArgument("input '" + name + "' is on DLPack device type " + std::to_string(device.first) +
                      " (a GPU of another library); wgk takes host memory (DLPack kDLCPU) or wgk device "
                      "tensors: copy it to the CPU first");
    try {
      return numpy().attr("from_dlpack")(v);
    } catch (const py::error_already_set&) {
      // Some dtypes have no DLPack export or import in these versions (bool in torch 1.13 and
      // numpy 1.24): then __array__, where the provider has it, views the same memory.
      if (!py::hasattr(v, "__array__")) throw;
    }
  }
  return numpy().attr("asarray")(v);
}

HostTensor toHostTensor(py::handle v, const std::string& name) {
  py::array a = asNumpy(v, name);
  const auto dtype = wgkDtype(a.dtype());
  if (!dtype)
    invalidArgument("input '" + name + "' has numpy dtype " + std::string(py::str(a.dtype())) +
                    ", which wgk does not take (it takes " + knownDtypes() +
                    "): convert it, e.g. with "
                    ".astype(numpy.float32)");
  Shape shape(a.shape(), a.shape() + a.ndim());
  HostTensor t(*dtype, shape);
  if (t.byteSize() == 0) return t;
  // The tensor's bytes seen as a C-order array of the native dtype; numpy copies into it from any
  // strides and byte order: the one copy.
  py::capsule noOwner(t.bytes().data(), [](void*) {});
  py::array view(numpyDtype(*dtype), std::vector<py::ssize_t>(shape.begin(), shape.end()), t.bytes().data(),
                 noOwner);
  numpy().attr("copyto")(view, a, py::arg("casting") = "equiv");
  return t;
}

py::array toNumpy(HostTensor&& t) {
  auto* owner = new HostTensor(std::move(t));
  py::capsule base(owner, [](void* p) { delete static_cast<HostTensor*>(p); });
  const Shape& s = owner->shape();
  return py::array(numpyDtype(owner->dtype()), std::vector<py::ssize_t>(s.begin(), s.end()),
                   owner->byteSize() ? owner->bytes().data() : nullptr, base);
}

py::tuple shapeTuple(const Shape& shape) {
  py::tuple out(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) out[i] = py::int_(shape[i]);
  return out;
}

Shape shapeOf(py::handle sequence, const std::string& what) {
  const auto bad = [&](const std::string& why) {
    invalidArgument(what + " " + why + ", got " + std::string(py::repr(sequence)));
  };
  if (!py::isinstance<py::sequence>(sequence) || py::isinstance<py::str>(sequence))
    bad("must be a sequence of non-negative integers");
  const py::object index = py::module_::import("operator").attr("index");
  Shape shape;
  for (py::handle d : sequence) {
    if (py::isinstance<py::bool_>(d)) bad("must be a sequence of non-negative integers");
    int64_t n = 0;
    try {
      n = index(d).cast<int64_t>();
    } catch (const py::error_already_set&) {
      bad("must be a sequence of non-negative integers");
    }
    if (n < 0) bad("has a negative dimension");
    shape.push_back(n);
  }
  return shape;
}

}  // namespace wgk::python
