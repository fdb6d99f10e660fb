# Errors from Python: every row of the C++ error table (docs/runtime.md "Errors") as the wgk.Error
# subclass of its code, the binding's own argument errors, one class per wgk::ErrorCode, and the
# runtime still usable afterwards.
import numpy as np
import pytest

import wgk
from wgk import _reference

F32 = np.float32


def x28(dtype=F32):
    return np.ones((2, 8), dtype)


def rope_inputs(emb=np.float32, q_shape=(1, 2, 3, 4)):
    q = np.ones((1, 2, 3, 4), np.float16)
    return dict(embT=np.ones((1, 3, 4), emb), qT=np.ones(q_shape, np.float16), qRotT=q, kT=q, kRotT=q)


def raises(cls, fragment, fn):
    with pytest.raises(cls) as info:
        fn()
    e = info.value
    assert fragment in e.message, e.message
    assert str(e).startswith(e.message)
    assert len(set(e.context)) == len(e.context), f"context added twice: {e.context}"
    return e


# ---- the C++ table, row by row -------------------------------------------------------------
def test_missing_required_input(gelu):
    e = raises(wgk.ContractError, "missing required input 'X' (X)", lambda: gelu())
    assert e.code == "contract" and e.context == ("while planning com.microsoft.FastGelu",)
    assert "\n  while planning com.microsoft.FastGelu" in str(e)


def test_unknown_input_and_an_output_passed(gelu):
    raises(wgk.ContractError, "unknown input 'x' (inputs: X, bias)", lambda: gelu(x=x28()))
    raises(wgk.ContractError, "'Y' is an output", lambda: gelu(X=x28(), Y=x28()))


def test_wrong_dtypes(gelu, rope):
    raises(wgk.ContractError, "input 'X' has dtype int32, but type T allows only float32, float16",
           lambda: gelu(X=x28(np.int32)))
    raises(wgk.ContractError, "type T is bound to float16 by 'X' but to float32 by 'bias'",
           lambda: gelu(X=x28(np.float16), bias=np.ones(8, F32)))
    raises(wgk.ContractError, "input 'embT' must be float32 (args.embT.dtype), got float16",
           lambda: rope(**rope_inputs(emb=np.float16)))


def test_wrong_rank(rope):
    e = raises(wgk.ContractError, "input 'qT' must have rank 4", lambda: rope(**rope_inputs(q_shape=(1, 2, 4))))
    assert "got shape [1, 2, 4]" in e.message


def test_wrong_shape_names_the_failing_clause(gelu):
    e = raises(wgk.NoVariantError, "no variant of com.microsoft.FastGelu is eligible:",
               lambda: gelu(X=x28(), bias=np.ones(7, F32)))
    assert "`dim(shapes.bias, 0) == dim(shapes.X, ranks.X - 1)` is false (shapes.bias=[7], shapes.X=[2, 8]" in e.message
    for variant in ("vec4_bias", "scalar_bias", "f16_pairs_bias"):
        assert f"  {variant} (priority " in e.message


def test_attribute_errors(rms):
    x, s = x28(), np.ones(8, F32)
    raises(wgk.ContractError, "unknown attribute 'eps' (attributes: axis, epsilon, stash_type)",
           lambda: rms(x=x, scale=s, eps=1e-5))
    raises(wgk.ContractError, "attribute 'epsilon' must be a number", lambda: rms(x=x, scale=s, epsilon="x"))
    raises(wgk.ContractError, "attribute stash_type = 3 is outside attributeConstraints.stash_type.values [1, 10]",
           lambda: rms(x=x, scale=s, attrs={"stash_type": 3}))
    raises(wgk.ContractError, "attribute epsilon = -1 is below attributeConstraints.epsilon.min 0",
           lambda: rms(x=x, scale=s, epsilon=-1))


