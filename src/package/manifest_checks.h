// Checks both manifest readers apply: names that become WGSL (or file, or message) text are
// validated when the manifest loads, so nothing a package says is pasted into a shader unchecked.
#pragma once

#include <string>
#include <string_view>

#include "package/manifest.h"

namespace wgk::package::detail {

bool isIdentifier(std::string_view s);  // [A-Za-z_][A-Za-z0-9_]*
// A WGSL storage element type wgk generates declarations for: f16 f32 i32 u32, vecN<..>,
// atomic<i32|u32>, matCxR<f16|f32>.
bool isWgslElementType(std::string_view s);

// Error(Manifest) at `path` unless `s` is an identifier; `what` names the thing ("binding name").
void requireIdentifier(std::string_view s, const std::string& path, const std::string& what);
// A literal element type must be a WGSL element type; "$name" must name an identifier.
void requireElementType(std::string_view s, const std::string& path);
// The op's id parts: a dotted lowercase domain (ai.onnx, com.microsoft) and an identifier name.
// They become the package folder's name and metadata.json's id, so "Fast/../../Gelu" is refused.
void requireOpId(const std::string& domain, const std::string& name);
// A stable id (variant, pass, repeat group): [A-Za-z0-9][A-Za-z0-9_.-]*.
void requireStableId(std::string_view s, const std::string& path, const std::string& what);

// Cross references every reader's output must satisfy: unique ids and names, type variables and
// dtypes that exist, bindings that name ports and intermediates of their variant, uniform field
// types, attribute constraints that name attributes and are consistent.
void checkModel(const Manifest& m);

}  // namespace wgk::package::detail
