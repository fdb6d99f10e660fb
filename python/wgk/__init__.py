"""wgk: versioned WebGPU kernels, natively.

Load a kernel package and call it on numpy arrays, DLPack providers (torch tensors) or device
tensors; plan a call to see which variant it gets and why. The work is done by wgk's C++ runtime
(libwgk.so, inside this package) on Dawn: on a GPU through Vulkan, or on the CPU through lavapipe.

Example:
    >>> import numpy as np, wgk
    >>> rt = wgk.Runtime()
    >>> gelu = rt.load("webgpu-kernels/com.microsoft.FastGelu", version=1)
    >>> x = np.random.default_rng(0).standard_normal((4, 64)).astype(np.float16)
    >>> y = gelu(X=x, bias=np.zeros(64, np.float16))["Y"]          # numpy in, numpy out
    >>> rms = rt.load("webgpu-kernels/ai.onnx.RMSNormalization")
    >>> xd = rt.upload(x)                                          # chain on the device
    >>> zd = rms(x=gelu(X=xd)["Y"], scale=np.ones(64, np.float16), epsilon=1e-6)["y"]
    >>> z = zd.numpy()
    >>> rms.plan(x=xd, scale=("float16", (64,)))["variant"]

Errors are wgk.Error subclasses, one per error code (wgk.ContractError, wgk.NoVariantError, ...),
carrying .code, .message and .context. `python3 -m wgk` runs the wgk command's list, info, plan
and run. docs/python.md has the whole API.
"""

from ._wgk import (
    CallResult,
    DeviceTensor,
    Error,
    Kernel,
    Runtime,
    __version__,
)
from ._wgk import *  # noqa: F401,F403  (the wgk.Error subclasses, one per error code)
from . import _wgk

__all__ = ["Runtime", "Kernel", "DeviceTensor", "CallResult", "Error", "__version__"] + sorted(
    name for name in dir(_wgk) if name.endswith("Error") and name != "Error"
)
