# The pytest suite of the Python package (docs/python.md), on the local device (lavapipe in CI).
# scripts/test.sh runs it against the package pip-installed from this tree; PYTHONPATH=build/python
# runs it against the build tree's modules.
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import wgk

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROFILES = os.path.join(SOURCE_DIR, "tests", "data", "profiles")


def pytest_report_header(config):
    return f"wgk {wgk.__version__} from {os.path.dirname(wgk.__file__)}"


def run_cli(*args, check=True):
    """`python3 -m wgk ARGS...` in a subprocess: (exit code, stdout, stderr)."""
    p = subprocess.run([sys.executable, "-m", "wgk", *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"python3 -m wgk {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


def embedded_packages():
    """Every embedded package, as `python3 -m wgk list --json` reports it (repo, op, folder, variants)."""
    return json.loads(run_cli("list", "--json")[1])["packages"]


@pytest.fixture(scope="session")
def rt():
    return wgk.Runtime()


@pytest.fixture(scope="session")
def gelu(rt):
    return rt.load("webgpu-kernels/com.microsoft.FastGelu", version=1)


@pytest.fixture(scope="session")
def rms(rt):
    return rt.load("webgpu-kernels/ai.onnx.RMSNormalization", version=1)


@pytest.fixture(scope="session")
def rope(rt):
    return rt.load("webgpu-kernels/com.microsoft.GemmaRotaryEmbedding", version=1)


@pytest.fixture
def rng():
    return np.random.default_rng(1234)
