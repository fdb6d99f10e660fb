# The install recipes of docs/python.md (issue 29 item 2): every pip command there works without
# PyPI on Debian 12, which takes --no-build-isolation (the installed scikit-build-core) and
# --no-deps (with --target, pip ignores the installed numpy and would download one); the reuse
# recipe is the one scripts/test.sh runs, so the suite's own install exercises it; the docs give
# one measured build time.
import os
import re
import shlex

from conftest import SOURCE_DIR


def read(*parts):
    with open(os.path.join(SOURCE_DIR, *parts), encoding="utf-8") as f:
        return f.read()


def pip_commands(text):
    """The `pip install` command lines of a shell text, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [line.strip() for line in joined.splitlines() if "pip install" in line and not line.lstrip().startswith("#")]


def shell_blocks(markdown):
    return "\n".join(re.findall(r"```sh\n(.*?)```", markdown, flags=re.S))


def test_every_documented_pip_install_has_no_build_isolation_and_no_deps():
    for name in ("docs/python.md", "README.md"):
        commands = pip_commands(shell_blocks(read(name)))
        if name == "docs/python.md":
            assert len(commands) >= 4, commands  # --target, venv, system-wide, reusing a build
        for c in commands:
            words = shlex.split(c.replace("~", "HOME"))
            assert "--no-build-isolation" in words and "--no-deps" in words, f"{name}: {c}"
            assert words[0].endswith("python") or words[0].endswith("python3") or "CMAKE_GENERATOR" in words[0], c


def test_the_reuse_recipe_is_what_the_test_script_runs():
    docs = [c for c in pip_commands(shell_blocks(read("docs", "python.md"))) if 'build-dir="$PWD/build"' in c]
    assert len(docs) == 1, docs
    script = pip_commands(read("scripts", "test.sh"))
    assert len(script) == 1, script
    # The settings that make pip reuse the CMake build (same folder, build type, generator).
    for flag in ("--no-build-isolation", "--no-deps", "--target", "--config-settings=install.strip=true"):
        assert flag in docs[0] and flag in script[0], flag
    assert "--config-settings=cmake.build-type=RelWithDebInfo" in docs[0]
    assert "cmake.build-type=" in script[0] and "build-dir=" in script[0]
    # A relative build-dir is read from python/ (a fresh python/build, the full build again).
    for c in docs + script:
        folder = re.search(r"build-dir=(\S+)", c).group(1).strip('"')
        assert folder.startswith("$") or folder.startswith("/"), c
    assert "CMAKE_GENERATOR=" in docs[0] and "CMAKE_GENERATOR=" in read("scripts", "test.sh")


def test_one_measured_build_time():
    docs = read("docs", "python.md")
    times = re.findall(r"<!-- build-time -->(.*?)<!-- /build-time -->", docs)
    assert len(times) == 1 and re.fullmatch(r"\d+ min \d+ s", times[0]), times
    # No other, older figure for the same build anywhere in the docs.
    for name in ("docs/python.md", "README.md", "docs/setup.md"):
        text = read(name)
        assert "about ten minutes" not in text and "130 s from a clean clone" not in text, name
