#include "templates/template_lexer.h"

#include <fmt/format.h>

#include <algorithm>

#include "wgk/error.h"

namespace wgk::templates {

void throwTemplateParseError(const std::string& name, int line, int column, std::string_view what) {
  throw Error(ErrorCode::Parse,
              fmt::format("cannot parse template {} at line {} column {}: {}", name, line, column, what))
      .at({name, line, column});
}

namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

class Splitter {
 public:
  Splitter(std::string_view src, const std::string& name) : src_(src), name_(name) {}

  std::vector<Segment> run() {
    size_t pos = 0;
    std::string text;  // pending literal text
    size_t textStart = 0;
    while (pos < src_.size()) {
      size_t open = findOpener(pos);
      if (open == std::string_view::npos) {
        text.append(src_.substr(pos));
        pos = src_.size();
        break;
      }
      text.append(src_.substr(pos, open - pos));
      char kind = src_[open + 1];  // '{', '%' or '#'
      char leftMod = open + 2 < src_.size() ? src_[open + 2] : '\0';
      bool block = kind != '{';
      if (leftMod == '-') {
        while (!text.empty() && isSpace(text.back())) text.pop_back();
      } else if (block && leftMod != '+' && onlyBlanksBefore(open)) {
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
      }
      flushText(text, textStart);
      size_t innerStart = open + 2 + ((leftMod == '-' || leftMod == '+') ? 1 : 0);
      size_t close = findCloser(open, kind, innerStart);
      bool rightStrip = close > innerStart && src_[close - 1] == '-';
      size_t innerEnd = rightStrip ? close - 1 : close;
      if (kind != '#') {
        auto [line, col] = lineCol(innerStart);
        out_.push_back({kind == '{' ? SegmentKind::Output : SegmentKind::Statement,
                        std::string(src_.substr(innerStart, innerEnd - innerStart)), line, col});
      }
      pos = close + 2;
      if (rightStrip) {
        while (pos < src_.size() && isSpace(src_[pos])) ++pos;
      } else if (block) {
        if (src_.substr(pos, 2) == "\r\n")
          pos += 2;
        else if (pos < src_.size() && src_[pos] == '\n')
          pos += 1;
      }
      textStart = pos;
    }
    // keep_trailing_newline=False: the template's own final newline is not output.
    if (pos == src_.size() && !text.empty() && src_.ends_with('\n') && text.back() == '\n') {
      text.pop_back();
      if (!text.empty() && text.back() == '\r') text.pop_back();
    }
    flushText(text, textStart);
    return std::move(out_);
  }

 private:
  std::string_view src_;
  const std::string& name_;
  std::vector<Segment> out_;

  // Where the last lineCol() call stopped: offsets asked for only grow while splitting, so each
  // call scans on from there and the whole split stays linear in the source (rescanning from the
  // start for every tag made 40,000 tags take half a minute).
  size_t scanned_ = 0, lineStart_ = 0;
  int line_ = 1;

  std::pair<int, int> lineCol(size_t offset) {
    offset = std::min(offset, src_.size());
    if (offset < scanned_) scanned_ = 0, lineStart_ = 0, line_ = 1;  // not expected; stays correct
    for (; scanned_ < offset; ++scanned_)
      if (src_[scanned_] == '\n') {
        ++line_;
        lineStart_ = scanned_ + 1;
      }
    return {line_, static_cast<int>(offset - lineStart_) + 1};
  }

  void flushText(std::string& text, size_t start) {
    if (!text.empty()) {
      auto [line, col] = lineCol(start);
      out_.push_back({SegmentKind::Text, std::move(text), line, col});
    }
    text.clear();
  }

  size_t findOpener(size_t from) const {
    for (size_t i = src_.find('{', from); i != std::string_view::npos; i = src_.find('{', i + 1)) {
      if (i + 1 < src_.size() && (src_[i + 1] == '{' || src_[i + 1] == '%' || src_[i + 1] == '#')) return i;
    }
    return std::string_view::npos;
  }

  // lstrip_blocks applies only when the tag is the first non-blank thing on its source line.
  bool onlyBlanksBefore(size_t open) const {
    for (size_t i = open; i > 0; --i) {
      char c = src_[i - 1];
      if (c == '\n') return true;
      if (c != ' ' && c != '\t') return false;
    }
    return true;
  }

  // Offset of the closing "}}", "%}" or "#}"; string literals inside expressions may hold them.
  size_t findCloser(size_t open, char kind, size_t from) {
    char closeFirst = kind == '{' ? '}' : kind;
    char quote = 0;
    for (size_t i = from; i + 1 < src_.size(); ++i) {
      char c = src_[i];
      if (kind != '#') {
        if (quote) {
          if (c == '\\')
            ++i;
          else if (c == quote)
            quote = 0;
          continue;
        }
        if (c == '"' || c == '\'') {
          quote = c;
          continue;
        }
      }
      if (c == closeFirst && src_[i + 1] == '}') return i;
    }
    auto [line, col] = lineCol(open);
    std::string_view what = kind == '#'   ? "unterminated comment (missing '#}')"
                            : kind == '%' ? "unterminated statement tag (missing '%}')"
                                          : "unterminated expression tag (missing '}}')";
    throwTemplateParseError(name_, line, col, what);
  }
};

}  // namespace

std::vector<Segment> splitTemplate(std::string_view source, const std::string& name) {
  return Splitter(source, name).run();
}

}  // namespace wgk::templates
