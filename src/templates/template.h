// Jinja templates for WGSL (`*.wgsl.jinja`, SPEC.md §4), on the expression language:
// {{ }}, {% if/elif/else %}, {% for x in xs %} (loop.index0, loop.index, loop.first, loop.last,
// loop.length), {% set %}, {% include "file" %}, {# #}, {%- -%} / {{- -}} whitespace control,
// trim_blocks and lstrip_blocks on, filters join, length, default, int, float, string, lower,
// upper, replace (also abs, round, first, last, trim).
//
//   auto t = wgk::templates::Template::parse(text, "rms.wgsl.jinja");
//   std::string wgsl = t.render(scope, resolver);                       // bounded by RenderLimits
//   wgsl = wgk::templates::addEnableDirectives(wgsl);
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "expr/scope.h"

namespace wgk::templates {

struct RenderLimits {
  int maxNestingDepth = 64;                   // nested blocks and includes together
  int64_t maxLoopIterations = 1'000'000;      // across all loops of one render
  size_t maxOutputBytes = 16u << 20;          // rendered text
  size_t maxBuiltBytes = 256u << 20;          // strings and lists built by its expressions, in total
  int maxIncludeDepth = 16;
};

// Returns the text of an included template. Must refuse (throw Error) any name that leaves the
// package: absolute paths, "..", symlinks out. package::PackageFiles provides the real one.
using IncludeResolver = std::function<std::string(const std::string& name)>;

struct TemplateNode;  // private

class Template {
 public:
  // Throws Error(Parse) naming the template, line and column, in the text and as Error::location().
  static Template parse(std::string_view source, std::string name);
  // Throws Error(Template) / Error(Expression) with "in template <name> line N" context and the
  // innermost statement's Error::location().
  std::string render(const expr::Scope& scope, const IncludeResolver& includes = nullptr,
                     const RenderLimits& limits = {}) const;
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  std::shared_ptr<const TemplateNode> root_;
};

// Prepends `enable f16;` when the code uses f16 types/literals without declaring it, and
// `enable subgroups;` when it uses subgroup builtins/functions without declaring it.
std::string addEnableDirectives(std::string_view wgsl);

}  // namespace wgk::templates
