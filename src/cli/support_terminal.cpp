#include "cli/support_terminal.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>

namespace wgk::cli {

Progress::Progress(std::string prefix) : prefix_(std::move(prefix)) {}

bool Progress::isTerminal() {
  static const bool tty = isatty(fileno(stderr)) != 0;
  return tty;
}

namespace {

double nowS() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// "~8 s left", "~3 min 5 s left"; "" before anything is done (no estimate yet).
std::string timeLeft(double elapsedS, size_t done, size_t total) {
  if (done == 0 || total <= done || elapsedS < 0.5) return "";
  const long s = std::lround(elapsedS / static_cast<double>(done) * static_cast<double>(total - done));
  return s >= 60 ? format(", ~%ld min %ld s left", s / 60, s % 60) : format(", ~%ld s left", std::max(1L, s));
}

}  // namespace

void Progress::show(const std::string& label, size_t done, size_t total) {
  if (label.empty() || !isTerminal()) return;
  if (startS_ < 0) startS_ = nowS();
  if (total == 0) {  // an unknown total: a count only
    std::fprintf(stderr, "\r\033[K[%zu] %s", done, label.c_str());
    std::fflush(stderr);
    drawn_ = true;
    return;
  }
  constexpr int kWidth = 30;
  const int filled = static_cast<int>(kWidth * std::min(done, total) / total);
  // \r and "erase to end of line": a shorter label leaves nothing of a longer one behind. The
  // line is cut to the terminal's usual 80 columns' worth of label, so it never wraps.
  const std::string left = timeLeft(nowS() - startS_, done, total);
  std::string shown = label.size() > 60 ? label.substr(0, 57) + "..." : label;
  std::fprintf(stderr, "\r\033[K[%-*s] %zu/%zu %s%s", kWidth,
               std::string(static_cast<size_t>(filled), '#').c_str(), done, total, shown.c_str(),
               left.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::clear() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

Table::Table(std::vector<std::string> header, std::vector<bool> rightAligned)
    : header_(std::move(header)), right_(std::move(rightAligned)) {
  right_.resize(header_.size(), false);
}

void Table::add(std::vector<std::string> row) {
  rows_.push_back(std::move(row));
}

std::string Table::render() const {
  std::vector<size_t> width(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& r) {
    if (r.size() == 1 && header_.size() > 1) return;  // a note does not widen the columns
    for (size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], r[i].size());
  };
  measure(header_);
  for (const auto& r : rows_) measure(r);
  auto line = [&](const std::vector<std::string>& r) {
    if (r.size() == 1 && header_.size() > 1) return r[0] + "\n";
    std::string s;
    for (size_t i = 0; i < r.size(); ++i) {
      const size_t w = i < width.size() ? width[i] : r[i].size();
      const std::string pad(w > r[i].size() ? w - r[i].size() : 0, ' ');
      const bool last = i + 1 == r.size();
      if (i) s += "  ";
      if (i < right_.size() && right_[i])
        s += pad + r[i];
      else
        s += r[i] + (last ? "" : pad);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::string out = line(header_);
  for (const auto& r : rows_) out += line(r);
  return out;
}

void Table::print(std::FILE* out) const {
  std::fputs(render().c_str(), out);
  std::fflush(out);
}

std::string format(const char* fmt, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

}  // namespace wgk::cli
