"""torch.as_strided and its kin: a view of a tensor's storage with any sizes, strides and
storage offset (in elements), as PyTorch's.

A tensor's storage is the memory of the tensor it views (its `_base`, else itself), from
that tensor's first element to its last, or the `_layout.StorageMemory` that tensor keeps
(after as_strided_ moved it within its storage, or torch.load made it). The view's values are a NumPy view of that
memory, so writes through it show in the base and the other way round; its derivative is
PyTorch's AsStridedBackward0: the storage is built from the input's elements (an element
the input covers more than once shares the gradient out equally), and each element of the
view reads its position of that storage (windows that overlap add up their gradients).
"""
import numpy as np

import funcgrad.numpy as fnp

from . import _layout, _view_scatters
from ._grad_mode import STATE
from ._inplace import check_inplace, count_update, set_history
from ._record import check_tensor, engine, wrap
from ._tensor import Tensor, make
from ._view_modes import note_view


def _int_sequence(value, name, position):
    """`value` as a tuple of ints, with PyTorch's type errors for argument `name`."""
    if isinstance(value, (str, bool)) or not hasattr(value, "__iter__") \
            or isinstance(value, Tensor):
        raise TypeError(f"as_strided(): argument '{name}' (position {position}) must be tuple "
                        f"of ints, not {type(value).__name__}")
    items = tuple(value)
    for i, item in enumerate(items):
        if not hasattr(type(item), "__index__") or isinstance(item, bool):
            raise TypeError(f"as_strided(): argument '{name}' (position {position}) must be "
                            f"tuple of ints, but found element of type {type(item).__name__} "
                            f"at pos {i}")
    return tuple(int(item) for item in items)


def geometry(size, stride, storage_offset, first_position):
    """(size, stride, storage_offset) checked as PyTorch checks as_strided's arguments
    (storage_offset None stays None); `first_position` is the position torch's messages
    give `size` (2 for torch.as_strided, 1 for the method)."""
    size = _int_sequence(size, "size", first_position)
    stride = _int_sequence(stride, "stride", first_position + 1)
    if storage_offset is not None and (not hasattr(type(storage_offset), "__index__")
                                       or isinstance(storage_offset, bool)):
        raise TypeError(f"as_strided(): argument 'storage_offset' (position "
                        f"{first_position + 2}) must be int, not {type(storage_offset).__name__}")
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(step < 0 for step in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, "
                           f"got strides: {list(stride)}")
    if storage_offset is not None and storage_offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {storage_offset}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    return size, stride, None if storage_offset is None else int(storage_offset)


def storage(t):
    """The memory of tensor `t`'s storage as a one-dimensional array (a view of it)."""
    return _layout.storage_memory((t if t._base is None else t._base)._data)


def strided_view(memory, size, stride, offset):
    """The NumPy view of the one-dimensional `memory` with `size`, `stride` and `offset` in
    elements (its NumPy base `memory`), after PyTorch's check that it lies within."""
    itemsize = memory.itemsize
    needed = 0 if 0 in size else offset + 1 + sum((n - 1) * step
                                                  for n, step in zip(size, stride))
    if needed > memory.size:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage "
                           f"offset {offset}, and itemsize {itemsize} requiring a storage size "
                           f"of {needed * itemsize} are out of bounds for storage of size "
                           f"{memory.size * itemsize}")
    return _layout.window(memory, size, stride, offset)


def _read_from_storage(input, memory, view):
    """`view`'s values (a view of `memory`, input's storage) computed from input's
    recorded values: AsStridedBackward0's derivative (see the module docstring)."""
    positions = _layout.positions_in(input._data, memory).ravel()
    covers = np.bincount(positions, minlength=memory.size)
    summed = fnp.at(np.zeros(memory.shape, memory.dtype))[positions].add(
        fnp.reshape(engine(input), (-1,)))
    shares = np.maximum(covers, 1).astype(memory.dtype)
    values = fnp.where(covers > 0, summed / shares, np.array(memory))
    out = fnp.getitem(values, _layout.positions_in(view, memory))
    out.value = view
    return out


def as_strided(input, size, stride, storage_offset=None):
    """A view of input's storage with `size` and `stride` from element `storage_offset`
    (input's own storage offset if None)."""
    return _viewed(input, geometry(size, stride, storage_offset, 2))


def as_strided_method(self, size, stride, storage_offset=None):
    """Tensor.as_strided (torch's messages count its arguments after self)."""
    return _viewed(self, geometry(size, stride, storage_offset, 1))


def _viewed(input, checked, memory=None):
    """The view of input's storage (`memory`, if given, else found) of the `checked`
    geometry."""
    check_tensor(input, "as_strided")
    size, stride, offset = checked
    memory = storage(input) if memory is None else memory
    if offset is None:
        offset = input.storage_offset()
    view = strided_view(memory, size, stride, offset)
    base = input if input._base is None else input._base
    if input._box is None or not STATE.enabled:
        t = make(view, None, base._version_counter, base)
        note_view(input, t)
        return t
    return wrap(_read_from_storage(input, memory, view), "AsStridedBackward0", (input,),
                view_of=base)


def as_strided_(self, size, stride, storage_offset=None):
    """Tensor.as_strided_: the tensor itself takes the view's sizes, strides and offset
    (its history PyTorch's AsStridedBackward1). A tensor that is no view keeps its storage
    as its array's NumPy base (`_layout.StorageMemory`), where its array may now start
    anywhere."""
    recording = STATE.enabled and self._box is not None
    check_inplace(self, recording)
    memory = storage(self)
    if self._base is None and type(memory) is not _layout.StorageMemory:
        memory = memory.view(_layout.StorageMemory)
    result = _viewed(self, geometry(size, stride, storage_offset, 1), memory)
    self._data = result._data
    if recording:
        result._box.node.label = "AsStridedBackward1"
        set_history(self, result._box.node)
    count_update(self)
    return self


def as_strided_scatter(input, src, size, stride, storage_offset=None):
    """input's copy (laid out as PyTorch's clone lays it out) with `src` written where
    ``copy.as_strided(size, stride, storage_offset)`` would view it. As PyTorch, the
    geometry is checked against input's storage and the offset counted from input's own."""
    check_tensor(input, "as_strided_scatter")
    check_tensor(src, "as_strided_scatter")
    size, stride, offset = geometry(size, stride, storage_offset, 3)
    if input._box is not None and STATE.enabled and not input._data.flags.c_contiguous:
        raise RuntimeError("as_strided_scatter is currently only supported for contiguous "
                           "inputs")
    own_offset = input.storage_offset()
    offset = own_offset if offset is None else offset
    strided_view(storage(input), size, stride, offset)
    if offset < own_offset:  # (PyTorch writes outside the copy)
        raise RuntimeError(f"compat: as_strided_scatter's storage_offset {offset} lies before "
                           f"the input's own ({own_offset}), outside its copy")
    data = input._data
    numbers = np.empty_like(data, np.intp, order=_layout.clone_order(data))
    numbers[...] = np.arange(data.size).reshape(data.shape)  # each element's row-major number
    memory = _layout.storage_memory(numbers)
    positions = strided_view(memory, size, stride, offset - own_offset)
    out = _view_scatters.written(engine(input), engine(src), positions)
    order = _layout.order_of_dimensions(numbers)
    return wrap(_layout.relaid(out, lambda raw: _layout.laid_out(raw, order)),
                "AsStridedScatterBackward0", (input, src))
