# Spec 2.1 packages from Python (tests/data/spec21): scalar args as keywords or args=, an in/out
# port on the host (returned) and on the device (updated in place, returned as given).
import os

import numpy as np
import pytest

import wgk

from conftest import SOURCE_DIR

SCALE = os.path.join(SOURCE_DIR, "tests", "data", "spec21", "wgk.test.Scale")


@pytest.fixture(scope="module")
def scale_kernel(rt):
    return rt.load(SCALE)


def test_scalar_args_and_an_in_out_port(rt, scale_kernel):
    k = scale_kernel
    assert k.args == {"scale": "f32"} and "acc" in k.inputs and "acc" in k.outputs
    x = (np.arange(300, dtype=np.float32) - 100) * 0.25
    acc = np.arange(300, dtype=np.float32)
    for out in (k(x=x, acc=acc, scale=2.0), k(x=x, acc=acc, args={"scale": 2.0}), k({"x": x, "acc": acc}, scale=np.float32(2))):
        np.testing.assert_array_equal(out["y"], x * 2)
        np.testing.assert_array_equal(out["acc"], acc + 6 * (x * 2))  # repeat weights 1 + 2 + 3
    np.testing.assert_array_equal(acc, np.arange(300, dtype=np.float32))  # the caller's array is untouched
    acc_d = rt.upload(acc)
    out = k(x=x, acc=acc_d, scale=1.0, placement="device")
    assert out["acc"] is acc_d
    np.testing.assert_array_equal(acc_d.numpy(), acc + 6 * x)
    assert k.plan(x=("float32", (300,)), acc=("float32", (300,)), scale=1.0)["variant"] == "wg64"


def test_signature_names_scalar_args_and_in_out_ports(scale_kernel):
    s = scale_kernel.signature
    assert [(a["name"], a["kind"]) for a in s["args"]] == list(scale_kernel.args.items())
    inout = [p["name"] for p in s["ports"] if p["direction"] == "inout"]
    assert inout and all(n in scale_kernel.inputs and n in scale_kernel.outputs for n in inout)


def test_scalar_arg_errors(scale_kernel):
    x = np.zeros(4, np.float32)
    with pytest.raises(wgk.ContractError, match=r"missing required arg 'scale' \(f32\)"):
        scale_kernel(x=x, acc=x)
    with pytest.raises(wgk.ContractError, match=r"arg 'scale' \(f32\) must be a finite number"):
        scale_kernel(x=x, acc=x, scale="two")
    with pytest.raises(wgk.ContractError, match=r"unknown arg 'gain' \(args: scale\)"):
        scale_kernel(x=x, acc=x, scale=1.0, args={"gain": 1.0})
    with pytest.raises(wgk.InvalidArgumentError, match="'scale' is given twice"):
        scale_kernel(x=x, acc=x, scale=1.0, args={"scale": 1.0})