def test_tensor_larger_than_the_binding_limit(rt, gelu):
    limit = rt.device["limits"]["maxStorageBufferBindingSize"]
    big = np.broadcast_to(np.float16(0), (limit // 2 + 2,))  # no memory until wgk's one copy
    raises(wgk.ContractError, f"input 'X' has {limit + 4} bytes, more than the device's maxStorageBufferBindingSize ({limit})",
           lambda: gelu(X=big))


def test_forced_variants(gelu):
    raises(wgk.NoVariantError, "forced variant 'vec4_no_bias' is not eligible:",
           lambda: gelu(X=x28(), bias=np.ones(8, F32), variant="vec4_no_bias"))
    raises(wgk.InvalidArgumentError, "unknown variant 'nope' (variants: f16_pairs_bias,",
           lambda: gelu(X=x28(), variant="nope"))


def test_caller_given_outputs_of_the_wrong_shape_or_name(rt, gelu):
    raises(wgk.ContractError, "output buffer 'Y' is float32 [16]; the manifest derives float32 [2, 8] for these inputs",
           lambda: gelu(X=x28(), outputs={"Y": rt.allocate((16,), F32)}))
    raises(wgk.ContractError, "'Z' given as an output buffer is not an output of com.microsoft.FastGelu",
           lambda: gelu(X=x28(), outputs={"Z": rt.allocate((2, 8), F32)}))
    # (The table's rows about caller GPU tensors without a buffer, too small or misaligned cannot
    # arise from Python: a wgk.DeviceTensor is always a whole runtime allocation.)


def test_empty_tensors_are_valid(gelu):
    assert gelu(X=np.zeros((0, 8), F32))["Y"].shape == (0, 8)


# ---- loading ---------------------------------------------------------------------------------
def test_loading_errors(rt, tmp_path):
    raises(wgk.NotFoundError, "is not a kernel package", lambda: rt.load(tmp_path / "nothing"))
    raises(wgk.InvalidArgumentError, "--version/--revision apply only to repo ids",
           lambda: rt.load(rt.load("webgpu-kernels/com.microsoft.FastGelu").source["folder"], version=2))
    raises(wgk.InvalidArgumentError, "is not a commit: it must be exactly 40 hex digits",
           lambda: rt.load("webgpu-kernels/com.microsoft.FastGelu", revision="xyz"))
    raises(wgk.TrustError, "outside the trusted organisation", lambda: rt.load("evil/ai.onnx.Nope"))


def test_an_unknown_package_offline(tmp_path):
    offline = wgk.Runtime(offline=True, cache_dir=tmp_path)
    e = raises(wgk.Error, "webgpu-kernels/ai.onnx.Nope", lambda: offline.load("webgpu-kernels/ai.onnx.Nope"))
    assert e.code in ("not-found", "network")


# ---- the binding's own argument checks --------------------------------------------------------
def test_binding_argument_errors(rt, gelu):
    raises(wgk.InvalidArgumentError, "input 'X' is float64; wgk kernels take", lambda: gelu(X=np.ones((2, 8))))
    raises(wgk.InvalidArgumentError, 'placement must be "auto", "host" or "device"', lambda: gelu(X=x28(), placement="gpu"))
    raises(wgk.InvalidArgumentError, "attribute 'a' must be a bool, an int, a float, a string or a list",
           lambda: gelu(X=x28(), attrs={"a": object()}))
    raises(wgk.InvalidArgumentError, "'X' is given twice", lambda: gelu({"X": x28()}, X=x28()))
    raises(wgk.InvalidArgumentError, "outputs['Y'] must be a wgk.DeviceTensor", lambda: gelu(X=x28(), outputs={"Y": x28()}))
    raises(wgk.InvalidArgumentError, "variant must be a string", lambda: gelu(X=x28(), variant=3))
    other = wgk.Runtime()
    raises(wgk.InvalidArgumentError, "input 'X' is a device tensor of another wgk.Runtime",
           lambda: gelu(X=other.upload(x28())))
    raises(wgk.InvalidArgumentError, "outputs['Y'] is a device tensor of another wgk.Runtime",
           lambda: gelu(X=x28(), outputs={"Y": other.allocate((2, 8), F32)}))
    raises(wgk.InvalidArgumentError, "is not a dtype", lambda: rt.allocate((2,), "nope"))
    raises(wgk.InvalidArgumentError, "has a negative dimension", lambda: rt.allocate((2, -1), "float32"))
    raises(wgk.InvalidArgumentError, "has dtype complex64, which wgk does not take", lambda: gelu.plan(X=("complex64", (2,))))

    class OnAnotherDevice:
        def __dlpack__(self, stream=None):
            raise AssertionError("must not be exported")

        def __dlpack_device__(self):
            return (2, 0)  # kDLCUDA

    raises(wgk.InvalidArgumentError, "is on DLPack device type 2", lambda: gelu(X=OnAnotherDevice()))


def test_errors_are_also_builtin_exceptions(gelu):
    with pytest.raises(ValueError):
        gelu(X=x28(np.int32))
    with pytest.raises(ValueError):
        gelu(X=x28(), variant="nope")


# ---- one class per error code ------------------------------------------------------------------
def class_name(code):
    return "".join(part.capitalize() for part in code.split("-")) + "Error"


def test_every_error_code_has_a_class_with_code_message_and_context():
    codes = _reference.error_codes()
    assert len(codes) == 18 and codes[0] == "invalid-argument" and codes[-1] == "internal"
    for code in codes:
        cls = getattr(wgk, class_name(code))
        assert issubclass(cls, wgk.Error) and cls.__name__ == class_name(code) and cls.__doc__
        assert class_name(code) in wgk.__all__
        with pytest.raises(cls) as info:
            _reference.raise_error(code, f"something about {code}", ["in the inner part", "in the outer part"])
        e = info.value
        assert type(e) is cls
        assert (e.code, e.message, e.context) == (code, f"something about {code}", ("in the inner part", "in the outer part"))
        assert str(e) == f"something about {code}\n  in the inner part\n  in the outer part"
    assert sum(1 for name in wgk.__all__ if name.endswith("Error") and name != "Error") == len(codes)


def test_builtin_bases():
    assert issubclass(wgk.ContractError, ValueError) and issubclass(wgk.NoVariantError, ValueError)
    assert issubclass(wgk.InvalidArgumentError, ValueError) and issubclass(wgk.NotFoundError, LookupError)
    assert issubclass(wgk.IoError, OSError) and issubclass(wgk.OutOfMemoryError, MemoryError)
    assert issubclass(wgk.UnsupportedError, NotImplementedError) and not issubclass(wgk.GpuError, ValueError)


def test_the_runtime_is_usable_after_errors(rt, gelu):
    for _ in range(5):
        with pytest.raises(wgk.Error):
            gelu(X=x28(np.int32))
    stats = rt.cache_stats
    np.testing.assert_allclose(gelu(X=np.zeros((2, 8), F32))["Y"], 0)
    assert rt.cache_stats["pooled_buffers"] <= stats["pooled_buffers"] + 1
