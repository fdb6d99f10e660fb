// Renaming names inside expression text, token by token (string literals are never touched): the
// writers' tool for re-expressing a manifest in the other dialect's scope (manifest_writer.h).
#pragma once

#include <map>
#include <string>

#include "expr/value.h"
#include "package/json_reader.h"

namespace wgk::package::rewrite {

struct Renames {
  std::map<std::string, std::string> bare;  // a name not after '.' (a scope name or a bare derive)
  // namespace -> (member -> new member): `shapes.X` -> `shapes.x`.
  std::map<std::string, std::map<std::string, std::string>> member;
  bool empty() const { return bare.empty() && member.empty(); }
};

// `source` with the renames applied; unchanged when nothing matches. Error(Parse) if it is not an
// expression the lexer reads.
std::string renameInExpression(const std::string& source, const Renames& r);

// The same inside the {{ }} and {% %} tags of a template (text outside tags is kept byte for
// byte; a tag the lexer cannot read is kept as it is).
std::string renameInTemplate(const std::string& text, const Renames& r);

// An expression value as JSON (the writers' literal defaults and lengths).
Json jsonOf(const expr::Value& v);

// Error(Unsupported): `what` (at `path`, when given) has no equivalent in `dialect`, e.g.
// "spec 2.1" or "the seeds' dialect".
[[noreturn]] void unsupportedIn(const std::string& dialect, const std::string& what, const std::string& path);

}  // namespace wgk::package::rewrite
