"""The Tensor methods about a tensor's memory: resize_ and resize_as_ (a new shape over the
same storage, grown where it is too short), share_memory_ and is_shared, pin_memory, and
dim_order (the dimensions from the outermost in memory to the innermost).

compat's storage is the NumPy array owning a tensor's memory (`_layout.memory_owner`).
"""
import weakref

import numpy as np

from ._factories import shape_argument
from ._layout import memory_owner, order_of_dimensions
from ._tensor import Tensor, require_tensor

# The tensors share_memory_ was called on, by id (compat's memory is the process's own: the
# call only marks them, as is_shared reports). By id: a tensor's == compares elements.
_SHARED = weakref.WeakValueDictionary()


def _sizes(args):
    """resize_'s shape, given as ints or as one sequence of ints."""
    if not args:
        raise TypeError('resize_() missing 1 required positional arguments: "size"')
    shape = shape_argument(args, "resize_")
    if any(n < 0 for n in shape):  # (PyTorch's check of the number of elements says so)
        raise RuntimeError("numel: integer multiplication overflow")
    return shape


def _storage_and_offset(array):
    """The flat array of the memory `array` views, and the element where `array` starts."""
    owner = memory_owner(array)
    flat = owner.reshape(-1) if owner.flags.c_contiguous else np.ascontiguousarray(owner).ravel()
    start = array.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    return flat, start // array.itemsize


def _resized(t, shape):
    """t's storage from its offset, as a row-major array of `shape`: the storage itself
    where it is long enough, else a longer copy of it whose new elements are
    uninitialized (other tensors viewing the old storage keep it)."""
    if t._data.shape == shape:  # PyTorch keeps the strides
        return t._data
    storage, start = _storage_and_offset(t._data)
    needed = start + int(np.prod(shape, dtype=np.int64))
    if needed > storage.size:
        grown = np.empty(needed, storage.dtype)
        grown[:storage.size] = storage
        storage = grown
    return storage[start:needed].reshape(shape)


def resize_(self, *sizes, memory_format=None):
    """This tensor with shape `sizes`, row-major over its storage from its offset (the
    elements beyond the old storage uninitialized); refused for tensors that require grad."""
    shape = _sizes(sizes)
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    self._data = _resized(self, shape)
    return self


def resize_as_(self, the_template, memory_format=None):
    """resize_ to the shape of `the_template`."""
    require_tensor(the_template, "resize_as_", "the_template", 1)
    return resize_(self, the_template.shape, memory_format=memory_format)


def share_memory_(self):
    """This tensor, marked as shared (compat's memory is always the process's own)."""
    _SHARED[id(self)] = self
    return self


def is_shared(self):
    """Whether share_memory_ was called on this tensor or on the tensor it views."""
    return any(t is not None and _SHARED.get(id(t)) is t for t in (self, self._base))


def pin_memory(self, device=None):
    """PyTorch's error without an accelerator (pinned memory is for copies to one)."""
    raise RuntimeError("Cannot access accelerator device when none is available.")


def dim_order(self, *, ambiguity_check=False):
    """The dimensions from the outermost in memory to the innermost. With
    `ambiguity_check`, refused where the order is not unique: a dimension of size 1,
    neighbours of the same stride, or (of a tensor not row-major) a stride 0."""
    if not isinstance(ambiguity_check, bool):
        raise TypeError("compat: dim_order's ambiguity_check takes a bool (compat has no "
                        "memory formats to check against)")
    sizes, strides = self._data.shape, self._data.strides
    if ambiguity_check and (1 in sizes or any(a == b for a, b in zip(strides, strides[1:]))):
        raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact "
                           "one of the given memory formats.")
    if ambiguity_check and 0 in strides and not self._data.flags.c_contiguous:
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(order_of_dimensions(self._data))


def install_tensor_methods():
    Tensor.resize_ = resize_
    Tensor.resize_as_ = resize_as_
    Tensor.share_memory_ = share_memory_
    Tensor.is_shared = is_shared
    Tensor.pin_memory = pin_memory
    Tensor.dim_order = dim_order
