"""Writes python/wgk/_wgk.pyi from the built extension module wgk._wgk, or checks it.

The module carries its own types: each binding's docstring (python/src/*_bindings.cpp) begins
with its signature in Python syntax, types and all, written beside the binding; pybind11 puts its
own signature line (parameter names from py::arg, C++ types such as `object`) before it:

    plan(self: wgk._wgk.Kernel, *args, attrs: object = None, ...) -> object      (pybind11's)

    plan(self, inputs: Optional[Mapping[str, TensorSpec]] = None, /, *, ...) -> Dict[str, Any]

and a property's or read-only attribute's docstring begins with `name: type`. This script reads
those lines, the classes and functions in definition order, the error classes' bases and the first
sentence of each class's docstring, and writes the stub; the type aliases the signatures name
(TensorLike, ...) are the HEADER below. A binding without its typed line is an error, so the stub
cannot silently fall behind the module; tests/python/test_stubs.py checks each typed line against
pybind11's (names, order, keyword-only, defaults) and the stub file against this script's output.

    PYTHONPATH=build/python python3 tools/stubgen/wgk_stubgen.py > python/wgk/_wgk.pyi
    PYTHONPATH=build/python python3 tools/stubgen/wgk_stubgen.py --check python/wgk/_wgk.pyi
"""
import difflib
import importlib
import inspect
import re
import sys
import types

HEADER = '''# Type stubs of wgk._wgk (the extension module; import wgk). docs/python.md describes the API.
# Generated from the built module by tools/stubgen/wgk_stubgen.py (each binding's docstring begins
# with its signature); tests/python/test_stubs.py fails when this file differs from what it writes.
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

# A tensor argument: a numpy array (any strides, byte order), a CPU torch tensor or other DLPack
# provider, a Python number or list of numbers (float32 / int32 / bool), or a device tensor. For
# planning also (dtype, shape).
TensorLike = Union[npt.ArrayLike, "DeviceTensor", Any]
DTypeLike = Union[str, np.dtype, type]
TensorSpec = Union[TensorLike, Tuple[DTypeLike, Sequence[int]]]
AttributeValue = Union[bool, int, float, str, Sequence[int], Sequence[float]]
# numpy arrays for numpy inputs, torch.Tensor (CPU) when an input was one, or device tensors.
Output = Union[np.ndarray, "DeviceTensor", Any]
'''

# What the base error class carries (set by the binding on every instance).
ERROR_FIELDS = ["code: str", "message: str", "context: Tuple[str, ...]"]
# Dunders every class has from pybind11 or Python: not part of the stub.
SKIPPED = {"__doc__", "__module__", "__dict__", "__weakref__", "__init_subclass__", "__subclasshook__",
           "__new__", "__repr__", "__getstate__", "__setstate__", "__hash__", "__eq__", "__ne__",
           "__qualname__", "__firstlineno__", "__static_attributes__"}
WIDTH = 110


class StubError(Exception):
    pass


def doc_lines(obj):
    doc = getattr(obj, "__doc__", None) or ""
    return [line.strip() for line in doc.strip().splitlines()]


def first_sentence(obj):
    """The first sentence of the docstring's first paragraph, on one line."""
    paragraph = " ".join(doc_lines(obj)[: (doc_lines(obj) + [""]).index("")])
    m = re.match(r"(.*?\.)(\s|$)", paragraph)
    return m.group(1) if m else paragraph


def signatures(name, obj):
    """(pybind11's signature line, the typed one) at the head of a binding's docstring."""
    lines = [line for line in doc_lines(obj)[:3] if line]
    sig = re.compile(re.escape(name) + r"\((.*)\) -> (.+)")
    if len(lines) < 2 or not sig.fullmatch(lines[0]) or not sig.fullmatch(lines[1]):
        return None
    return sig.fullmatch(lines[0]), sig.fullmatch(lines[1])


