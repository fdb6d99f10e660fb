// Helpers for the template tests.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "support/expect_error.h"
#include "templates/template.h"
#include "wgk/error.h"

namespace wgk::templates::testing {

inline std::string render(std::string_view text, const expr::Scope& scope,
                          const IncludeResolver& inc = nullptr, const RenderLimits& limits = {}) {
  return Template::parse(text, "t.wgsl.jinja").render(scope, inc, limits);
}

inline std::string render(std::string_view text) {
  expr::Scope s(&expr::builtins());
  return render(text, s);
}

using test_support::expectError;

// An include resolver over an in-memory file map that refuses names leaving the package.
inline IncludeResolver mapResolver(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const std::string& name) -> std::string {
    if (name.starts_with("/") || name.find("..") != std::string::npos)
      throw Error(ErrorCode::NotFound, "include '" + name + "' is outside the package");
    auto it = files.find(name);
    if (it == files.end()) throw Error(ErrorCode::NotFound, "no file '" + name + "' in the package");
    return it->second;
  };
}

}  // namespace wgk::templates::testing
