// wgk.DeviceTensor: a tensor in GPU memory, owned by the runtime's pool (wgk::DeviceTensor).
#include <pybind11/stl.h>

#include "arrays.h"
#include "bindings.h"

namespace wgk::python {
namespace {

constexpr const char* kDeviceTensorDoc =
    R"(A tensor in GPU memory, from Runtime.upload, Runtime.allocate or a kernel
call with device outputs. Passing it to a kernel chains on the device: no readback in between.

Its memory returns to the runtime's pool when the last reference goes away.

Example:
    >>> xd = rt.upload(x)                       # one host -> device copy
    >>> yd = gelu(X=xd)["Y"]                    # device in -> device out
    >>> zd = rms(x=yd, scale=s, epsilon=1e-6)["y"]
    >>> zd.shape, zd.dtype                      # (4, 64), dtype('float16')
    >>> z = zd.numpy()                          # one device -> host copy
    >>> t = torch.from_dlpack(zd)               # DLPack: the host copy, as a CPU tensor
)";

HostTensor download(const PyDeviceTensor& t) {
  checkDefined(t, "the tensor");
  py::gil_scoped_release unlocked;  // waits for the GPU
  return t.runtime->download(t.tensor);
}

}  // namespace

const PyDeviceTensor* asDeviceTensor(py::handle v) {
  return py::isinstance<PyDeviceTensor>(v) ? &v.cast<const PyDeviceTensor&>() : nullptr;
}

void bindTensors(py::module_& m) {
  py::class_<PyDeviceTensor>(m, "DeviceTensor", kDeviceTensorDoc)
      .def_property_readonly(
          "shape", [](const PyDeviceTensor& t) { return shapeTuple(t.tensor.shape()); },
          "shape: Tuple[int, ...]\n\nThe shape, a tuple of ints.")
      .def_property_readonly(
          "dtype", [](const PyDeviceTensor& t) { return numpyDtype(t.tensor.dtype()); },
          "dtype: np.dtype\n\nThe numpy dtype.")
      .def_property_readonly(
          "ndim", [](const PyDeviceTensor& t) { return t.tensor.shape().size(); }, "ndim: int\n\nThe rank.")
      .def_property_readonly(
          "size", [](const PyDeviceTensor& t) { return numel(t.tensor.shape()); },
          "size: int\n\nThe element count.")
      .def_property_readonly(
          "nbytes",
          [](const PyDeviceTensor& t) { return numel(t.tensor.shape()) * dtypeBytes(t.tensor.dtype()); },
          "nbytes: int\n\nThe size in bytes.")
      .def(
          "numpy", [](const PyDeviceTensor& t) { return toNumpy(download(t)); },
          "numpy(self) -> np.ndarray\n\n"
          "Copies the tensor to the host (waiting for the GPU work that writes it) as a new numpy array.")
      .def(
          "__array__",
          [](const PyDeviceTensor& t, py::object dtype, py::object /*copy*/) {
            py::array a = toNumpy(download(t));
            return dtype.is_none() ? a : py::array(a.attr("astype")(dtype));
          },
          py::arg("dtype") = py::none(), py::arg("copy") = py::none(),
          "__array__(self, dtype: Optional[DTypeLike] = None, copy: Optional[bool] = None) -> np.ndarray\n\n"
          "numpy.asarray(t): the host copy.")
      .def(
          "__dlpack__",
          [](const PyDeviceTensor& t, py::object stream) {
            return toNumpy(download(t)).attr("__dlpack__")(py::arg("stream") = stream);
          },
          py::kw_only(), py::arg("stream") = py::none(),
          "__dlpack__(self, *, stream: None = None) -> Any\n\n"
          "DLPack export of the host copy (a CPU tensor): numpy.from_dlpack(t), torch.from_dlpack(t).")
      .def(
          "__dlpack_device__", [](const PyDeviceTensor&) { return py::make_tuple(1, 0); },

          "__dlpack_device__(self) -> Tuple[int, int]\n\n(kDLCPU, 0): DLPack consumers receive the host "
          "copy.")
      .def(
          "__len__",
          [](const PyDeviceTensor& t) {
            if (t.tensor.shape().empty()) throw py::type_error("len() of a 0-d tensor");
            return t.tensor.shape()[0];
          },
          "__len__(self) -> int\n\nThe first dimension (TypeError for a 0-d tensor).")
      .def("__repr__", [](const PyDeviceTensor& t) {
        const bool waiting = t.pending && t.pending->state == Pending::State::Recording;
        return "wgk.DeviceTensor(shape=" + std::string(py::repr(shapeTuple(t.tensor.shape()))) +
               ", dtype=" + std::string(dtypeName(t.tensor.dtype())) +
               (waiting ? (t.pending->graph ? ", not replayed yet" : ", batch not submitted yet") : "") + ")";
      });
}

}  // namespace wgk::python