def split_params(text, opening="([{", closing=")]}"):
    """Splits a parameter list at the commas outside brackets and quotes (the test of the stubs
    also counts <> as brackets, for pybind11's C++ type names)."""
    parts, depth, cur, quote = [], 0, "", None
    for ch in text:
        if quote:
            cur += ch
            quote = None if ch == quote else quote
            continue
        if ch in "'\"":
            quote = ch
        elif ch in opening:
            depth += 1
        elif ch in closing:
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
            continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def function_stub(where, name, obj, indent):
    found = signatures(name, obj.__func__ if isinstance(obj, staticmethod) else obj)
    if not found:
        raise StubError(f"{where}{name}: the docstring does not begin with its typed signature "
                        f"'{name}(...) -> type' after pybind11's line")
    params, returns = split_params(found[1].group(1)), found[1].group(2)
    deco = f"{indent}@staticmethod\n" if isinstance(obj, staticmethod) else ""
    one = f"{indent}def {name}({', '.join(params)}) -> {returns}: ..."
    if len(one) <= WIDTH:
        return deco + one
    inner = indent + "    "
    return deco + f"{indent}def {name}(\n" + "".join(f"{inner}{p},\n" for p in params) + f"{indent}) -> {returns}: ..."


def attribute_stub(where, name, obj, indent):
    line = (doc_lines(obj) + [""])[0]
    m = re.fullmatch(re.escape(name) + r": (.+)", line)
    if not m:
        raise StubError(f"{where}{name}: the docstring does not begin with '{name}: type' (got {line!r})")
    return f"{indent}@property\n{indent}def {name}(self) -> {m.group(1)}: ..."


def class_stub(cls):
    lines = [f"class {cls.__name__}:"]
    summary = first_sentence(cls)
    if summary:
        lines.append(f'    """{summary}"""')
    for name, member in vars(cls).items():
        # Slot wrappers (the "no constructor defined" __init__ of a class without py::init) are
        # pybind11's, not bindings.
        if name in SKIPPED or name.startswith(("_pybind11", "__pybind11")) or \
                isinstance(member, types.WrapperDescriptorType):
            continue
        if isinstance(member, property):
            lines.append(attribute_stub(cls.__name__ + ".", name, member, "    "))
        elif callable(member) or isinstance(member, staticmethod):
            lines.append(function_stub(cls.__name__ + ".", name, member, "    "))
    return "\n".join(lines)


def error_stub(cls, base):
    bases = ", ".join(b.__name__ for b in cls.__bases__)
    if cls is base:
        body = [f'    """{first_sentence(cls)}"""'] + ["    " + f for f in ERROR_FIELDS]
        return f"class {cls.__name__}({bases}):\n" + "\n".join(body)
    return f"class {cls.__name__}({bases}): ..."


def generate(module):
    base = module.Error
    errors, classes, functions = [], [], []
    for name, obj in vars(module).items():
        if name.startswith("__"):
            continue
        if isinstance(obj, type) and issubclass(obj, BaseException):
            errors.append(error_stub(obj, base))
        elif isinstance(obj, type):
            classes.append(class_stub(obj))
        elif callable(obj):
            functions.append(function_stub("", name, obj, ""))
    return HEADER + "\n" + "\n".join(errors) + "\n\n" + "\n\n".join(classes + functions) + "\n"


def main(argv):
    module = importlib.import_module("wgk._wgk")
    try:
        text = generate(module)
    except StubError as e:
        print(f"wgk_stubgen: {e}", file=sys.stderr)
        return 1
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2]) as f:
            have = f.read()
        if have != text:
            sys.stderr.writelines(difflib.unified_diff(have.splitlines(True), text.splitlines(True),
                                                       argv[2], "generated from wgk._wgk"))
            print(f"wgk_stubgen: {argv[2]} is not what the module generates; regenerate it with\n"
                  f"  PYTHONPATH=build/python python3 tools/stubgen/wgk_stubgen.py > {argv[2]}", file=sys.stderr)
            return 1
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
