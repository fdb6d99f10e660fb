// `{% include "file" %}` expanded as text before a template is parsed, as the Hub loader does
// (hub-spec-2.1; /work notes §17.2): a tag alone on its line is replaced, line and all, by the
// included file's text; elsewhere the tag is replaced in place. Included files expand in turn;
// a cycle is an error. A path starting with "." is relative to the including file's folder,
// others to the package's build/webgpu folder; ".." may not climb out of it. Each line of the
// result remembers where it came from, so errors can name the right file and line.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "wgk/error.h"

namespace wgk::package {

struct ExpandedTemplate {
  std::string text;
  std::vector<std::pair<std::string, int>> lineOrigin;  // per line of `text`: (file, line), 1-based
};

using ReadTemplate = std::function<std::string(const std::string& relative)>;
// The file an include names, relative to build/webgpu/: `name` from the file `from`.
std::string resolveInclude(const std::string& from, const std::string& name);
ExpandedTemplate expandIncludes(const std::string& relative, const ReadTemplate& read);

// The error's first "line N" (of the expanded text), as "file line M" context.
void addSourceLine(Error& e, const ExpandedTemplate& source);

template <class Fn>
decltype(auto) withSourceLines(const ExpandedTemplate& source, Fn&& fn) {
  try {
    return std::forward<Fn>(fn)();
  } catch (Error& e) {
    addSourceLine(e, source);
    throw;
  }
}

}  // namespace wgk::package
