# Device tensors: upload, download, chaining kernels on the device without a readback, placement,
# caller-given outputs.
import numpy as np
import pytest

import wgk


def test_upload_and_download(rt, rng):
    x = rng.standard_normal((4, 6)).astype(np.float32)
    xd = rt.upload(x)
    assert isinstance(xd, wgk.DeviceTensor)
    assert xd.shape == (4, 6) and xd.dtype == np.float32
    assert (xd.ndim, xd.size, xd.nbytes, len(xd)) == (2, 24, 96, 4)
    assert repr(xd) == "wgk.DeviceTensor(shape=(4, 6), dtype=float32)"
    np.testing.assert_array_equal(xd.numpy(), x)
    np.testing.assert_array_equal(np.asarray(xd), x)
    assert np.asarray(xd, dtype=np.float64).dtype == np.float64


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int32, np.uint32, np.int8, np.uint8, np.int16, np.int64, np.bool_])
def test_every_dtype_round_trips(rt, rng, dtype):
    x = (rng.standard_normal((3, 5)) * 50).astype(dtype)
    back = rt.upload(x).numpy()
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, x)


def test_empty_and_scalar_tensors(rt):
    assert rt.upload(np.zeros((0, 3), np.float16)).numpy().shape == (0, 3)
    s = rt.upload(np.float32(2.5))
    assert s.shape == () and s.numpy() == np.float32(2.5)
    with pytest.raises(TypeError):
        len(s)


def test_any_strides_and_byte_order(gelu, rng):
    x = rng.standard_normal((6, 16)).astype(np.float32)
    want = gelu(X=np.ascontiguousarray(x[:, ::2]))["Y"]
    np.testing.assert_array_equal(gelu(X=x[:, ::2])["Y"], want)  # strided view
    np.testing.assert_array_equal(gelu(X=np.asfortranarray(x[:, ::2]))["Y"], want)
    np.testing.assert_array_equal(gelu(X=x[:, ::2].astype(">f4"))["Y"], want)  # big-endian
    np.testing.assert_array_equal(gelu(X=x[::-1][::-1, ::2])["Y"], want)  # negative strides
    np.testing.assert_array_equal(gelu(X=np.broadcast_to(x[:1, ::2], (6, 8)))["Y"][0], want[0])  # zero strides


def test_chaining_on_the_device_matches_the_host_path(rt, gelu, rms, rng):
    x = rng.uniform(-3, 3, (4, 64)).astype(np.float16)
    b = rng.uniform(-0.5, 0.5, 64).astype(np.float16)
    s = rng.uniform(0.5, 1.5, 64).astype(np.float16)
    host = rms(x=gelu(X=x, bias=b)["Y"], scale=s, epsilon=1e-6)["y"]

    xd = rt.upload(x)
    r1 = gelu.call(X=xd, bias=b)  # a device input: device outputs, nothing read back
    yd = r1.outputs["Y"]
    assert isinstance(yd, wgk.DeviceTensor) and yd.shape == (4, 64) and yd.dtype == np.float16
    r2 = rms.call(x=yd, scale=s, epsilon=1e-6)
    zd = r2.outputs["y"]
    assert isinstance(zd, wgk.DeviceTensor)
    np.testing.assert_array_equal(zd.numpy(), host)  # same kernels, same variants: bit-identical
    assert r1.variant and r2.selected_by in ("priority", "forced", "tuning")


def test_placement(rt, gelu):
    x = np.ones((2, 8), np.float32)
    assert isinstance(gelu(X=x, placement="device")["Y"], wgk.DeviceTensor)
    assert isinstance(gelu(X=rt.upload(x), placement="host")["Y"], np.ndarray)
    assert isinstance(gelu(X=rt.upload(x))["Y"], wgk.DeviceTensor)  # auto
    assert isinstance(gelu(X=x)["Y"], np.ndarray)


def test_caller_given_outputs(rt, gelu):
    x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
    out = rt.allocate((2, 8), "float32")
    result = gelu(X=x, outputs={"Y": out})
    assert result["Y"] is out
    np.testing.assert_array_equal(out.numpy(), gelu(X=x)["Y"])


def test_timestamps_measure_gpu_time(gelu):
    r = gelu.call(X=np.ones((2, 8), np.float32), timestamps=True)
    assert r.timings["gpu_us"] is not None and r.timings["gpu_us"] >= 0
    assert gelu.call(X=np.ones((2, 8), np.float32)).timings["gpu_us"] is None


def test_timestamps_split_by_pass(rt):
    softmax = rt.load("webgpu-kernels/ai.onnx.Softmax")
    r = softmax.call(x=np.ones((2, 65536), np.float32), timestamps=True)
    assert r.variant == "longrow_split"
    assert [p["id"] for p in r.passes] == ["block_stats", "row_stats", "normalize"]
    assert all(p["gpu_us"] >= 0 and not p["skipped"] for p in r.passes)
    assert sum(p["gpu_us"] for p in r.passes) == r.timings["gpu_us"]
    assert softmax.call(x=np.ones((2, 65536), np.float32)).passes == []


def test_device_tensors_keep_the_runtime_alive(rng):
    x = rng.standard_normal((2, 8)).astype(np.float32)
    rt = wgk.Runtime()
    k = rt.load("webgpu-kernels/com.microsoft.FastGelu")
    yd = k(X=rt.upload(x))["Y"]
    del rt, k
    assert yd.numpy().shape == (2, 8)
