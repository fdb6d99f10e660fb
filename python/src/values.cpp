#include "values.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include "errors.h"

namespace wgk::python {
namespace {

enum class Scalar { None, Bool, Int, Float };

// numpy scalars are not Python ints or floats: numpy.integer / numpy.floating / numpy.bool_.
Scalar scalarKind(py::handle v) {
  if (py::isinstance<py::bool_>(v)) return Scalar::Bool;
  if (py::isinstance<py::int_>(v)) return Scalar::Int;
  if (py::isinstance<py::float_>(v)) return Scalar::Float;
  static const py::handle np = py::module_::import("numpy").release();  // kept for the process
  if (py::isinstance(v, np.attr("bool_"))) return Scalar::Bool;
  if (py::isinstance(v, np.attr("integer"))) return Scalar::Int;
  if (py::isinstance(v, np.attr("floating"))) return Scalar::Float;
  return Scalar::None;
}

[[noreturn]] void badAttribute(const std::string& name, py::handle v) {
  invalidArgument("attribute '" + name +
                  "' must be a bool, an int, a float, a string or a list of numbers, got " +
                  describeValue(v));
}

int64_t toInt(py::handle v, const std::string& name) {
  try {
    return py::module_::import("operator").attr("index")(v).cast<int64_t>();
  } catch (const py::cast_error&) {
    invalidArgument("attribute '" + name + "' = " + describeValue(v) + " does not fit a 64-bit integer");
  }
}

// At most `limit` characters of `text`, marked where cut.
std::string clip(std::string text, size_t limit = 60) {
  if (text.size() > limit) text = text.substr(0, limit - 3) + "...";
  return text;
}

// "numpy.ndarray", "torch.Tensor", "wgk.DeviceTensor", "str".
std::string typeName(py::handle v) {
  py::handle type = py::type::of(v);
  std::string module = py::str(py::getattr(type, "__module__", py::str("")));
  const std::string name = py::str(py::getattr(type, "__qualname__", py::str("?")));
  if (module.rfind("wgk.", 0) == 0) module = "wgk";  // wgk._wgk.DeviceTensor is wgk.DeviceTensor
  return module.empty() || module == "builtins" ? name : module + "." + name;
}

// An array-like's shape as "[4, 64]", or "" when it has none.
std::string shapeText(py::handle v) {
  try {
    std::string out = "[";
    bool first = true;
    for (py::handle d : py::reinterpret_borrow<py::iterable>(v.attr("shape"))) {
      out += (first ? "" : ", ") + std::string(py::str(d));
      first = false;
    }
    return out + "]";
  } catch (const py::error_already_set&) {
    return "";
  }
}

// A 0-d or 1-d array or tensor (numpy, torch, ...), which attributes take as a number or a list.
bool hasRank(py::handle v, int rank) {
  if (!py::hasattr(v, "ndim") || !py::hasattr(v, "tolist") || py::isinstance<py::str>(v)) return false;
  try {
    return v.attr("ndim").cast<int>() == rank;
  } catch (const py::error_already_set&) {
    return false;
  } catch (const py::cast_error&) {
    return false;
  }
}

}  // namespace

Attribute toAttribute(py::handle v, const std::string& name) {
  switch (scalarKind(v)) {
    case Scalar::Bool:
      return v.cast<bool>();
    case Scalar::Int:
      return toInt(v, name);
    case Scalar::Float:
      return v.cast<double>();
    case Scalar::None:
      break;
  }
  if (py::isinstance<py::str>(v)) return v.cast<std::string>();
  // A 0-d array or tensor is its number (epsilon=torch.tensor(1e-6)); a 1-d one its list.
  if (hasRank(v, 0)) return toAttribute(v.attr("tolist")(), name);
  if (hasRank(v, 1) && !py::isinstance<py::array>(v)) return toAttribute(v.attr("tolist")(), name);
  if (py::hasattr(v, "ndim") && !py::isinstance<py::sequence>(v) && !py::isinstance<py::array>(v))
    badAttribute(name, v);
  if (py::isinstance<py::sequence>(v) || py::isinstance<py::array>(v)) {
    if (py::isinstance<py::array>(v) && py::reinterpret_borrow<py::array>(v).ndim() != 1)
      badAttribute(name, v);
    std::vector<int64_t> ints;
    std::vector<double> floats;
    bool allInts = true;
    for (py::handle item : py::reinterpret_borrow<py::iterable>(v)) {
      const Scalar k = scalarKind(item);
      if (k == Scalar::None || k == Scalar::Bool) badAttribute(name, v);
      if (k == Scalar::Int && allInts) ints.push_back(toInt(item, name));
      allInts = allInts && k == Scalar::Int;
      floats.push_back(item.cast<double>());
    }
    if (allInts) return ints;
    return floats;
  }
  badAttribute(name, v);
}

std::map<std::string, Attribute> toAttributes(py::handle dict, const std::string& what) {
  std::map<std::string, Attribute> out;
  if (dict.is_none()) return out;
  if (!py::isinstance<py::dict>(dict))
    invalidArgument(what + " must be a dict of attribute values, got " + describeValue(dict));
  for (auto [k, v] : py::reinterpret_borrow<py::dict>(dict)) {
    const std::string name = py::str(k);
    out.emplace(name, toAttribute(v, name));
  }
  return out;
}

py::object fromAttribute(const Attribute& value) {
  return std::visit([](const auto& v) -> py::object { return py::cast(v); }, value);
}

bool flagArgument(py::handle value, const std::string& what) {
  if (scalarKind(value) != Scalar::Bool)
    invalidArgument(what + " must be True or False, got " + describeValue(value));
  return value.cast<bool>();
}

std::string stringOrEmpty(py::handle value, const std::string& what) {
  if (value.is_none()) return {};
  if (!py::isinstance<py::str>(value))
    invalidArgument(what + " must be a string, got " + describeValue(value));
  return value.cast<std::string>();
}

std::string describeValue(py::handle v) {
  if (v.is_none() || scalarKind(v) != Scalar::None || py::isinstance<py::str>(v)) return clip(py::repr(v));
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    const std::string text = py::repr(v);
    if (text.size() <= 60) return text;
    return "a " + typeName(v) + " of " + std::to_string(py::len(v)) + " items";
  }
  const std::string shape = py::hasattr(v, "shape") ? shapeText(v) : "";
  if (!shape.empty() && py::hasattr(v, "dtype"))
    return "a " + typeName(v) + " " + std::string(py::str(v.attr("dtype"))) + " " + shape;
  if (py::isinstance<py::dict>(v)) return "a dict of " + std::to_string(py::len(v)) + " items";
  return "a " + typeName(v);
}

py::object fromJsonText(const std::string& text) {
  return py::module_::import("json").attr("loads")(text);
}

std::string toJsonText(py::handle value) {
  return py::module_::import("json").attr("dumps")(value).cast<std::string>();
}

}  // namespace wgk::python
