// `{% include "file" %}` expanded as text before a template is parsed, as the Hub loader does
// (hub-spec-2.1; /work notes §17.2): a tag alone on its line is replaced, line and all, by the
// included file's text; elsewhere the tag is replaced in place. Included files expand in turn;
// a cycle is an error. A path starting with "." is relative to the including file's folder,
// others to the package's build/webgpu folder; ".." may not climb out of it. Each line of the
// result remembers where it came from, so errors can name the right file and line.
//
// One include grammar (findIncludeTags) serves the renderer's expansion here and the digest
// scanner (hub::templatesWithIncludes), so both agree on which files a template needs:
//   `{%` or `{%-` or `{%+`, spaces, `include`, spaces, a name quoted with ' or ", spaces, `%}` or `-%}`
// with Jinja's whitespace control as the template engine applies it to every tag (SPEC §4): `{%-`
// removes the whitespace before the tag, newlines included, `-%}` the whitespace after it. A tag
// inside a `{# #}` comment is not an include. A computed include (`{% include name %}`) is not
// expanded: the renderer resolves it at render time, inside the package.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wgk/error.h"

namespace wgk::package {

struct ExpandedTemplate {
  std::string name;  // the template expanded, as expandIncludes was given it
  std::string text;
  std::vector<std::pair<std::string, int>> lineOrigin;  // per line of `text`: (file, line), 1-based
};

// One literal include tag of a template's text: [begin, end) is the tag, `{%` to `%}`.
struct IncludeTag {
  size_t begin = 0, end = 0;
  std::string name;         // as written, before resolveInclude
  bool trimBefore = false;  // `{%-`
  bool keepIndent = false;  // `{%+`: no lstrip of the indentation before it
  bool trimAfter = false;   // `-%}`
};
std::vector<IncludeTag> findIncludeTags(std::string_view text);

using ReadTemplate = std::function<std::string(const std::string& relative)>;
// The file an include names, relative to build/webgpu/: `name` from the file `from`.
std::string resolveInclude(const std::string& from, const std::string& name);
ExpandedTemplate expandIncludes(const std::string& relative, const ReadTemplate& read);

// An error located in the expanded text (Error::location() names source.name) is moved to the
// file and line it came from, and says so: "where template line N is <file> line M". The column
// is kept (a line from an inline include may start with the includer's text).
void locateInSource(Error& e, const ExpandedTemplate& source);

template <class Fn>
decltype(auto) withSourceLines(const ExpandedTemplate& source, Fn&& fn) {
  try {
    return std::forward<Fn>(fn)();
  } catch (Error& e) {
    locateInSource(e, source);
    throw;
  }
}

}  // namespace wgk::package
