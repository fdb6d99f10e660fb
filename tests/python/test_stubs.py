"""python/wgk/_wgk.pyi against the built extension module: the stub file is written by hand, so
this checks that it names every class, function, method and property the module has (and nothing
it lacks), and that each callable's parameters (names, order, which are keyword-only, which have
defaults) are the ones pybind11 reports in its signature line."""
import ast
import os
import re

import pytest

import wgk._wgk as module

STUB = os.path.join(os.path.dirname(__file__), "..", "..", "python", "wgk", "_wgk.pyi")
# Dunders the stub need not repeat (pybind11 and Python add them to every class).
IGNORED_DUNDERS = {"__init__", "__repr__", "__getattr__", "__setattr__", "__delattr__", "__dir__",
                   "__eq__", "__ne__", "__hash__", "__reduce__", "__reduce_ex__", "__sizeof__",
                   "__subclasshook__", "__init_subclass__", "__format__", "__new__", "__getstate__",
                   "__setstate__", "__str__", "__lt__", "__le__", "__gt__", "__ge__", "__class__"}


def stub_tree():
    with open(STUB) as f:
        return ast.parse(f.read())


def stub_params(fn):
    """[(name, kwonly, has_default)] of a stub def, without self/cls."""
    a = fn.args
    pos = a.posonlyargs + a.args
    defaults = [False] * (len(pos) - len(a.defaults)) + [True] * len(a.defaults)
    out = [(p.arg, False, d) for p, d in zip(pos, defaults)]
    out += [(p.arg, True, d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.vararg:
        out.append(("*" + a.vararg.arg, False, False))
    if a.kwarg:
        out.append(("**" + a.kwarg.arg, True, False))
    return [p for p in out if p[0] not in ("self", "cls")]


def split_top(text):
    """Splits a parameter list at commas outside brackets and quotes."""
    parts, depth, cur, quote = [], 0, "", None
    for ch in text:
        if quote:
            cur += ch
            quote = None if ch == quote else quote
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def runtime_signatures(obj, name):
    """[[(name, kwonly, has_default)], ...] from pybind11's docstring signature line(s)."""
    doc = getattr(obj, "__doc__", None) or ""
    sigs = []
    for line in doc.splitlines():
        m = re.match(r"^(?:\d+\. )?" + re.escape(name) + r"\((.*)\)(?: -> .*)?$", line.strip())
        if not m:
            continue
        params, kwonly = [], False
        for p in split_top(m.group(1)):
            if p == "*":
                kwonly = True
                continue
            pname = p.split(":")[0].split("=")[0].strip()
            if pname in ("self", "cls"):
                continue
            if pname.startswith("**"):
                params.append((pname, True, False))
            elif pname.startswith("*"):
                params.append((pname, False, False))
                kwonly = True
            else:
                params.append((pname, kwonly, "=" in p))
        sigs.append(params)
    return sigs


def stub_members(cls_node):
    methods, props = {}, set()
    for node in cls_node.body:
        if isinstance(node, ast.FunctionDef):
            decos = {d.id if isinstance(d, ast.Name) else getattr(d, "attr", "") for d in node.decorator_list}
            if "property" in decos or "setter" in decos:
                props.add(node.name)
            else:
                methods.setdefault(node.name, []).append(node)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            props.add(node.target.id)
    return methods, props


def public(names):
    return {n for n in names if not n.startswith("__") or n not in IGNORED_DUNDERS}


def compatible(rt, st):
    """Whether stub parameters `st` describe the module's `rt`. The module's `*args` (a binding
    that sorts its positional tensors itself) may be spelled out in the stub; pybind11's unnamed
    `argN` match any name; `**` parameters must both exist, whatever their names."""
    rt = [p for p in rt if p[0] != "/"]
    if any(p[0].startswith("**") for p in rt) != any(p[0].startswith("**") for p in st):
        return False
    kw = lambda ps: [(n, d) for n, k, d in ps if k and not n.startswith("*")]  # noqa: E731
    if kw(rt) != kw(st):
        return False
    pos = lambda ps: [(n, d) for n, k, d in ps if not k and not n.startswith("*")]  # noqa: E731
    rpos, spos = pos(rt), pos(st)
    if any(n.startswith("*") and not n.startswith("**") for n, _, _ in rt):
        return len(spos) >= len(rpos) and all(a == b for a, b in zip(rpos, spos))
    if len(rpos) != len(spos):
        return False
    return all((re.fullmatch(r"arg\d+", a[0]) or a[0] == b[0]) and a[1] == b[1] for a, b in zip(rpos, spos))


def check_callable(where, runtime_obj, name, stub_defs, problems):
    sigs = runtime_signatures(runtime_obj, name)
    if not sigs:
        return  # no pybind11 signature line (a Python-level or C slot method): names only
    stub_sigs = [stub_params(d) for d in stub_defs]
    for s in sigs:
        if not any(compatible(s, st) for st in stub_sigs):
            problems.append(f"{where}{name}: the module takes {s}, the stub says {stub_sigs}")


def test_the_stub_matches_the_module():
    tree = stub_tree()
    stub_classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    stub_funcs = {}
    for n in tree.body:
        if isinstance(n, ast.FunctionDef):
            stub_funcs.setdefault(n.name, []).append(n)
    problems = []
    names = {n for n in dir(module) if not n.startswith("__")}
    runtime_classes = {n for n in names if isinstance(getattr(module, n), type)}
    runtime_funcs = {n for n in names if callable(getattr(module, n)) and n not in runtime_classes}
    for n in sorted(runtime_classes - set(stub_classes)):
        problems.append(f"class {n} is in the module, not in the stub")
    for n in sorted(set(stub_classes) - runtime_classes):
        problems.append(f"class {n} is in the stub, not in the module")
    for n in sorted(runtime_funcs ^ set(stub_funcs)):
        problems.append(f"function {n} is in {'the module' if n in runtime_funcs else 'the stub'} only")
    for n in sorted(runtime_funcs & set(stub_funcs)):
        check_callable("", getattr(module, n), n, stub_funcs[n], problems)
    for cname in sorted(runtime_classes & set(stub_classes)):
        cls = getattr(module, cname)
        if issubclass(cls, BaseException):
            continue  # the error classes: their bases are checked by test_errors
        methods, props = stub_members(stub_classes[cname])
        own = {k: v for k, v in vars(cls).items() if public([k])}
        rprops = {k for k, v in own.items() if isinstance(v, property)}
        rmethods = {k for k, v in own.items() if k not in rprops and callable(v) or isinstance(v, staticmethod)}
        for k in sorted(rprops ^ props):
            problems.append(f"{cname}.{k}: a property in {'the module' if k in rprops else 'the stub'} only")
        for k in sorted(rmethods ^ set(methods)):
            if k in IGNORED_DUNDERS:
                continue
            problems.append(f"{cname}.{k}: a method in {'the module' if k in rmethods else 'the stub'} only")
        for k in sorted(rmethods & set(methods)):
            check_callable(f"{cname}.", getattr(cls, k), k, methods[k], problems)
    assert not problems, "python/wgk/_wgk.pyi is out of date:\n  " + "\n  ".join(problems)


def test_the_checker_sees_a_wrong_stub(tmp_path, monkeypatch):
    # The check can fail: a stub with a renamed keyword and a missing method is reported.
    text = open(STUB).read()
    assert "max_new: int = 32" in text
    broken = tmp_path / "_wgk.pyi"
    broken.write_text(text.replace("max_new: int = 32", "max_tokens: int = 32"))
    monkeypatch.setitem(globals(), "STUB", str(broken))
    with pytest.raises(AssertionError, match="Gemma.generate"):
        test_the_stub_matches_the_module()
