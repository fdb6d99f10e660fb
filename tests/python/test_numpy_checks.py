# A few checks against numpy formulas written here from the op definitions (SPEC.md §6),
# independent of wgk's C++ references.
import numpy as np


def test_fast_gelu_float32_with_bias(gelu, rng):
    x = rng.uniform(-6, 6, (3, 40)).astype(np.float32)
    b = rng.uniform(-0.5, 0.5, 40).astype(np.float32)
    v = (x + b).astype(np.float64)
    want = 0.5 * v * (1 + np.tanh(0.7978845608 * v + 0.0356774081 * v**3))
    y = gelu(X=x, bias=b)["Y"]
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)


def test_fast_gelu_large_arguments_are_finite(gelu):
    x = np.array([[-1e4, -30.0, 30.0, 1e4]], np.float32)
    y = gelu(X=x)["Y"]
    assert np.all(np.isfinite(y))
    np.testing.assert_allclose(y, [[0.0, 0.0, 30.0, 1e4]], atol=1e-5)


def test_rms_normalization_float32_last_axis(rms, rng):
    x = rng.uniform(-3, 3, (5, 64)).astype(np.float32)
    scale = rng.uniform(0.5, 1.5, 64).astype(np.float32)
    v = x.astype(np.float64)
    want = v / np.sqrt(np.mean(v * v, axis=-1, keepdims=True) + 1e-6) * scale
    y = rms(x=x, scale=scale, epsilon=1e-6)["y"]
    np.testing.assert_allclose(y, want, rtol=2e-6, atol=1e-6)


def test_gemma_rotary_embedding_float16(rope, rng):
    b, h, s, d = 1, 2, 3, 8
    emb = rng.uniform(0, 6, (b, s, d)).astype(np.float32)
    q, q_rot, k, k_rot = (rng.uniform(-4, 4, (b, h, s, d)).astype(np.float16) for _ in range(4))
    # sin and cos of the float32 angles, each cast to float16; products rounded to float16 before
    # the float16 addition (numpy's float16 arithmetic rounds each operation).
    sin = np.sin(emb.astype(np.float64)).astype(np.float16)[:, None]
    cos = np.cos(emb.astype(np.float64)).astype(np.float16)[:, None]
    out = rope(embT=emb, qT=q, qRotT=q_rot, kT=k, kRotT=k_rot)
    for got, a, a_rot in ((out["output1T"], q, q_rot), (out["output2T"], k, k_rot)):
        want = (a * cos) + (a_rot * sin)
        assert got.dtype == np.float16 and got.shape == want.shape
        # The device's f32 sin/cos may differ from the correctly rounded value by an ulp of f32,
        # which can move the f16 cast by one ulp: allow one f16 ulp of the result's magnitude.
        np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), atol=8 * 2**-10, rtol=2**-9)
