"""Tensors over memory that other objects own: frombuffer (a Python buffer) and the DLPack
exchange (torch.from_dlpack, torch.utils.dlpack, Tensor.__dlpack__), through NumPy's own
DLPack support. The tensors share the memory, as PyTorch's do."""
import numpy as np

from . import _dtypes
from ._factories import from_numpy
from ._runtime import warn_once
from ._tensor import Tensor, make_leaf

_CPU = 1  # DLPack's device type of the CPU (kDLCPU)


def frombuffer(buffer, *, dtype=None, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor of `dtype` over `count` elements (all by default) of the buffer's
    memory from byte `offset`; a read-only buffer's memory is copied, with PyTorch's
    warning (PyTorch writes into it regardless)."""
    if dtype is None:
        raise TypeError('frombuffer() missing 1 required positional arguments: "dtype"')
    dtype = _dtypes.as_dtype(dtype)
    view = memoryview(buffer)
    length, size = view.nbytes, np.dtype(dtype.numpy).itemsize
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than "
                         f"buffer length ({length} bytes) minus 1")
    if count < 0:
        if (length - offset) % size:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} "
                             f"bytes) must be a multiple of element size ({size})")
        count = (length - offset) // size
    elif offset + count * size > length:
        raise ValueError(f"requested buffer length ({count} * {size} bytes) after offset "
                         f"({offset} bytes) must not be greater than actual buffer length "
                         f"({length} bytes)")
    data = np.frombuffer(view, dtype.numpy, count, offset)
    if view.readonly:
        warn_once("The given buffer is not writable, and PyTorch does not support non-writable "
                  "tensors. This means you can write to the underlying (supposedly "
                  "non-writable) buffer using the tensor. You may want to copy the buffer to "
                  "protect its data or make it writable before converting it to a tensor. This "
                  "type of warning will be suppressed for the rest of this program.",
                  stacklevel=2)
        data = data.copy()
    return make_leaf(data, requires_grad)


class _Capsule:
    """A bare DLPack capsule as NumPy's from_dlpack takes an exporter."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **options):
        return self.capsule

    def __dlpack_device__(self):
        return (_CPU, 0)


def from_dlpack(ext_tensor):
    """A tensor sharing the memory of `ext_tensor`: an object with ``__dlpack__`` (a NumPy
    array, a torch tensor, ...) or a DLPack capsule (which can be consumed once; one made
    by an unversioned exporter gives a read-only tensor, as NumPy imports it)."""
    exporter = ext_tensor if hasattr(ext_tensor, "__dlpack__") else _Capsule(ext_tensor)
    try:
        array = np.from_dlpack(exporter)
    except ValueError:
        raise RuntimeError("from_dlpack received an invalid capsule. Note that DLTensor "
                           "capsules can be consumed only once, so you might have already "
                           "constructed a tensor from it once.") from None
    return from_numpy(array)


def to_dlpack(tensor):
    """A DLPack capsule of the tensor's memory, for from_dlpack (in compat, PyTorch or any
    DLPack consumer); a versioned one, which imports writable."""
    return tensor._data.__dlpack__(max_version=(1, 0))


def _dlpack(self, **options):
    """The DLPack export of consumers that call it (from_dlpack); refused, as PyTorch
    refuses it, for a tensor that requires grad."""
    if self.requires_grad:
        raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
    return self._data.__dlpack__(**options)


def _dlpack_device(self):
    return (_CPU, 0)


def install_tensor_methods():
    Tensor.__dlpack__ = _dlpack
    Tensor.__dlpack_device__ = _dlpack_device


__all__ = ["frombuffer", "from_dlpack", "to_dlpack", "install_tensor_methods"]
