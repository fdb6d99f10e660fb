// The Python side of wgk::Error: wgk.Error and one subclass per wgk::ErrorCode, named after the
// code's stable name ("no-variant" -> wgk.NoVariantError), carrying `code`, `message` and
// `context` (the context chain, innermost first). Every wgk::Error escaping a binding becomes one.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace wgk::python {

// Creates the classes in `m` and registers the translation (once, by wgk._wgk; pybind11 shares
// translators between the modules of one process, so wgk._reference's errors are translated too).
void bindErrors(pybind11::module_& m);

// Throws wgk::Error(InvalidArgument): for arguments only the binding can check (a numpy dtype wgk
// has no counterpart of, an attribute of a Python type no attribute can hold, ...).
[[noreturn]] void invalidArgument(const std::string& message);

}  // namespace wgk::python
