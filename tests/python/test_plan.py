# Planning from Python: the explanation (variant, every variant's verdict and reason, passes with
# their dispatch) as a dict, for this device or another device's profile.
import os

import numpy as np
import pytest

import wgk

from conftest import PROFILES


def test_plan_explains_the_choice(gelu):
    x = np.ones((4, 64), np.float16)
    p = gelu.plan(X=x, bias=np.ones(64, np.float16))
    assert p["package"] == "com.microsoft.FastGelu"
    ids = [v["id"] for v in p["variants"]]
    assert set(ids) == {"f16_pairs_bias", "f16_pairs_no_bias", "vec4_bias", "vec4_no_bias", "vec4_tail_bias",
                        "vec4_tail_no_bias", "scalar_bias", "scalar_no_bias"}
    for v in p["variants"]:
        assert v["eligible"] or v["reason"], v  # every rejected variant says why
    assert p["variant"] in ids and next(v for v in p["variants"] if v["id"] == p["variant"])["eligible"]
    assert p["passes"] and all("dispatch" in pass_ for pass_ in p["passes"])
    assert p["outputs"]["Y"] == {"dtype": "float16", "shape": [4, 64]}
    # The plan is what a call runs.
    assert gelu.call(X=x, bias=np.ones(64, np.float16)).variant == p["variant"]


def test_plan_takes_dtype_shape_pairs_and_device_tensors(rt, rms):
    by_array = rms.plan(x=np.ones((8, 2048), np.float16), scale=np.ones(2048, np.float16))
    by_spec = rms.plan(x=("float16", (8, 2048)), scale=(np.float16, [2048]))
    by_device = rms.plan(x=rt.upload(np.ones((8, 2048), np.float16)), scale=["float16", (2048,)])
    assert by_array == by_spec == by_device


def test_plan_attributes_variants_and_wgsl(rms):
    spec = dict(x=("float32", (4, 64)), scale=("float32", (64,)))
    p = rms.plan(**spec, epsilon=1e-6, stash_type=1)
    forced = rms.plan(spec, variant="last_axis_row", attrs={"epsilon": 1e-6})
    assert forced["variant"] == "last_axis_row" and forced["selectedBy"] == "forced"
    assert "wgsl" not in p["passes"][0] or not p["passes"][0]["wgsl"]
    shown = rms.plan(**spec, wgsl=True)
    assert "@compute" in shown["passes"][0]["wgsl"]


def test_plan_for_another_device(rt):
    h200 = os.path.join(PROFILES, "h200.json")
    p = rt.plan("webgpu-kernels/com.microsoft.FastGelu", X=("float16", (4096, 16384)), bias=("float16", (16384,)),
                device=h200)
    assert p["variant"] and p["variants"]
    import json

    with open(h200) as f:
        assert rt.plan("webgpu-kernels/com.microsoft.FastGelu", X=("float16", (4096, 16384)),
                       bias=("float16", (16384,)), device=json.load(f)) == p
    local = rt.plan("webgpu-kernels/com.microsoft.FastGelu", X=("float16", (2, 8)), device=rt.device)
    assert local == rt.load("webgpu-kernels/com.microsoft.FastGelu").plan(X=("float16", (2, 8)))


def test_plan_errors(gelu):
    with pytest.raises(wgk.NoVariantError):
        gelu.plan(X=("float32", (2, 8)), bias=("float32", (7,)))
    with pytest.raises(wgk.ContractError):
        gelu.plan(X=("int32", (2, 8)))
    with pytest.raises(wgk.ManifestError):
        gelu.plan(X=("float32", (2, 8)), device={"features": []})  # a profile without limits


def test_device_profile(rt):
    d = rt.device
    assert {"adapterInfo", "features", "wgslLanguageFeatures", "limits"} <= set(d)
    assert "shader-f16" in d["features"]
    assert d["limits"]["maxStorageBufferBindingSize"] > 0
