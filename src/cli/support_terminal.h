// Terminal output shared by the commands that print tables: a progress line on stderr that is
// erased before anything else is printed (on a terminal only; nothing elsewhere), and a table
// whose column widths come from its content.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace wgk::cli {

// One progress line on stderr, on a terminal only: "[####      ] 12/40 label, ~8 s left", redrawn
// in place and erased by clear() (call it before printing a row to stdout: both land on the same
// screen). The estimate is the time so far per step done times the steps left, from the first
// show(). Where stderr is not a terminal (a pipe, a CI log) show() prints nothing.
class Progress {
 public:
  explicit Progress(std::string prefix);
  ~Progress() { clear(); }
  void show(const std::string& label, size_t done, size_t total);
  void clear();
  static bool isTerminal();

 private:
  std::string prefix_;
  bool drawn_ = false;
  double startS_ = -1;  // steady-clock seconds at the first show()
};

// Rows of cells; print() pads every column to its widest cell (header included). Right-aligned
// columns suit numbers. A row with a single cell is printed as is (a note under the previous row).
class Table {
 public:
  explicit Table(std::vector<std::string> header, std::vector<bool> rightAligned = {});
  void add(std::vector<std::string> row);
  void print(std::FILE* out) const;
  std::string render() const;
  size_t rows() const { return rows_.size(); }

 private:
  std::vector<std::string> header_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

// printf-style number formatting into a std::string (for Table cells).
std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace wgk::cli
