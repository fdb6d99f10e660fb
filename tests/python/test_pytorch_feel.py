# Python that feels like PyTorch (issue 29 item 2): torch tensors in give torch tensors out, numpy
# in gives numpy out; what wgk cannot take (a tensor that requires grad, bfloat16, float64, things
# that are not tensors) is a wgk.Error naming the input and what to do; messages never print array
# contents; Python numbers and lists work as tensors, scalar args and attributes; wgk.get_kernel.
import numpy as np
import pytest

import wgk

torch = pytest.importorskip("torch")

F16 = np.float16


def x28(dtype=np.float32):
    return (np.arange(16, dtype=np.float32).reshape(2, 8) / 4 - 2).astype(dtype)


def message(cls, fn):
    with pytest.raises(cls) as info:
        fn()
    return info.value.message


# ---- what comes out is what went in ----------------------------------------------------------
def test_torch_in_gives_torch_out_and_numpy_in_gives_numpy_out(gelu, rms):
    x = x28(F16)
    want = gelu(X=x)["Y"]
    assert type(want) is np.ndarray
    y = gelu(X=torch.from_numpy(x))["Y"]
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float16 and y.device.type == "cpu"
    assert y.numpy().tobytes() == want.tobytes()
    # One torch input among numpy ones is enough, as in torch's own ops.
    s = np.ones(8, F16)
    z = rms(x=x, scale=torch.from_numpy(s), epsilon=1e-6)["y"]
    assert isinstance(z, torch.Tensor)
    assert z.numpy().tobytes() == rms(x=x, scale=s, epsilon=1e-6)["y"].tobytes()
    # Device outputs stay wgk.DeviceTensor (torch.from_dlpack(d) gives the host copy).
    assert isinstance(gelu(X=torch.from_numpy(x), placement="device")["Y"], wgk.DeviceTensor)
    r = gelu.call(X=torch.from_numpy(x))
    assert isinstance(r.outputs["Y"], torch.Tensor)


def test_torch_outputs_own_their_memory(gelu):
    y = gelu(X=torch.ones(4, 8))["Y"]
    y += 1  # writable, and alive after the call's objects are gone
    assert torch.all(y > 1)


# ---- refused, with what to do ----------------------------------------------------------------
def test_requires_grad_is_refused_with_detach(gelu):
    t = torch.ones(2, 8, requires_grad=True)
    m = message(wgk.InvalidArgumentError, lambda: gelu(X=t))
    assert m.startswith("input 'X' requires grad") and ".detach()" in m, m
    assert isinstance(gelu(X=t.detach())["Y"], torch.Tensor)


@pytest.mark.parametrize("dtype,hint", [(torch.bfloat16, ".to(torch.float32)"), (torch.float64, ".to(torch.float32)"),
                                        (torch.complex64, "real and imaginary parts")])
def test_torch_dtypes_wgk_has_none_of(gelu, dtype, hint):
    m = message(wgk.InvalidArgumentError, lambda: gelu(X=torch.ones(2, 8, dtype=dtype)))
    assert m.startswith(f"input 'X' is {dtype}; wgk kernels take float16, float32, int32, uint32"), m
    assert hint in m, m


def test_float64_numpy_is_refused_with_astype(gelu, rt):
    m = message(wgk.InvalidArgumentError, lambda: gelu(X=np.ones((2, 8))))
    assert m == ("input 'X' is float64; wgk kernels take float16, float32, int32, uint32, int8, uint8, int16, "
                 "int64, bool: convert it with .astype(np.float32)"), m
    assert "the array is float64" in message(wgk.InvalidArgumentError, lambda: rt.upload(np.ones(3)))


@pytest.mark.parametrize("value,shown", [("abc", "'abc'"), (None, "None"), ({"a": 1}, "a dict of 1 items"),
                                         (object(), "a object")])
def test_non_tensors_are_refused_by_name(gelu, value, shown):
    m = message(wgk.InvalidArgumentError, lambda: gelu(X=value))
    assert m.startswith(f"input 'X' is {shown}, not a tensor: pass a numpy array, a CPU torch tensor"), m


def test_lists_that_are_not_numbers(rt):
    assert "not a rectangular list of numbers" in message(wgk.InvalidArgumentError, lambda: rt.upload([[1.0], [1.0, 2.0]]))
    assert "beyond int32" in message(wgk.InvalidArgumentError, lambda: rt.upload([1, 2**40]))
    assert "not a list of numbers" in message(wgk.InvalidArgumentError, lambda: rt.upload(["a", "b"]))


# ---- messages never print array contents ----------------------------------------------------
MARK = 1234.5  # would appear in any message that printed the array


def no_contents(m):
    assert "1234" not in m and len(m) < 400, m
    return m


