// Splits template source into text, `{{ }}` and `{% %}` segments, applying Jinja's whitespace
// rules as it goes: `{%-`/`-%}` (and the `{{`/`{#` forms) strip all adjacent whitespace,
// lstrip_blocks removes the spaces and tabs before a `{%`/`{#` tag that starts its line (unless
// `{%+`), trim_blocks removes the first newline after `%}`/`#}`, and one trailing newline at the
// end of the template is dropped (Jinja's keep_trailing_newline=False). Comments vanish.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wgk::templates {

enum class SegmentKind { Text, Output, Statement };

struct Segment {
  SegmentKind kind;
  std::string text;  // the literal text, or the tag's inner source without delimiters/modifiers
  int line;          // 1-based position of the segment's start
  int column;        // 1-based; for tags, the column where the inner source begins
};

// Throws Error(Parse) "cannot parse template <name> at line L column C: <what>" for an
// unterminated tag or comment.
std::vector<Segment> splitTemplate(std::string_view source, const std::string& name);

[[noreturn]] void throwTemplateParseError(const std::string& name, int line, int column,
                                          std::string_view what);

}  // namespace wgk::templates
