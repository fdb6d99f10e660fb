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

The short path, like Hugging Face's `kernels`: `wgk.get_kernel(repo_id, version=1)` loads into one
runtime shared by the process (wgk.default_runtime()). torch tensors in give torch tensors out.

    >>> gelu = wgk.get_kernel("webgpu-kernels/com.microsoft.FastGelu", version=1)
    >>> y = gelu(X=torch.randn(4, 64, dtype=torch.float16))["Y"]   # a torch.Tensor

Many calls, one submission, and captured calls replayed:

    >>> with rt.batch() as b:                                      # submits on exit
    ...     y = b(gelu, X=x, bias=np.zeros(64, np.float16))["Y"]   # a wgk.DeviceTensor
    >>> g = rt.capture(lambda b: b(gelu, X=xd)["Y"])
    >>> g.replay(X=x).numpy()

Errors are wgk.Error subclasses, one per error code (wgk.ContractError, wgk.NoVariantError, ...),
carrying .code, .message and .context. `python3 -m wgk` runs the wgk command's list, info, plan
and run. docs/python.md has the whole API.
"""

import threading as _threading
from typing import Optional as _Optional

from ._wgk import (
    Batch,
    CallResult,
    DeviceTensor,
    Error,
    Gemma,
    Generation,
    Graph,
    Kernel,
    Runtime,
    __version__,
)
from ._wgk import *  # noqa: F401,F403  (the wgk.Error subclasses, one per error code)
from . import _wgk

_default: _Optional[Runtime] = None
_default_lock = _threading.Lock()


def default_runtime() -> Runtime:
    """The runtime get_kernel loads into: one per process, created on first use with the default
    options (so WGK_OFFLINE, WGK_CACHE, ... apply). Use it for batches and graphs of those kernels.

    Example:
        >>> gelu = wgk.get_kernel("webgpu-kernels/com.microsoft.FastGelu", version=1)
        >>> with wgk.default_runtime().batch() as b:
        ...     y = b(gelu, X=x)["Y"]
    """
    global _default
    with _default_lock:  # two threads' first calls must not make two devices
        if _default is None:
            _default = Runtime()
        return _default


def get_kernel(repo_id: str, *, version: _Optional[int] = None, revision: _Optional[str] = None) -> Kernel:
    """Loads a kernel package into the process's shared runtime (default_runtime()): the short path,
    as Hugging Face's `kernels.get_kernel`. Runtime.load takes the same arguments.

    Args:
        repo_id: "webgpu-kernels/<domain>.<Op>" (embedded, cached or downloaded) or a package folder.
        version: the contract version N (follows branch vN; default 1).
        revision: a 40-hex commit that pins exact bytes.

    Example:
        >>> gelu = wgk.get_kernel("webgpu-kernels/com.microsoft.FastGelu", version=1)
        >>> gelu(X=np.ones((2, 8), np.float16))["Y"].dtype
        dtype('float16')
    """
    return default_runtime().load(repo_id, version=version, revision=revision)


__all__ = [
    "Runtime",
    "Kernel",
    "DeviceTensor",
    "CallResult",
    "Batch",
    "Graph",
    "Gemma",
    "Generation",
    "Error",
    "get_kernel",
    "default_runtime",
    "__version__",
] + sorted(name for name in dir(_wgk) if name.endswith("Error") and name != "Error")
