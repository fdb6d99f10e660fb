"""What libwgk.so exports is the public API and nothing else.

Lists the library's exported symbols (nm -DC --defined-only) and fails on any that does not belong
to what include/wgk/ declares at namespace wgk scope: a class or struct it defines (its members,
typeinfo, vtable), an enum, or a function it marks WGK_API (wgk/export.h). A forward declaration
(class RuntimeImpl;) declares nothing public. Also fails when a WGK_API function is not exported,
so that an empty or unreadable symbol list cannot pass.

    python3 check_symbols.py LIBRARY INCLUDE_DIR      # the check
    python3 check_symbols.py --self-test INCLUDE_DIR  # the check refuses internal symbols
"""
import pathlib
import re
import subprocess
import sys

PREFIXES = ("typeinfo name for ", "typeinfo for ", "vtable for ", "VTT for ", "guard variable for ")


def declared_api(include_dir):
    """(classes and enums, WGK_API functions) that include/wgk/*.h declare."""
    types, functions = set(), set()
    for header in sorted(pathlib.Path(include_dir).glob("*.h")):
        text = header.read_text()
        text = re.sub(r"//[^\n]*", "", text)
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
        # Definitions only: `class [WGK_API] Name {` or `... Name : base {`, never `class Name;`.
        for m in re.finditer(r"\b(?:class|struct)\s+(?:WGK_API\s+)?(\w+)\s*(?:final\s*)?[:{]", text):
            types.add(m.group(1))
        for m in re.finditer(r"\benum\s+class\s+(\w+)", text):
            types.add(m.group(1))
        for m in re.finditer(r"\bWGK_API\s+[^;{}()]*?\b(\w+)\s*\(", text):
            functions.add(m.group(1))
    return types, functions


def problems(symbols, types, functions):
    out = []
    exported_functions = set()
    for symbol in symbols:
        name = symbol
        for prefix in PREFIXES:
            if name.startswith(prefix):
                name = name[len(prefix):]
                break
        m = re.match(r"wgk::(\w+)(.?)", name)
        if not m or m.group(1) not in types | functions:
            out.append(f"exported, not declared in include/wgk/: {symbol}")
            continue
        if m.group(1) in functions and m.group(2) == "(":
            exported_functions.add(m.group(1))
    for f in sorted(functions - exported_functions):
        out.append(f"declared WGK_API in include/wgk/, not exported: wgk::{f}")
    return out


def exported_symbols(library):
    text = subprocess.run(["nm", "-DC", "--defined-only", library], check=True, capture_output=True,
                          text=True).stdout
    # "0000000000123456 T wgk::Runtime::create(...)": the name is everything after the type letter.
    return [line.split(" ", 2)[2] for line in text.splitlines() if line.count(" ") >= 2]


def self_test(include_dir):
    types, functions = declared_api(include_dir)
    assert {"Runtime", "Kernel", "KernelSignature", "Error", "DType"} <= types, types
    assert {"dtypeName", "numel", "errorCodeName"} <= functions, functions
    assert "RuntimeImpl" not in types and "IntrospectAccess" not in types, types
    good = [f"wgk::{f}(int)" for f in functions] + [
        "wgk::Runtime::create(wgk::RuntimeOptions const&)", "typeinfo for wgk::Error",
        "vtable for wgk::Error", "wgk::Kernel::signature() const"]
    assert problems(good, types, functions) == [], problems(good, types, functions)
    for bad in ["wgk::plan::Planner::plan(wgk::plan::PlanRequest const&) const",
                "wgk::RuntimeImpl::load(std::string const&)", "wgk::introspect::planner(wgk::Kernel const&)",
                "nlohmann::json_abi_v3_11_2::basic_json<>::~basic_json()", "typeinfo for wgk::gpu::Device",
                "wgk::tensorBytes(wgk::DType, std::vector<long> const&)"]:
        found = problems(good + [bad], types, functions)
        assert found == [f"exported, not declared in include/wgk/: {bad}"], (bad, found)
    missing = problems([s for s in good if not s.startswith("wgk::numel(")], types, functions)
    assert missing == ["declared WGK_API in include/wgk/, not exported: wgk::numel"], missing
    print(f"self-test ok: {len(types)} public types, {len(functions)} WGK_API functions")


def main(argv):
    if argv[1] == "--self-test":
        self_test(argv[2])
        return 0
    library, include_dir = argv[1], argv[2]
    types, functions = declared_api(include_dir)
    symbols = exported_symbols(library)
    found = problems(symbols, types, functions)
    if found:
        print(f"{library} exports what include/wgk/ does not declare ({len(found)}):", file=sys.stderr)
        for p in found:
            print("  " + p, file=sys.stderr)
        return 1
    print(f"{library}: {len(symbols)} exported symbols, all of include/wgk/'s {len(types)} types and "
          f"{len(functions)} functions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
