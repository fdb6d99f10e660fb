#include "errors.h"

#include <pybind11/stl.h>

#include <vector>

#include "wgk/error.h"

namespace py = pybind11;

namespace wgk::python {
namespace {

// Python builtins a subclass also derives from, so that `except ValueError` catches a bad call as
// numpy users expect. nullptr: wgk.Error only.
PyObject* builtinBase(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument:
    case ErrorCode::Contract:
    case ErrorCode::NoVariant:
      return PyExc_ValueError;
    case ErrorCode::NotFound:
      return PyExc_LookupError;
    case ErrorCode::Io:
    case ErrorCode::Network:
      return PyExc_OSError;
    case ErrorCode::OutOfMemory:
      return PyExc_MemoryError;
    case ErrorCode::Unsupported:
      return PyExc_NotImplementedError;
    case ErrorCode::Parse:
    case ErrorCode::Expression:
    case ErrorCode::Template:
    case ErrorCode::Manifest:
    case ErrorCode::Integrity:
    case ErrorCode::Trust:
    case ErrorCode::Setup:
    case ErrorCode::Gpu:
    case ErrorCode::DeviceLost:
    case ErrorCode::Internal:
      return nullptr;
  }
  return nullptr;
}

// What each code means (include/wgk/error.h), as the class docstring.
const char* meaning(ErrorCode code) {
  switch (code) {
    case ErrorCode::InvalidArgument:
      return "A caller passed something malformed (usage, a bad option value).";
    case ErrorCode::Parse:
      return "Malformed JSON, expression or template syntax.";
    case ErrorCode::Expression:
      return "An expression failed to evaluate (unknown name, type error, ...).";
    case ErrorCode::Template:
      return "Template rendering failed or exceeded a limit.";
    case ErrorCode::Manifest:
      return "A manifest, metadata, test or bench file does not match its schema.";
    case ErrorCode::Contract:
      return "A request breaks the op contract (missing input, wrong dtype/rank/shape, attribute).";
    case ErrorCode::NoVariant:
      return "No variant is eligible for the request; the message says why for each.";
    case ErrorCode::Io:
      return "A file system or tensor-file error.";
    case ErrorCode::Integrity:
      return "A digest or npm integrity check failed.";
    case ErrorCode::Network:
      return "A download failed (HTTP status, timeout, connection).";
    case ErrorCode::NotFound:
      return "A package, file, revision or symbol does not exist.";
    case ErrorCode::Trust:
      return "A package outside the trusted organisations was refused.";
    case ErrorCode::Setup:
      return "The WebGPU library, driver or adapter is missing or unusable.";
    case ErrorCode::Gpu:
      return "A WebGPU validation error, shader compilation error or failed operation.";
    case ErrorCode::OutOfMemory:
      return "The device could not allocate.";
    case ErrorCode::DeviceLost:
      return "The device was lost.";
    case ErrorCode::Unsupported:
      return "Valid, but not implemented by this build or device.";
    case ErrorCode::Internal:
      return "A bug in wgk.";
  }
  return "";
}

// "no-variant" -> "NoVariantError".
std::string className(std::string_view codeName) {
  std::string out;
  bool upper = true;
  for (char c : codeName) {
    if (c == '-') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out + "Error";
}

PyObject* g_base = nullptr;
std::vector<PyObject*> g_classes;  // by ErrorCode value; the classes live as long as the module

// Sets the Python error for `e` (a translator returns with the error set).
void raise(const Error& e) {
  const auto index = static_cast<size_t>(e.code());
  PyObject* cls = index < g_classes.size() ? g_classes[index] : g_base;
  py::object type = py::reinterpret_borrow<py::object>(cls);
  py::object error = type(e.what());
  error.attr("code") = std::string(errorCodeName(e.code()));
  error.attr("message") = e.message();
  error.attr("context") = py::tuple(py::cast(e.context()));
  PyErr_SetObject(cls, error.ptr());
}

constexpr const char* kBaseDoc = R"(The one error type of wgk: every failure is an instance of a subclass.

Attributes:
    code: the stable code name, e.g. "contract", "no-variant" (one subclass per code).
    message: what was wrong, naming the values involved.
    context: where, innermost first: ("planning com.microsoft.FastGelu", ...).

str(error) is the message followed by one "  while <context>" line per entry.

Example:
    >>> try:
    ...     gelu(X=np.zeros((2, 8), np.int32))
    ... except wgk.ContractError as e:
    ...     print(e.code, e.message)
    contract input 'X' has dtype int32, but type T allows only float32, float16
)";

}  // namespace

void invalidArgument(const std::string& message) {
  throw Error(ErrorCode::InvalidArgument, message);
}

void bindErrors(py::module_& m) {
  g_base = PyErr_NewExceptionWithDoc("wgk.Error", kBaseDoc, PyExc_Exception, nullptr);
  if (!g_base) throw py::error_already_set();
  m.add_object("Error", py::handle(g_base));
  // Codes are numbered from 0; errorCodeName says "unknown" past the last one.
  for (int i = 0;; ++i) {
    const auto code = static_cast<ErrorCode>(i);
    const std::string_view name = errorCodeName(code);
    if (name == "unknown") break;
    const std::string cls = className(name);
    PyObject* extra = builtinBase(code);
    py::tuple bases =
        extra ? py::make_tuple(py::handle(g_base), py::handle(extra)) : py::make_tuple(py::handle(g_base));
    const std::string doc =
        std::string(meaning(code)) + "\n\nwgk.Error with code \"" + std::string(name) + "\".";
    PyObject* type = PyErr_NewExceptionWithDoc(("wgk." + cls).c_str(), doc.c_str(), bases.ptr(), nullptr);
    if (!type) throw py::error_already_set();
    m.add_object(cls.c_str(), py::handle(type));
    g_classes.push_back(type);
  }
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const Error& e) {
      raise(e);
    }
  });
}

}  // namespace wgk::python
