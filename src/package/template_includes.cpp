#include "package/template_includes.h"

#include <algorithm>
#include <optional>
#include <set>

namespace wgk::package {

namespace {

// "a/./b/../c" -> "a/c"; Error(InvalidArgument) when ".." climbs above the root.
std::string normalise(const std::string& path) {
  std::vector<std::string> parts;
  std::string part;
  auto flush = [&] {
    if (part.empty() || part == ".") {
    } else if (part == "..") {
      if (parts.empty()) throw Error(ErrorCode::InvalidArgument, "template path '" + path + "' escapes the package");
      parts.pop_back();
    } else {
      parts.push_back(part);
    }
    part.clear();
  };
  for (char c : path) {
    if (c == '/' || c == '\\')
      flush();
    else
      part += c;
  }
  flush();
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "/") + p;
  return out;
}

}  // namespace

std::string resolveInclude(const std::string& from, const std::string& name) {
  if (!name.starts_with(".")) return normalise(name);
  const size_t slash = from.find_last_of('/');
  return normalise((slash == std::string::npos ? std::string() : from.substr(0, slash)) + "/" + name);
}

namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// The include tag starting at `at` ("{%"), or nullopt when the tag there is anything else.
std::optional<IncludeTag> includeTagAt(std::string_view t, size_t at) {
  IncludeTag tag;
  tag.begin = at;
  size_t p = at + 2;
  auto skipBlanks = [&] {
    while (p < t.size() && isBlank(t[p])) ++p;
  };
  if (p < t.size() && (t[p] == '-' || t[p] == '+')) {
    tag.trimBefore = t[p] == '-';
    tag.keepIndent = t[p] == '+';
    ++p;
  }
  skipBlanks();
  if (t.substr(p, 7) != "include") return std::nullopt;
  p += 7;
  skipBlanks();  // `include'f'` is Jinja's `include 'f'`; `includes` is no include
  if (p >= t.size() || (t[p] != '"' && t[p] != '\'')) return std::nullopt;
  const size_t close = t.find_first_of("\"'", p + 1);
  if (close == std::string_view::npos || t[close] != t[p] || close == p + 1) return std::nullopt;
  tag.name = std::string(t.substr(p + 1, close - p - 1));
  p = close + 1;
  skipBlanks();
  if (p < t.size() && t[p] == '-') {
    tag.trimAfter = true;
    ++p;
  }
  if (t.substr(p, 2) != "%}") return std::nullopt;
  tag.end = p + 2;
  return tag;
}

}  // namespace

std::vector<IncludeTag> findIncludeTags(std::string_view text) {
  std::vector<IncludeTag> tags;
  size_t i = 0;
  while (i + 1 < text.size()) {
    if (text[i] == '{' && text[i + 1] == '#') {  // a comment: nothing in it is a tag
      const size_t close = text.find("#}", i + 2);
      if (close == std::string_view::npos) break;
      i = close + 2;
    } else if (text[i] == '{' && text[i + 1] == '%') {
      if (auto tag = includeTagAt(text, i)) {
        i = tag->end;
        tags.push_back(std::move(*tag));
      } else {
        i += 2;
      }
    } else {
      ++i;
    }
  }
  return tags;
}

namespace {

constexpr int kMaxDepth = 16;

void expand(const std::string& file, const ReadTemplate& read, std::vector<std::string>& stack, ExpandedTemplate& out,
            int depth) {
  if (std::find(stack.begin(), stack.end(), file) != stack.end()) {
    std::string chain;
    for (const auto& s : stack) chain += s + " -> ";
    throw Error(ErrorCode::Template, "circular template include: " + chain + file);
  }
  if (depth > kMaxDepth) throw Error(ErrorCode::Template, "template includes nest deeper than 16 at '" + file + "'");
  stack.push_back(file);
  const std::string text = read(file);
  int line = 1;
  size_t last = 0;
  auto emit = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      if (out.text.empty() || out.text.back() == '\n') out.lineOrigin.emplace_back(file, line);
      out.text += text[i];
      if (text[i] == '\n') ++line;
    }
  };
  auto skip = [&](size_t from, size_t to) {
    line += static_cast<int>(std::count(text.begin() + from, text.begin() + to, '\n'));
  };
  for (const IncludeTag& tag : findIncludeTags(text)) {
    // Alone on its line: only spaces and tabs before it on the line, a newline after it.
    size_t indent = tag.begin;
    while (indent > last && (text[indent - 1] == ' ' || text[indent - 1] == '\t')) --indent;
    const bool lineStart = indent == 0 || text[indent - 1] == '\n' || text[indent - 1] == '\r';
    size_t lineEnd = tag.end;
    while (lineEnd < text.size() && (text[lineEnd] == ' ' || text[lineEnd] == '\t')) ++lineEnd;
    if (lineEnd < text.size() && text[lineEnd] == '\r') ++lineEnd;
    const bool newlineAfter = lineEnd < text.size() && text[lineEnd] == '\n';
    const bool alone = lineStart && newlineAfter;
    size_t cut = tag.begin;  // what of the text before the tag stays: [last, cut)
    if (tag.trimBefore)
      while (cut > last && isBlank(text[cut - 1])) --cut;
    else if (alone && !tag.keepIndent)
      cut = indent;
    emit(last, cut);
    skip(cut, tag.begin);
    const std::string included = withContext("in template " + file + " line " + std::to_string(line),
                                             [&] { return resolveInclude(file, tag.name); });
    expand(included, read, stack, out, depth + 1);
    skip(tag.begin, tag.end);
    last = tag.end;
    if (tag.trimAfter)
      while (last < text.size() && isBlank(text[last])) ++last;
    else if (alone)
      last = lineEnd + 1;  // the line's newline goes with the tag
    skip(tag.end, last);
  }
  emit(last, text.size());
  stack.pop_back();
}

}  // namespace

ExpandedTemplate expandIncludes(const std::string& relative, const ReadTemplate& read) {
  ExpandedTemplate out;
  out.name = relative;
  std::vector<std::string> stack;
  expand(normalise(relative), read, stack, out, 0);
  return out;
}

void locateInSource(Error& e, const ExpandedTemplate& source) {
  const auto& at = e.location();
  if (!at || at->file != source.name || at->line < 1 ||
      static_cast<size_t>(at->line) > source.lineOrigin.size())
    return;
  const int n = at->line;
  const auto& [file, line] = source.lineOrigin[static_cast<size_t>(n) - 1];
  if (file == normalise(source.name) && line == n) return;  // no include moved it
  e.with("where template line " + std::to_string(n) + " is " + file + " line " + std::to_string(line));
  e.at({file, line, at->column});
}

}  // namespace wgk::package