def test_a_positional_tensor_is_named_not_printed(gelu):
    x = np.full((64, 64), MARK, np.float32)
    m = no_contents(message(wgk.InvalidArgumentError, lambda: gelu(x)))
    assert m == ("com.microsoft.FastGelu takes its tensors by name (X=..., bias=...), or as one dict of them; "
                 "got a numpy.ndarray float32 [64, 64] as a positional argument"), m
    m = no_contents(message(wgk.InvalidArgumentError, lambda: gelu(x, x)))
    assert "got 2 positional arguments (a numpy.ndarray float32 [64, 64], a numpy.ndarray" in m, m
    no_contents(message(wgk.InvalidArgumentError, lambda: gelu(X=x, placement=x)))
    assert "timestamps must be True or False, got a numpy.ndarray" in no_contents(
        message(wgk.InvalidArgumentError, lambda: gelu.call(X=x, timestamps=x)))
    no_contents(message(wgk.InvalidArgumentError, lambda: gelu.plan(X=x, wgsl=x)))
    m = no_contents(message(wgk.InvalidArgumentError, lambda: gelu(torch.from_numpy(x))))
    assert "got a torch.Tensor torch.float32 [64, 64] as a positional argument" in m


def test_no_message_prints_an_array(rt, gelu, rms):
    x = np.full((64, 64), MARK, np.float32)
    s = np.ones(64, np.float32)
    no_contents(message(wgk.InvalidArgumentError, lambda: rms(x=s, scale=s, epsilon=x)))
    no_contents(message(wgk.InvalidArgumentError, lambda: rms(x=s, scale=s, epsilon=torch.from_numpy(x))))
    no_contents(message(wgk.InvalidArgumentError, lambda: gelu(X=s, attrs=x)))
    no_contents(message(wgk.InvalidArgumentError, lambda: gelu(X=s, outputs=x)))
    no_contents(message(wgk.InvalidArgumentError, lambda: gelu(X=s, variant=x)))
    no_contents(message(wgk.InvalidArgumentError, lambda: rt.allocate(np.full(300, -1), "float32")))
    no_contents(message(wgk.InvalidArgumentError, lambda: rt.allocate((2,), x)))
    no_contents(message(wgk.InvalidArgumentError, lambda: rt.upload(x.astype(np.float64))))
    no_contents(message(wgk.InvalidArgumentError, lambda: rt.upload(x.astype(np.complex64))))


# ---- Python numbers and lists ----------------------------------------------------------------
def test_python_lists_and_numbers_are_tensors_as_torch_reads_them(rt, gelu):
    assert rt.upload([[0.5, -1.0]]).dtype == np.float32  # floats: float32, not float64
    assert rt.upload([1, 2, 3]).dtype == np.int32         # ints: int32 (WGSL has no int64)
    assert rt.upload([True, False]).dtype == np.bool_
    assert rt.upload(2.5).shape == () and rt.upload(2.5).dtype == np.float32
    x = [[-2.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0]]
    y = gelu(X=x)["Y"]
    assert y.dtype == np.float32
    assert y.tobytes() == gelu(X=np.array(x, np.float32))["Y"].tobytes()


def test_python_and_torch_scalars_for_scalar_args_and_attributes(rt, rms):
    import os
    from conftest import SOURCE_DIR

    scale = rt.load(os.path.join(SOURCE_DIR, "tests", "data", "spec21", "wgk.test.Scale"))
    x = np.arange(8, dtype=np.float32)
    acc = np.zeros(8, np.float32)
    want = scale(x=x, acc=acc, scale=2.0)["y"]
    for s in (2, np.float32(2), np.array(2.0), torch.tensor(2.0), torch.tensor(2)):
        assert scale(x=x, acc=acc, scale=s)["y"].tobytes() == want.tobytes(), s
    v, w = np.ones((2, 8), np.float32), np.ones(8, np.float32)
    want = rms(x=v, scale=w, epsilon=1e-3)["y"]
    assert rms(x=v, scale=w, epsilon=torch.tensor(1e-3, dtype=torch.float64))["y"].tobytes() == want.tobytes()
    assert rms(x=v, scale=w, axis=torch.tensor(-1))["y"].shape == (2, 8)


# ---- the short path ---------------------------------------------------------------------------
def test_get_kernel_like_hugging_face_kernels():
    gelu = wgk.get_kernel("webgpu-kernels/com.microsoft.FastGelu", version=1)
    assert isinstance(gelu, wgk.Kernel) and gelu.op == "com.microsoft.FastGelu"
    assert wgk.default_runtime() is wgk.default_runtime()
    again = wgk.get_kernel("webgpu-kernels/com.microsoft.FastGelu")
    assert again.source == gelu.source
    y = gelu(X=torch.ones(2, 8, dtype=torch.float16))["Y"]
    assert isinstance(y, torch.Tensor)
    # Its kernels batch on the shared runtime.
    with wgk.default_runtime().batch() as b:
        yd = b(gelu, X=np.ones((2, 8), F16))["Y"]
    assert yd.numpy().tobytes() == y.numpy().tobytes()
    with pytest.raises(wgk.InvalidArgumentError, match="is not a commit"):
        wgk.get_kernel("webgpu-kernels/com.microsoft.FastGelu", revision="xyz")
    assert "get_kernel" in wgk.__all__ and "default_runtime" in wgk.__all__
