"""python/wgk/_wgk.pyi is generated from the built extension module (tools/stubgen/wgk_stubgen.py:
each binding's docstring begins with its typed signature, after pybind11's own line). This checks
that the stub file is exactly what the module generates, that every typed signature agrees with
pybind11's line for the same binding (parameter names, order, which are keyword-only, which have
defaults: what the C++ py::arg()s really take), and that the generator refuses a binding without
one."""
import inspect
import os
import re
import sys
import types

import pytest

import wgk._wgk as module

HERE = os.path.dirname(os.path.abspath(__file__))
STUB = os.path.join(HERE, "..", "..", "python", "wgk", "_wgk.pyi")
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "stubgen"))
import wgk_stubgen  # noqa: E402


def split_top(text):
    """Splits a parameter list at commas outside brackets (<> too) and quotes."""
    return wgk_stubgen.split_params(text, "([{<", ")]}>")


def params(signature_args):
    """[(name, kwonly, has_default)] of a signature's parameter list, without self/cls."""
    out, kwonly = [], False
    for p in split_top(signature_args):
        if p == "*":
            kwonly = True
            continue
        if p == "/":
            continue
        name = p.split(":")[0].split("=")[0].strip()
        if name in ("self", "cls"):
            continue
        if name.startswith("**"):
            out.append((name, True, False))
        elif name.startswith("*"):
            out.append((name, False, False))
            kwonly = True
        else:
            out.append((name, kwonly, "=" in p))
    return out


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


def bindings():
    """(where, name, callable) of every function and method of the module."""
    for name, obj in vars(module).items():
        if name.startswith("__"):
            continue
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            for member, m in vars(obj).items():
                if member in wgk_stubgen.SKIPPED or isinstance(m, (property, types.WrapperDescriptorType)):
                    continue
                if callable(m) or isinstance(m, staticmethod):
                    yield obj.__name__ + ".", member, getattr(m, "__func__", m)
        elif callable(obj) and not isinstance(obj, type):
            yield "", name, obj


def test_the_stub_is_what_the_module_generates():
    with open(STUB) as f:
        have = f.read()
    want = wgk_stubgen.generate(module)
    assert have == want, ("python/wgk/_wgk.pyi is not what the module generates; regenerate it:\n"
                          "  PYTHONPATH=build/python python3 tools/stubgen/wgk_stubgen.py > python/wgk/_wgk.pyi")


def test_every_typed_signature_agrees_with_pybind11():
    problems, checked = [], 0
    for where, name, fn in bindings():
        found = wgk_stubgen.signatures(name, fn)
        assert found, f"{where}{name} has no typed signature line"
        pybind, typed = params(found[0].group(1)), params(found[1].group(1))
        checked += 1
        if not compatible(pybind, typed):
            problems.append(f"{where}{name}: the binding takes {pybind}, its typed signature says {typed}")
    assert checked >= 20
    assert not problems, "\n  ".join(["typed signatures out of step with the bindings:"] + problems)


def test_the_checks_can_fail():
    # A renamed keyword is caught by the comparison with pybind11's line...
    line = inspect.getdoc(module.Gemma.generate)
    found = wgk_stubgen.signatures("generate", module.Gemma.generate)
    typed = params(found[1].group(1).replace("max_new", "max_tokens"))
    assert "max_new" in line and not compatible(params(found[0].group(1)), typed)
    # ... and a binding without its typed line stops the generator.
    fake = types.ModuleType("fake")

    class Error(Exception):
        """Errors."""

    class Thing:
        """A thing."""

        def run(self):
            """run(self: fake.Thing) -> None\n\nRuns, but says nothing of its types."""

    fake.Error, fake.Thing = Error, Thing
    with pytest.raises(wgk_stubgen.StubError, match="Thing.run"):
        wgk_stubgen.generate(fake)
    Thing.run.__doc__ = "run(self: fake.Thing) -> None\n\nrun(self) -> None\n\nRuns."
    assert "    def run(self) -> None: ..." in wgk_stubgen.generate(fake)
