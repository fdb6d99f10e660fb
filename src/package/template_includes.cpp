#include "package/template_includes.h"

#include <regex>
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
  static const std::regex tag(R"re(([ \t]*)\{%\s*include\s+["']([^"']+)["']\s*%\}([ \t]*\r?\n)?)re");
  int line = 1;
  size_t last = 0;
  auto emit = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      if (out.text.empty() || out.text.back() == '\n') out.lineOrigin.emplace_back(file, line);
      out.text += text[i];
      if (text[i] == '\n') ++line;
    }
  };
  for (auto it = std::sregex_iterator(text.begin(), text.end(), tag); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    const size_t at = static_cast<size_t>(m.position(0));
    const bool lineStart = at == 0 || text[at - 1] == '\n' || text[at - 1] == '\r';
    const bool alone = lineStart && m[3].matched;
    emit(last, alone ? at : at + m[1].length());
    const std::string included = withContext("in template " + file + " line " + std::to_string(line), [&] {
      return resolveInclude(file, m[2].str());
    });
    expand(included, read, stack, out, depth + 1);
    for (char c : m.str(0)) line += c == '\n';
    if (!alone) {
      // The tag's own text is gone; what followed it on the line stays.
      if (m[3].matched) out.text += m[3].str();
    }
    last = at + static_cast<size_t>(m.length(0));
  }
  emit(last, text.size());
  stack.pop_back();
}

}  // namespace

ExpandedTemplate expandIncludes(const std::string& relative, const ReadTemplate& read) {
  ExpandedTemplate out;
  std::vector<std::string> stack;
  expand(normalise(relative), read, stack, out, 0);
  return out;
}

void addSourceLine(Error& e, const ExpandedTemplate& source) {
  static const std::regex lineRe(R"(line (\d{1,9})\b)");
  std::smatch m;
  const std::string text = e.what();
  if (!std::regex_search(text, m, lineRe)) return;
  const size_t n = std::stoul(m[1].str());
  if (n == 0 || n > source.lineOrigin.size()) return;
  const auto& [file, line] = source.lineOrigin[n - 1];
  if (source.lineOrigin.size() > 1 && !(file == source.lineOrigin.front().first && line == static_cast<int>(n)))
    e.with("where template line " + std::to_string(n) + " is " + file + " line " + std::to_string(line));
}

}  // namespace wgk::package
