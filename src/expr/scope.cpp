#include "expr/scope.h"

#include <algorithm>

namespace wgk::expr {

void Scope::set(std::string name, Value value) {
  vars_.insert_or_assign(std::move(name), std::move(value));
}

const Value* Scope::lookup(std::string_view name) const {
  for (const Scope* s = this; s; s = s->parent_) {
    auto it = s->vars_.find(name);
    if (it != s->vars_.end()) return &it->second;
  }
  return nullptr;
}

std::vector<std::string> Scope::names() const {
  // Caller names first (what a manifest author is looking for), then the builtins.
  std::vector<std::string> user, builtin;
  const Scope* root = &builtins();
  for (const Scope* s = this; s; s = s->parent_) {
    auto& into = (s == root) ? builtin : user;
    for (const auto& [k, v] : s->vars_) into.push_back(k);
  }
  for (auto* v : {&user, &builtin}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  std::erase_if(builtin,
                [&](const std::string& n) { return std::binary_search(user.begin(), user.end(), n); });
  user.insert(user.end(), builtin.begin(), builtin.end());
  return user;
}

}  // namespace wgk::expr
