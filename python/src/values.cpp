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
                  std::string(py::str(py::type::of(v).attr("__name__"))) + " " + std::string(py::repr(v)));
}

int64_t toInt(py::handle v, const std::string& name) {
  try {
    return py::module_::import("operator").attr("index")(v).cast<int64_t>();
  } catch (const py::cast_error&) {
    invalidArgument("attribute '" + name + "' = " + std::string(py::repr(v)) +
                    " does not fit a 64-bit integer");
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
  if (py::isinstance<py::sequence>(v) || py::isinstance<py::array>(v)) {
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
    invalidArgument(what + " must be a dict of attribute values, got " + std::string(py::repr(dict)));
  for (auto [k, v] : py::reinterpret_borrow<py::dict>(dict)) {
    const std::string name = py::str(k);
    out.emplace(name, toAttribute(v, name));
  }
  return out;
}

py::object fromAttribute(const Attribute& value) {
  return std::visit([](const auto& v) -> py::object { return py::cast(v); }, value);
}

std::string stringOrEmpty(py::handle value, const std::string& what) {
  if (value.is_none()) return {};
  if (!py::isinstance<py::str>(value))
    invalidArgument(what + " must be a string, got " + std::string(py::repr(value)));
  return value.cast<std::string>();
}

py::object fromJsonText(const std::string& text) {
  return py::module_::import("json").attr("loads")(text);
}

std::string toJsonText(py::handle value) {
  return py::module_::import("json").attr("dumps")(value).cast<std::string>();
}

}  // namespace wgk::python
