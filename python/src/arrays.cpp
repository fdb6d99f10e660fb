#include "arrays.h"

#include <pybind11/stl.h>

#include <climits>
#include <set>
#include <string_view>

#include "errors.h"
#include "values.h"
#include "wgk/dtype.h"

namespace wgk::python {
namespace {

py::module_ numpy() {
  return py::module_::import("numpy");
}

std::string knownDtypes() {
  return "float16, float32, int32, uint32, int8, uint8, int16, int64, bool";
}

// The conversion to suggest for a numpy dtype wgk has no counterpart of, or "" for none.
std::string numpyHint(const py::dtype& d) {
  switch (d.kind()) {
    case 'f':  // float64, longdouble
      return ": convert it with .astype(np.float32)";
    case 'u':  // uint16, uint64
      return ": convert it with .astype(np.uint32)";
    case 'c':
      return " (no complex dtype): pass the real and imaginary parts as two float32 tensors";
    default:  // strings, objects, dates: not numbers at all
      return ": it must hold numbers";
  }
}

[[noreturn]] void notATensor(py::handle v, const std::string& what) {
  invalidArgument(what + " is " + describeValue(v) +
                  ", not a tensor: pass a numpy array, a CPU torch tensor, a list of numbers or a "
                  "wgk.DeviceTensor");
}

// A torch tensor wgk cannot take says why, before DLPack would fail with torch's own error.
void checkTorch(py::handle t, const std::string& what) {
  if (t.attr("requires_grad").cast<bool>())
    invalidArgument(what +
                    " requires grad: wgk kernels are not recorded by autograd, so no gradient could flow "
                    "back through them; pass .detach() (and compute gradients another way)");
  const std::string device = py::str(t.attr("device"));
  if (device != "cpu")
    invalidArgument(what + " is on torch device " + device +
                    "; wgk takes CPU tensors (it uploads them to its own WebGPU device): pass .cpu()");
  const std::string dtype = py::str(t.attr("dtype"));  // "torch.float16"
  static const std::set<std::string> kTaken = {"torch.float16", "torch.float32", "torch.int32",
                                               "torch.uint32",  "torch.int8",    "torch.uint8",
                                               "torch.int16",   "torch.int64",   "torch.bool"};
  if (kTaken.count(dtype)) return;
  const bool floating = t.attr("is_floating_point")().cast<bool>();
  const bool complex = t.attr("is_complex")().cast<bool>();
  invalidArgument(what + " is " + dtype + "; wgk kernels take " + knownDtypes() +
                  (complex ? " (no complex dtype): pass the real and imaginary parts as two float32 tensors"
                   : floating ? ": convert it with .to(torch.float32) (or .half())"
                              : ": convert it with .to(torch.int32)"));
}

bool isPythonData(py::handle v) {
  return py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v) || py::isinstance<py::bool_>(v) ||
         py::isinstance<py::int_>(v) || py::isinstance<py::float_>(v);
}

// Python numbers and (nested) lists as torch.tensor reads them, with WebGPU's widths: any float
// makes float32, ints int32 (refused when one does not fit), bools bool.
py::array fromPython(py::handle v, const std::string& what) {
  py::array a;
  try {
    a = numpy().attr("asarray")(v);
  } catch (const py::error_already_set& e) {
    invalidArgument(what + " is " + describeValue(v) +
                    ", which is not a rectangular list of numbers (numpy: " + std::string(e.what()) + ")");
  }
  const char kind = a.dtype().kind();
  if (kind == 'b') return a;
  if (kind == 'f') return a.attr("astype")(numpy().attr("float32"));
  if (kind == 'i' || kind == 'u') {
    const py::object lo = a.size() ? a.attr("min")() : py::int_(0);
    const py::object hi = a.size() ? a.attr("max")() : py::int_(0);
    if (kind == 'i' && lo.cast<int64_t>() >= INT32_MIN && hi.cast<int64_t>() <= INT32_MAX)
      return a.attr("astype")(numpy().attr("int32"));
    invalidArgument(what + " is a list of integers beyond int32 (" + std::string(py::str(lo)) + " to " +
                    std::string(py::str(hi)) +
                    "), the integer type Python lists become here: pass a numpy array of the dtype you mean");
  }
  invalidArgument(what + " is " + describeValue(v) + ", not a list of numbers (numpy reads it as " +
                  std::string(py::str(a.dtype())) + ")");
}

}  // namespace

bool isTorchTensor(py::handle v) {
  // wgk never imports torch: a torch tensor exists only once the caller has.
  PyObject* torch = PyDict_GetItemString(PySys_GetObject("modules"), "torch");
  if (!torch) return false;
  PyObject* tensor = PyObject_GetAttrString(torch, "Tensor");
  if (!tensor) {
    PyErr_Clear();
    return false;
  }
  const int is = PyObject_IsInstance(v.ptr(), tensor);
  Py_DECREF(tensor);
  if (is < 0) PyErr_Clear();
  return is == 1;
}

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
    invalidArgument(what + " is not a dtype: " + describeValue(dtypeLike) + " (wgk takes " + knownDtypes() +
                    ")");
  }
  if (auto t = wgkDtype(d)) return *t;
  invalidArgument(what + " has dtype " + std::string(py::str(d)) + ", which wgk does not take (it takes " +
                  knownDtypes() + ")");
}

bool isArrayLike(py::handle v) {
  return py::isinstance<py::array>(v) || py::hasattr(v, "__dlpack__") || py::hasattr(v, "__array__") ||
         PyObject_CheckBuffer(v.ptr());
}

py::array asNumpy(py::handle v, const std::string& what) {
  if (py::isinstance<py::array>(v)) return py::reinterpret_borrow<py::array>(v);
  if (isTorchTensor(v)) checkTorch(v, what);
  if (isPythonData(v)) return fromPython(v, what);
  if (!isArrayLike(v)) notATensor(v, what);
  if (py::hasattr(v, "__dlpack__") && py::hasattr(v, "__dlpack_device__")) {
    const auto device = v.attr("__dlpack_device__")().cast<std::pair<int, int>>();
    constexpr int kDLCPU = 1;
    if (device.first != kDLCPU)
      invalidArgument(what + " is on DLPack device type " + std::to_string(device.first) +
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

HostTensor toHostTensor(py::handle v, const std::string& what) {
  py::array a = asNumpy(v, what);
  const auto dtype = wgkDtype(a.dtype());
  if (!dtype)
    invalidArgument(what + " is " + std::string(py::str(a.dtype())) + "; wgk kernels take " + knownDtypes() +
                    numpyHint(a.dtype()));
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

py::object toTorch(HostTensor&& t) {
  const DType dtype = t.dtype();
  py::array a = toNumpy(std::move(t));
  py::module_ torch = py::module_::import("torch");
  if (dtype == DType::Uint32 && !py::hasattr(torch, "uint32")) return std::move(a);
  return torch.attr("from_numpy")(a);
}

py::tuple shapeTuple(const Shape& shape) {
  py::tuple out(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) out[i] = py::int_(shape[i]);
  return out;
}

Shape shapeOf(py::handle sequence, const std::string& what) {
  const auto bad = [&](const std::string& why) {
    invalidArgument(what + " " + why + ", got " + describeValue(sequence));
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
