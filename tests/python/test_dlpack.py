# DLPack in and out, with numpy and torch (CPU): kernels take DLPack providers, device tensors
# export their host copy, and float16 survives every round trip bit for bit.
import numpy as np
import pytest

import wgk

torch = pytest.importorskip("torch")


class OnlyDLPack:
    """A provider with nothing but the DLPack protocol (so numpy's own paths are not used)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


ALL_F16 = np.arange(1 << 16, dtype=np.uint16).view(np.float16)  # every bit pattern, NaN payloads too


def test_float16_bit_exact_round_trips(rt):
    assert rt.upload(ALL_F16).numpy().view(np.uint16).tobytes() == ALL_F16.view(np.uint16).tobytes()
    assert np.from_dlpack(rt.upload(ALL_F16)).view(np.uint16).tobytes() == ALL_F16.view(np.uint16).tobytes()
    t = torch.from_numpy(ALL_F16.copy())
    back = torch.from_dlpack(rt.from_dlpack(t))
    assert back.dtype == torch.float16
    assert back.view(torch.int16).numpy().tobytes() == ALL_F16.view(np.int16).tobytes()
    via = rt.from_dlpack(OnlyDLPack(ALL_F16)).numpy()
    assert via.view(np.uint16).tobytes() == ALL_F16.view(np.uint16).tobytes()


def test_numpy_round_trip(rt, rng):
    x = rng.standard_normal((3, 7)).astype(np.float32)
    d = rt.from_dlpack(x)
    assert d.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(d), x)


@pytest.mark.parametrize("dtype", [torch.float16, torch.float32, torch.int32, torch.int8, torch.uint8, torch.int16, torch.int64])
def test_torch_round_trip(rt, dtype):
    t = (torch.arange(24) * 3 - 30).reshape(4, 6).to(dtype)
    d = rt.from_dlpack(t)
    assert d.shape == (4, 6) and d.dtype == np.dtype(str(dtype).removeprefix("torch."))
    assert torch.equal(torch.from_dlpack(d), t)


def test_kernels_take_torch_tensors_and_dlpack_providers(gelu, rms, rng):
    x = rng.uniform(-3, 3, (4, 32)).astype(np.float16)
    s = rng.uniform(0.5, 1.5, 32).astype(np.float16)
    want = gelu(X=x)["Y"]
    np.testing.assert_array_equal(gelu(X=torch.from_numpy(x))["Y"], want)
    np.testing.assert_array_equal(gelu(X=OnlyDLPack(x))["Y"], want)
    # A transposed (non-contiguous) torch tensor: strides come through DLPack, copied once.
    xt = torch.from_numpy(np.ascontiguousarray(x.T)).T
    assert not xt.is_contiguous()
    np.testing.assert_array_equal(gelu(X=xt)["Y"], want)
    # Outputs go back to torch through DLPack without a copy.
    y = torch.from_dlpack(rms(x=torch.from_numpy(x), scale=torch.from_numpy(s), epsilon=1e-6)["y"])
    assert y.dtype == torch.float16 and tuple(y.shape) == (4, 32)
    np.testing.assert_array_equal(y.numpy(), rms(x=x, scale=s, epsilon=1e-6)["y"])


def test_device_chain_from_and_to_torch(rt, gelu):
    t = torch.linspace(-2, 2, 16, dtype=torch.float32).reshape(2, 8)
    yd = gelu(X=rt.from_dlpack(t))["Y"]
    assert isinstance(yd, wgk.DeviceTensor)
    np.testing.assert_array_equal(torch.from_dlpack(yd).numpy(), gelu(X=t.numpy())["Y"])


def test_bool_tensors(rt):
    b = np.array([[True, False, True]])
    np.testing.assert_array_equal(rt.upload(b).numpy(), b)
    np.testing.assert_array_equal(rt.from_dlpack(torch.from_numpy(b)).numpy(), b)  # numpy's DLPack lacks bool: __array__
