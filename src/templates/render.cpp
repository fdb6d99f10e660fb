// Renders a parsed template. Every render is bounded by RenderLimits: loop iterations, nesting of
// blocks and includes, include depth and output size are counted, and exceeding one is an
// Error(Template) naming the limit and the template, so no template can hang or exhaust memory.
#include <fmt/format.h>

#include "expr/budget.h"
#include "expr/node.h"
#include "templates/template_node.h"
#include "wgk/error.h"

namespace wgk::templates {

using expr::List;
using expr::Map;
using expr::Scope;
using expr::Value;
using Kind = TemplateNode::Kind;

Template Template::parse(std::string_view source, std::string name) {
  Template t;
  auto root = std::make_shared<TemplateNode>();
  root->kind = Kind::For;  // only its body is used
  root->body = parseTemplateNodes(source, name);
  t.name_ = std::move(name);
  t.root_ = std::move(root);
  return t;
}

namespace {

struct RenderState {
  const IncludeResolver& includes;
  const RenderLimits& limits;
  std::string out;
  int64_t iterations = 0;
  int depth = 0;
  int includeDepth = 0;
};

[[noreturn]] void limitError(const std::string& name, std::string what) {
  throw Error(ErrorCode::Template, fmt::format("template {}: {}", name, what));
}

class Renderer {
 public:
  Renderer(RenderState& state, const std::string& name) : st_(state), name_(name) {}

  void renderList(const NodeList& nodes, Scope& scope) {
    for (const auto& n : nodes) {
      if (n->kind == Kind::Text) {
        emit(n->text);
        continue;
      }
      try {
        renderNode(*n, scope);
      } catch (Error& e) {
        // Only the innermost statement adds its position (an included template's own, when the
        // error is in it).
        if (!tagged_) {
          e.with(fmt::format("in template {} line {}", name_, n->line));
          if (!e.location()) e.at({name_, n->line, n->column});
        }
        tagged_ = true;
        throw;
      }
    }
  }

 private:
  RenderState& st_;
  const std::string& name_;
  bool tagged_ = false;

  void emit(std::string_view text) {
    if (st_.out.size() + text.size() > st_.limits.maxOutputBytes)
      limitError(name_, fmt::format("output exceeds {} bytes (RenderLimits::maxOutputBytes)",
                                    st_.limits.maxOutputBytes));
    st_.out.append(text);
  }

  struct Nest {
    RenderState& st;
    Nest(RenderState& s, const std::string& name) : st(s) {
      if (++st.depth > st.limits.maxNestingDepth)
        limitError(name,
                   fmt::format("blocks and includes nest deeper than {} (RenderLimits::maxNestingDepth)",
                               st.limits.maxNestingDepth));
    }
    ~Nest() { --st.depth; }
  };

  void renderNode(const TemplateNode& n, Scope& scope) {
    switch (n.kind) {
      case Kind::Text:
        emit(n.text);
        return;
      case Kind::Output: {
        Value v = n.expr.evaluate(scope);
        if (!v.isNone()) emit(v.str());
        return;
      }
      case Kind::Set:
        scope.set(n.targets[0], n.expr.evaluate(scope));
        return;
      case Kind::If: {
        for (const auto& [cond, body] : n.branches) {
          if (cond.evaluate(scope).truthy()) {
            Nest nest(st_, name_);
            renderList(body, scope);
            return;
          }
        }
        Nest nest(st_, name_);
        renderList(n.elseBody, scope);
        return;
      }
      case Kind::For:
        renderFor(n, scope);
        return;
      case Kind::Include:
        renderInclude(n, scope);
        return;
    }
  }

  void countIteration() {
    if (++st_.iterations > st_.limits.maxLoopIterations)
      limitError(name_, fmt::format("more than {} loop iterations (RenderLimits::maxLoopIterations)",
                                    st_.limits.maxLoopIterations));
  }

  void bindTargets(const TemplateNode& n, Scope& frame, const Value& item) {
    if (n.targets.size() == 1) {
      frame.set(n.targets[0], item);
      return;
    }
    if (!item.isList() || item.asList().size() != n.targets.size())
      throw Error(ErrorCode::Template,
                  fmt::format("cannot unpack {} into {} loop variables", item.repr(), n.targets.size()));
    for (size_t i = 0; i < n.targets.size(); ++i) frame.set(n.targets[i], item.asList()[i]);
  }

  void iteration(const TemplateNode& n, Scope& scope, const Value& item, int64_t index, int64_t length) {
    countIteration();
    Scope frame(&scope);  // `set` inside the body stays in this iteration, as in Jinja
    bindTargets(n, frame, item);
    if (n.usesLoop)
      frame.set("loop", Map{{"index0", index},
                            {"index", index + 1},
                            {"revindex", length - index},
                            {"revindex0", length - index - 1},
                            {"first", index == 0},
                            {"last", index == length - 1},
                            {"length", length}});
    renderList(n.body, frame);
  }

