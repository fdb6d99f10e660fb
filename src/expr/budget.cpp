#include "expr/budget.h"

#include <fmt/format.h>

#include "expr/support.h"

namespace wgk::expr {
namespace {

struct OpenBudget {
  bool open = false;
  size_t left = 0;
  size_t total = 0;
  std::string name;
};

thread_local OpenBudget current;

}  // namespace

WorkBudget::WorkBudget(size_t bytes, std::string name) {
  if (current.open) return;
  current = {true, bytes, bytes, std::move(name)};
  active_ = true;
}

WorkBudget::~WorkBudget() {
  if (active_) current = {};
}

void chargeWork(size_t bytes, const char* what) {
  if (!current.open) return;
  if (bytes > current.left)
    fail(fmt::format(
        "work limit exceeded: {} would build more than {} bytes of strings and lists in total ({})", what,
        current.total, current.name));
  current.left -= bytes;
}

void chargeResult(size_t bytes, const char* what) {
  if (bytes > kMaxResultBytes)
    fail(fmt::format("{} result of {} bytes exceeds the limit of {} bytes", what, bytes, kMaxResultBytes));
  chargeWork(bytes, what);
}

}  // namespace wgk::expr
