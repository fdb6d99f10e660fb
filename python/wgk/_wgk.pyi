# Type stubs of wgk._wgk (the extension module; import wgk). docs/python.md describes the API.
# Generated from the built module by tools/stubgen/wgk_stubgen.py (each binding's docstring begins
# with its signature); tests/python/test_stubs.py fails when this file differs from what it writes.
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

# A tensor argument: a numpy array (any strides, byte order), a CPU torch tensor or other DLPack
# provider, a Python number or list of numbers (float32 / int32 / bool), or a device tensor. For
# planning also (dtype, shape).
TensorLike = Union[npt.ArrayLike, "DeviceTensor", Any]
DTypeLike = Union[str, np.dtype, type]
TensorSpec = Union[TensorLike, Tuple[DTypeLike, Sequence[int]]]
AttributeValue = Union[bool, int, float, str, Sequence[int], Sequence[float]]
# numpy arrays for numpy inputs, torch.Tensor (CPU) when an input was one, or device tensors.
Output = Union[np.ndarray, "DeviceTensor", Any]

class Error(Exception):
    """The one error type of wgk: every failure is an instance of a subclass."""
    code: str
    message: str
    context: Tuple[str, ...]
class InvalidArgumentError(Error, ValueError): ...
class ParseError(Error): ...
class ExpressionError(Error): ...
class TemplateError(Error): ...
class ManifestError(Error): ...
class ContractError(Error, ValueError): ...
class NoVariantError(Error, ValueError): ...
class IoError(Error, OSError): ...
class IntegrityError(Error): ...
class NetworkError(Error, OSError): ...
class NotFoundError(Error, LookupError): ...
class TrustError(Error): ...
class SetupError(Error): ...
class GpuError(Error): ...
class OutOfMemoryError(Error, MemoryError): ...
class DeviceLostError(Error): ...
class UnsupportedError(Error, NotImplementedError): ...
class InternalError(Error): ...