  // `for i in range(...)` with the builtin range iterates lazily, so a huge range meets the
  // iteration limit instead of allocating.
  bool lazyRange(const TemplateNode& n, Scope& scope) {
    const expr::Node& root = *n.expr.root();
    if (root.kind != expr::NodeKind::Call || root.kids[0]->kind != expr::NodeKind::Name ||
        root.kids[0]->text != "range" || scope.lookup("range") != expr::builtins().lookup("range"))
      return false;
    std::vector<int64_t> a;
    for (size_t i = 1; i < root.kids.size(); ++i) {
      try {
        a.push_back(expr::evaluateNode(*root.kids[i], scope, n.expr.source()).asInt());
      } catch (Error& e) {
        throw Error(e.code(), e.message() + " in `" + n.expr.source() + "`");
      }
    }
    if (a.empty() || a.size() > 3)
      throw Error(ErrorCode::Expression,
                  fmt::format("range() takes 1 to 3 arguments, got {} in `{}`", a.size(), n.expr.source()));
    int64_t start = a.size() == 1 ? 0 : a[0], stop = a.size() == 1 ? a[0] : a[1],
            step = a.size() == 3 ? a[2] : 1;
    if (step == 0)
      throw Error(ErrorCode::Expression, "range() step must not be zero in `" + n.expr.source() + "`");
    __int128 span = static_cast<__int128>(stop) - start, count = 0;
    if (step > 0 && span > 0) count = (span + step - 1) / step;
    if (step < 0 && span < 0)
      count = (-span - static_cast<__int128>(step) - 1) / -static_cast<__int128>(step);
    Nest nest(st_, name_);
    if (count == 0) {
      renderList(n.elseBody, scope);
      return true;
    }
    int64_t length = count > INT64_MAX ? INT64_MAX : static_cast<int64_t>(count);
    for (int64_t i = 0; i < length; ++i) iteration(n, scope, Value(start + i * step), i, length);
    return true;
  }

  void renderFor(const TemplateNode& n, Scope& scope) {
    if (lazyRange(n, scope)) return;
    Value iterable = n.expr.evaluate(scope);
    List items;
    const List* list = nullptr;
    if (iterable.isList()) {
      list = &iterable.asList();
    } else if (iterable.isMap()) {
      for (const auto& [k, v] : iterable.asMap()) items.emplace_back(k);
      list = &items;
    } else if (iterable.isString()) {
      for (char c : iterable.asString()) items.emplace_back(std::string(1, c));
      list = &items;
    } else {
      throw Error(ErrorCode::Template, fmt::format("cannot iterate over {} {} (from `{}`)",
                                                   iterable.kindName(), iterable.repr(), n.expr.source()));
    }
    Nest nest(st_, name_);
    if (list->empty()) {
      renderList(n.elseBody, scope);
      return;
    }
    int64_t length = static_cast<int64_t>(list->size());
    for (int64_t i = 0; i < length; ++i) iteration(n, scope, (*list)[i], i, length);
  }

  void renderInclude(const TemplateNode& n, Scope& scope) {
    Value file = n.expr.evaluate(scope);
    if (!file.isString())
      throw Error(ErrorCode::Template,
                  fmt::format("include needs a file name, got {} {}", file.kindName(), file.repr()));
    if (!st_.includes)
      throw Error(ErrorCode::Template,
                  fmt::format("cannot include '{}': no include resolver was given to render "
                              "template {}",
                              file.asString(), name_));
    if (st_.includeDepth >= st_.limits.maxIncludeDepth)
      limitError(name_, fmt::format("includes nest deeper than {} (RenderLimits::maxIncludeDepth) at '{}'",
                                    st_.limits.maxIncludeDepth, file.asString()));
    Nest nest(st_, name_);
    std::string text = st_.includes(file.asString());
    std::string includedName = file.asString();
    NodeList body = parseTemplateNodes(text, includedName);
    ++st_.includeDepth;
    Scope frame(&scope);  // `set` inside the included file stays there
    Renderer(st_, includedName).renderList(body, frame);
    --st_.includeDepth;
  }
};

}  // namespace

std::string Template::render(const Scope& scope, const IncludeResolver& includes,
                             const RenderLimits& limits) const {
  if (!root_) throw Error(ErrorCode::Internal, "rendering a template that was never parsed");
  RenderState state{includes, limits, {}};
  // Everything the render's expressions build (strings, lists) counts against one budget; inside a
  // plan the plan's budget is the one open, and it covers this render too.
  expr::WorkBudget budget(limits.maxBuiltBytes, "RenderLimits::maxBuiltBytes");
  Scope top(&scope);  // the template's own `set`s land here, never in the caller's scope
  Renderer(state, name_).renderList(root_->body, top);
  return std::move(state.out);
}

}  // namespace wgk::templates
