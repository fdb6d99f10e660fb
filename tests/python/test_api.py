# The rest of the Python surface: names, properties, how tensors and attributes are passed, where
# an installed package finds its files, versions.
import importlib.metadata
import os

import numpy as np
import pytest

import wgk


def test_kernel_properties(gelu, rms):
    assert gelu.op == "com.microsoft.FastGelu"
    assert gelu.inputs == ["X", "bias"] and gelu.outputs == ["Y"]
    assert rms.attributes == {"axis": -1, "epsilon": 1e-05, "stash_type": 1}
    src = gelu.source
    assert src["repo"] == "webgpu-kernels/com.microsoft.FastGelu" and src["origin"] == "embedded"
    assert src["requested"] == "v1" and src["revision"].startswith("embedded:")
    assert repr(gelu).startswith("wgk.Kernel('com.microsoft.FastGelu'")
    assert repr(wgk.Runtime).startswith("<class 'wgk._wgk.Runtime'")


def test_kernel_signature(gelu, rms, rt):
    # wgk::Kernel::signature(): what the keyword sorting of every call reads, as a dict.
    s = gelu.signature
    assert s["op"] == "com.microsoft.FastGelu"
    ports = {p["name"]: p for p in s["ports"]}
    assert list(ports) == ["X", "bias", "Y"]
    assert ports["bias"]["direction"] == "input" and ports["bias"]["optional"] and ports["bias"]["rank"] == 1
    assert ports["bias"]["dtypes"] == ["float32", "float16"] and ports["bias"]["type_variable"] == "T"
    assert ports["X"]["rank"] is None and not ports["X"]["optional"] and ports["Y"]["direction"] == "output"
    assert s["args"] == [] and s["attributes"] == []
    assert [v["id"] for v in s["variants"]] == [v["id"] for v in gelu.plan(X=("float16", (4, 8)))["variants"]]
    defaults = {a["name"]: a["default"] for a in rms.signature["attributes"]}
    assert defaults == rms.attributes == {"axis": -1, "epsilon": 1e-05, "stash_type": 1}
    assert type(defaults["epsilon"]) is float and type(defaults["axis"]) is int
    scatter = rt.load("webgpu-kernels/ai.onnx.TensorScatter").signature
    assert [p["direction"] for p in scatter["ports"] if p["name"] == "cache"] == ["inout"]
    assert rt.load("webgpu-kernels/ai.onnx.Transpose").signature["attributes"][0]["default"] is None


def test_tensors_and_attributes_can_be_passed_every_way(rms, rng):
    x = rng.uniform(-3, 3, (3, 16)).astype(np.float32)
    s = np.ones(16, np.float32)
    want = rms(x=x, scale=s, epsilon=1e-3)["y"]
    for out in (rms({"x": x, "scale": s}, epsilon=1e-3), rms(x=x, scale=s, attrs={"epsilon": 1e-3}),
                rms(x=x, scale=s, epsilon=np.float32(1e-3))):
        np.testing.assert_allclose(out["y"], want, rtol=1e-6)
    np.testing.assert_allclose(rms(x=x, scale=s, axis=np.int64(-1), epsilon=1e-3)["y"], want, rtol=1e-6)


def test_forced_variant_and_call_result(gelu):
    x = np.ones((2, 8), np.float32)
    r = gelu.call(X=x, variant="scalar_no_bias")
    assert r.variant == "scalar_no_bias" and r.selected_by == "forced"
    assert set(r.timings) == {"upload_us", "gpu_us", "readback_us", "total_us"}
    np.testing.assert_allclose(r.outputs["Y"], gelu(X=x)["Y"], rtol=1e-6)
    assert "scalar_no_bias" in repr(r)


def test_load_by_folder_and_pathlike(rt, gelu):
    import pathlib

    folder = pathlib.Path(gelu.source["folder"])
    k = rt.load(folder)
    assert k.source["origin"] == "path" and k.op == gelu.op
    np.testing.assert_array_equal(k(X=np.ones((2, 8), np.float32))["Y"], gelu(X=np.ones((2, 8), np.float32))["Y"])


def test_an_installed_package_uses_its_own_files(gelu):
    here = os.path.dirname(wgk.__file__)
    lib = os.path.join(here, "lib", "libwgk.so")
    if not os.path.exists(lib):
        pytest.skip("wgk runs from the build tree (PYTHONPATH=build/python)")
    # The wheel is an install prefix inside wgk/: packages and Dawn come from there.
    assert gelu.source["folder"].startswith(os.path.join(here, "share", "wgk", "packages") + os.sep)
    assert os.path.exists(os.path.join(here, "lib", "wgk", "dawn.node"))
    assert importlib.metadata.version("wgk") == wgk.__version__


def test_type_stubs_are_shipped():
    here = os.path.dirname(wgk.__file__)
    assert os.path.exists(os.path.join(here, "_wgk.pyi")) and os.path.exists(os.path.join(here, "py.typed"))
    for name in ("Runtime", "Kernel", "DeviceTensor", "CallResult", "Error"):
        assert getattr(wgk, name).__doc__, name
    assert ">>>" in wgk.Runtime.__doc__ and ">>>" in wgk.Kernel.__call__.__doc__


def test_cache_stats_count_pipelines_and_buffers():
    # A runtime of its own, so the first call's compile is a miss whatever ran before.
    rt = wgk.Runtime()
    gelu = rt.load("webgpu-kernels/com.microsoft.FastGelu")
    before = rt.cache_stats
    for key in ("pipeline_hits", "pipeline_misses", "pipeline_evictions", "pipelines_cached",
                "buffers_created", "pooled_buffers"):
        assert key in before, key
    x = np.linspace(-2, 2, 3 * 8, dtype=np.float32).reshape(3, 8)
    gelu(X=x)
    after = rt.cache_stats
    assert after["pipeline_misses"] == before["pipeline_misses"] + 1
    assert after["pipelines_cached"] == before["pipelines_cached"] + 1
    gelu(X=x)
    assert rt.cache_stats["pipeline_hits"] >= after["pipeline_hits"]
    assert rt.cache_stats["pipeline_misses"] == after["pipeline_misses"]