class DeviceTensor:
    """A tensor in GPU memory, from Runtime.upload, Runtime.allocate or a kernel call with device outputs."""
    @property
    def shape(self) -> Tuple[int, ...]: ...
    @property
    def dtype(self) -> np.dtype: ...
    @property
    def ndim(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    def numpy(self) -> np.ndarray: ...
    def __array__(self, dtype: Optional[DTypeLike] = None, copy: Optional[bool] = None) -> np.ndarray: ...
    def __dlpack__(self, *, stream: None = None) -> Any: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...
    def __len__(self) -> int: ...

class CallResult:
    """What Kernel.call returns: the outputs and how the call ran."""
    @property
    def outputs(self) -> Dict[str, Output]: ...
    @property
    def variant(self) -> str: ...
    @property
    def selected_by(self) -> str: ...
    @property
    def timings(self) -> Dict[str, Optional[float]]: ...
    @property
    def passes(self) -> List[Dict[str, Any]]: ...

class Kernel:
    """A loaded kernel package (Runtime.load)."""
    def __call__(
        self,
        inputs: Optional[Mapping[str, TensorLike]] = None,
        /,
        *,
        attrs: Optional[Mapping[str, AttributeValue]] = None,
        args: Optional[Mapping[str, AttributeValue]] = None,
        variant: Optional[str] = None,
        placement: str = "auto",
        outputs: Optional[Mapping[str, DeviceTensor]] = None,
        **tensors_and_attributes: Any,
    ) -> Dict[str, Output]: ...
    def call(
        self,
        inputs: Optional[Mapping[str, TensorLike]] = None,
        /,
        *,
        attrs: Optional[Mapping[str, AttributeValue]] = None,
        args: Optional[Mapping[str, AttributeValue]] = None,
        variant: Optional[str] = None,
        placement: str = "auto",
        outputs: Optional[Mapping[str, DeviceTensor]] = None,
        timestamps: bool = False,
        **tensors_and_attributes: Any,
    ) -> CallResult: ...
    def plan(
        self,
        inputs: Optional[Mapping[str, TensorSpec]] = None,
        /,
        *,
        attrs: Optional[Mapping[str, AttributeValue]] = None,
        args: Optional[Mapping[str, AttributeValue]] = None,
        variant: Optional[str] = None,
        device: Union[None, Mapping[str, Any], str, os.PathLike] = None,
        wgsl: bool = False,
        **tensors_and_attributes: Any,
    ) -> Dict[str, Any]: ...
    @property
    def source(self) -> Dict[str, str]: ...
    @property
    def signature(self) -> Dict[str, Any]: ...
    @property
    def op(self) -> str: ...
    @property
    def inputs(self) -> List[str]: ...
    @property
    def outputs(self) -> List[str]: ...
    @property
    def args(self) -> Dict[str, str]: ...
    @property
    def attributes(self) -> Dict[str, Any]: ...

class Runtime:
    """A WebGPU device (Dawn on Vulkan; lavapipe without a GPU) with wgk's caches."""
    def __init__(
        self,
        *,
        packages_dir: Union[None, str, os.PathLike] = None,
        cache_dir: Union[None, str, os.PathLike] = None,
        endpoint: Optional[str] = None,
        lock_file: Union[None, str, os.PathLike] = None,
        tuning_file: Union[None, str, os.PathLike] = None,
        offline: bool = False,
        trust_remote_code: bool = False,
    ) -> None: ...
    def plan(
        self,
        repo_or_path: Union[str, os.PathLike],
        inputs: Optional[Mapping[str, TensorSpec]] = None,
        /,
        *,
        version: Optional[int] = None,
        revision: Optional[str] = None,
        attrs: Optional[Mapping[str, AttributeValue]] = None,
        args: Optional[Mapping[str, AttributeValue]] = None,
        variant: Optional[str] = None,
        device: Union[None, Mapping[str, Any], str, os.PathLike] = None,
        wgsl: bool = False,
        **tensors_and_attributes: Any,
    ) -> Dict[str, Any]: ...
    @property
    def device(self) -> Dict[str, Any]: ...
    @property
    def cache_stats(self) -> Dict[str, int]: ...
    def wait_idle(self) -> None: ...
    def load(
        self,
        repo_or_path: Union[str, os.PathLike],
        *,
        version: Optional[int] = None,
        revision: Optional[str] = None,
    ) -> Kernel: ...
    def upload(self, array: TensorLike) -> DeviceTensor: ...
    def from_dlpack(self, tensor: Any) -> DeviceTensor: ...
    def allocate(self, shape: Sequence[int], dtype: DTypeLike) -> DeviceTensor: ...
    def batch(self) -> Batch: ...
    def capture(self, fn: Callable[[Batch], Any]) -> Graph: ...

class Batch:
    """Kernel calls recorded into one command buffer and submitted together (Runtime.batch)."""
    def __call__(
        self,
        kernel: Kernel,
        inputs: Optional[Mapping[str, TensorLike]] = None,
        /,
        *,
        attrs: Optional[Mapping[str, AttributeValue]] = None,
        args: Optional[Mapping[str, AttributeValue]] = None,
        variant: Optional[str] = None,
        outputs: Optional[Mapping[str, DeviceTensor]] = None,
        **tensors_and_attributes: Any,
    ) -> Dict[str, DeviceTensor]: ...
    def submit(self) -> None: ...
    def __len__(self) -> int: ...
    def __enter__(self) -> Batch: ...
    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool: ...

class Graph:
    """Calls captured once (Runtime.capture) and replayed with new input data: each replay re-submits the recorded commands without planning or allocating."""
    def replay(self, inputs: Optional[Mapping[str, TensorLike]] = None, /, **tensors: TensorLike) -> Any: ...
    @property
    def inputs(self) -> Dict[str, Tuple[str, Tuple[int, ...]]]: ...
    @property
    def outputs(self) -> Any: ...
    @property
    def calls(self) -> int: ...
    @property
    def dispatches(self) -> int: ...

class Generation:
    """What Gemma.generate returns: tokens, logits, timings."""
    @property
    def tokens(self) -> List[int]: ...
    @property
    def logits(self) -> Optional[np.ndarray]: ...
    @property
    def prefill_ms(self) -> float: ...
    @property
    def token_ms(self) -> List[float]: ...

class Gemma:
    """A Gemma checkpoint (Hugging Face layout: config.json and model.safetensors or shards with model.safetensors.index.json) on wgk's kernels: greedy decoding, one graph replay per new token."""
    @staticmethod
    def load(
        model_dir: Union[str, os.PathLike],
        *,
        runtime: Optional[Runtime] = None,
        max_length: int = 0,
        prefill_block: int = 0,
        capture_graph: bool = True,
    ) -> Gemma: ...
    def generate(
        self,
        prompt: Sequence[int],
        *,
        max_new: int = 32,
        stop: Sequence[int] = (),
        return_logits: bool = False,
        readback_every: int = 8,
    ) -> Generation: ...
    @property
    def config(self) -> Dict[str, Any]: ...
    @property
    def max_length(self) -> int: ...
    @property
    def decode_calls(self) -> int: ...
