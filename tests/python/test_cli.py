# `python3 -m wgk` mirrors the wgk command's list, info, plan and run (docs/cli.md).
import json

import numpy as np

import wgk

from conftest import run_cli


def test_help_lists_the_four_commands():
    rc, out, _ = run_cli("--help")
    assert rc == 0
    for command in ("list", "info", "plan", "run"):
        assert command in out
    assert "bench" not in out
    assert run_cli("--version")[1].strip() == f"wgk {wgk.__version__}"


def test_list(rt):
    entries = json.loads(run_cli("list", "--json")[1])["packages"]
    repos = {e["repo"] for e in entries}
    assert {"webgpu-kernels/com.microsoft.FastGelu", "webgpu-kernels/ai.onnx.RMSNormalization",
            "webgpu-kernels/com.microsoft.GemmaRotaryEmbedding"} <= repos
    gelu = rt.load("webgpu-kernels/com.microsoft.FastGelu")
    assert next(e for e in entries if e["op"] == "com.microsoft.FastGelu")["folder"] == gelu.source["folder"]
    assert "embedded packages in" in run_cli("list")[1]


def test_info():
    info = json.loads(run_cli("info", "webgpu-kernels/ai.onnx.RMSNormalization", "--json")[1])
    assert "last_axis_row" in json.dumps(info)


def test_plan_matches_kernel_plan(gelu):
    folder = gelu.source["folder"]
    rc, out, _ = run_cli("plan", folder, "--input", "X=float16:4x64", "--input", "bias=float16:64", "--json")
    cli = json.loads(out)
    # The CLI also names the package it planned (as info and run do); the rest is Kernel.plan's.
    assert (cli.pop("repo"), cli.pop("origin"), cli.pop("revision")) == (folder, "path", "")
    assert cli == gelu.plan(X=("float16", (4, 64)), bias=("float16", (64,)))


def test_run_writes_what_the_kernel_returns(gelu, tmp_path):
    x = np.linspace(-3, 3, 32, dtype=np.float32).reshape(4, 8)
    np.save(tmp_path / "x.npy", x)
    run_cli("run", "webgpu-kernels/com.microsoft.FastGelu", "--input", f"X={tmp_path / 'x.npy'}",
            "--output-dir", str(tmp_path / "out"))
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "Y.npy"), gelu(X=x)["Y"])


def test_exit_codes():
    assert run_cli("bench", check=False)[0] == 2  # not one of the mirrored commands
    rc, _, err = run_cli("info", "/nonexistent/package", check=False)
    assert rc == 4 and "wgk: error [not-found]" in err
    rc, _, err = run_cli("run", "webgpu-kernels/com.microsoft.FastGelu", "--input", "X", "--output-dir", "o", check=False)
    assert rc == 2 and "invalid-argument" in err
