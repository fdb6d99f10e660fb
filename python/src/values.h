// Python values <-> wgk attribute values and JSON (the plan, the device profile, manifest
// defaults cross as JSON text and become plain dicts, lists, numbers and strings).
#pragma once

#include <pybind11/pybind11.h>

#include <map>
#include <string>

#include "wgk/runtime.h"

namespace wgk::python {

namespace py = pybind11;

// bool, int, float (Python or numpy scalars, 0-d arrays and tensors), str, or a sequence of ints /
// numbers (a list, a tuple, a 1-D numpy array or torch tensor). Error(InvalidArgument) naming the
// attribute for anything else.
Attribute toAttribute(py::handle value, const std::string& name);
std::map<std::string, Attribute> toAttributes(py::handle dict, const std::string& what);
py::object fromAttribute(const Attribute& value);

// A flag (True/False, numpy.bool_); Error(InvalidArgument) naming `what` otherwise. Flags are taken
// as objects so that a wrong value gets this message, not pybind11's, which prints every argument.
bool flagArgument(py::handle value, const std::string& what);

// "" for None, the string for a str; Error(InvalidArgument) naming `what` otherwise.
std::string stringOrEmpty(py::handle value, const std::string& what);

// A value as an error message shows it: short scalars, strings and lists by their repr, anything
// array-like by its type, dtype and shape ("a numpy.ndarray float16 [4, 64]"), never its contents,
// which for a real tensor would flood the message.
std::string describeValue(py::handle value);

py::object fromJsonText(const std::string& text);  // json.loads
std::string toJsonText(py::handle value);          // json.dumps

}  // namespace wgk::python
