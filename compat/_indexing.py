"""Indexing: ``t[index]`` (views for basic indices, recorded one step per index as PyTorch
does) and ``t[index] = value`` (an in-place update)."""
import math
import numbers
import warnings

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import unbox_all

from . import _dtypes
from ._grad_mode import STATE
from ._inplace import (SHARED_ELEMENTS, alias_of, assign, check_inplace, copy_all_,
                       fill_with_wrapped_number_, placed_at, refuse_shared_selection,
                       warn_if_expanded, write)
from ._ops import expanded_shape
from ._record import alias, engine, operand, wrap, wrap_view
from ._tensor import Tensor

_BASIC = (numbers.Integral, slice, type(None), type(Ellipsis))
_BASIC_TYPES = (int, slice, type(None), type(Ellipsis))
_MASK_DTYPES = (np.bool_, np.uint8)


def _as_index(index):
    """`index`, a list read as a tuple where PyTorch (and NumPy before 1.23) reads it so: a
    list of fewer than 32 items holding a sequence, a tensor, a slice, None or Ellipsis
    (``x[[[0, 1], [1, 0]]]`` is ``x[[0, 1], [1, 0]]``), with PyTorch's warning."""
    if type(index) is list and len(index) < 32 and any(
            isinstance(item, (list, tuple, Tensor, np.ndarray, slice)) or item is None
            or item is Ellipsis for item in index):
        warnings.warn(_NON_TUPLE_SEQUENCE, UserWarning, stacklevel=3)
        return tuple(index)
    return index


_NON_TUPLE_SEQUENCE = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be "
    "changed in pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will "
    "be interpreted as tensor index, x[torch.tensor(seq)], which will result either in an "
    "error or a different result")


def _index_parts(index):
    """The index as a tuple, with tensors as NumPy arrays (0-d integer tensors as ints)."""
    parts = index if isinstance(index, tuple) else (index,)
    converted = []
    for part in parts:
        if isinstance(part, Tensor):
            if part._data.dtype == np.uint8:
                warn_of_byte_index(stacklevel=3)
            data = _index_array(part._data)
            part = int(data) if data.ndim == 0 and data.dtype.kind in "iu" else data
        elif isinstance(part, bool):
            part = np.asarray(part)
        elif isinstance(part, numbers.Integral):
            part = int(part)
        elif isinstance(part, str):  # PyTorch tries to make a tensor of it
            raise TypeError(f"new(): invalid data type '{type(part).__name__}'")
        elif isinstance(part, numbers.Real):
            raise IndexError(f"only integers, slices (`:`), ellipsis (`...`), None and long or "
                             f"byte Variables are valid indices (got {type(part).__name__})")
        converted.append(part)
    return tuple(converted)


def _index_array(data):
    """An index tensor's array, checked as PyTorch does: integers or a mask (a uint8 tensor
    is a mask, as PyTorch still reads it: see `warn_of_byte_index`)."""
    if data.dtype not in (np.int64, np.int32, np.uint8, np.bool_):
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return data.astype(np.bool_) if data.dtype == np.uint8 else data


def warn_of_byte_index(stacklevel):
    """PyTorch's deprecation warning for a uint8 index tensor, given at the caller
    `stacklevel` frames up from the one calling this."""
    warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype "
                  "torch.bool instead.", UserWarning, stacklevel=stacklevel + 1)


def _is_basic(parts):
    return all(isinstance(p, _BASIC) for p in parts)


def _index_tensors(index):
    parts = index if isinstance(index, tuple) else (index,)
    return tuple(p for p in parts if isinstance(p, Tensor))


def getitem(input, index):
    """``input[index]`` for ints, slices, None, Ellipsis, lists and integer/bool tensors.
    Basic indexing gives views, recorded one step per index as PyTorch does."""
    index = _as_index(index)
    parts = _index_parts(index)
    if input._data.ndim == 0 and len(parts) == 1 and type(parts[0]) is int and parts[0] in (0, -1):
        return _legacy_scalar_index(input)
    if _is_basic(parts):
        return _basic_index(input, parts)
    if any(np.asarray(p).dtype == np.bool_ for p in parts if type(p) not in _BASIC_TYPES):
        _check_index(input._data.shape, parts)  # NumPy takes some masks PyTorch refuses
    basic, advanced = _split_index(parts)
    try:
        selected = input if _selects_all(basic) else _basic_index(input, basic)
        out = fnp.getitem(engine(selected), advanced)
    except IndexError:  # PyTorch's error instead (its words, its order of checks)
        if not _check_arrays(*_check_index(input._data.shape, parts)):
            raise
        # an empty selection whose indices are out of range: PyTorch reads none of them
        out = fnp.getitem(engine(selected), _zero_indices(advanced))
    return wrap(out, "IndexBackward0", (selected,), others=_index_tensors(index))


def _split_index(parts):
    """PyTorch applies ints, slices and None first, then the integer and boolean arrays to
    the resulting view: the basic part, and the array part for that view."""
    basic, advanced = [], []
    for part in parts:
        if isinstance(part, _BASIC):
            basic.append(part)
            if part is Ellipsis:
                advanced.append(Ellipsis)
            elif not isinstance(part, numbers.Integral):
                advanced.append(slice(None))
        else:
            basic.append(slice(None))
            advanced.append(part)
    return tuple(basic), tuple(advanced)


def _check_index(shape, parts):
    """PyTorch's errors for an index of a tensor of `shape`, in its order: too many
    indices; ints out of range and negative steps (an int numbered by its position in the
    index); masks of another shape than the part of the tensor they cover once ints,
    slices and None have been applied. Returns that tensor's shape and the index arrays,
    each with the dimension of it where it starts, for `_check_arrays`."""
    # _index_parts made every int an int and every array an ndarray or a list
    if len(parts) == 1:  # x[i] or x[mask], the common cases, quickly (~3 us)
        part = parts[0]
        if type(part) is int and shape:
            _check_int(part, shape[0], 0)
            return list(shape[1:]), []
        if type(part) is np.ndarray and part.dtype == np.bool_ and part.shape == shape:
            return list(shape), [(part, 0)]
    arrays = [np.asarray(p) for p in parts if type(p) not in _BASIC_TYPES]
    if sum(1 for p in parts if p is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    ndim = len(shape)
    consumed = sum(1 for p in parts if type(p) is int or type(p) is slice) + sum(
        _width(a) for a in arrays)
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    dim, view, starts = 0, [], []
    for position, part in enumerate(parts):
        if part is Ellipsis:
            view.extend(shape[dim:dim + ndim - consumed])
            dim += ndim - consumed
        elif part is None:
            view.append(1)
        elif type(part) is int:
            _check_int(part, shape[dim], position)
            dim += 1
        elif type(part) is slice:
            _check_step(part)
            view.append(len(range(*part.indices(shape[dim]))))
            dim += 1
        else:
            width = _width(arrays[len(starts)])
            starts.append(len(view))
            view.extend(shape[dim:dim + width])
            dim += width
    view.extend(shape[dim:])
    for array, start in zip(arrays, starts):
        if array.dtype == np.bool_:
            _check_mask(array.shape, view, start)
    return view, list(zip(arrays, starts))


def _width(array):
    """How many dimensions an index array covers: a mask its own, an integer array one."""
    return array.ndim if array.dtype == np.bool_ else 1


def _check_arrays(view, arrays):
    """PyTorch's errors for the index arrays (`view` and `arrays` as `_check_index`
    returns them): arrays that do not broadcast together; an integer out of range (the
    array numbered among the index arrays), for a dimension of length 0 always, else only
    where the selection has elements (PyTorch's kernel reads no index of an empty one).
    Returns whether the index is such an empty selection, out of range."""
    out_of_range = None
    for number, (array, start) in enumerate(arrays):
        if array.dtype == np.bool_ or not array.size:
            continue  # (a 0-d mask covers no dimension of `view`)
        size = view[start]
        if not size:
            raise IndexError("index is out of bounds for dimension with size 0")
        if out_of_range is None:
            bad = array[(array < -size) | (array >= size)]
            if bad.size:
                out_of_range = f"index {bad.flat[0]} is out of bounds for dimension {number} " \
                               f"with size {size}"
    if len(arrays) < 2 and out_of_range is None:
        return False
    selected = math.prod(_selection_shape([array for array, _ in arrays]))
    if out_of_range is None:
        return False
    covered = {start + i for array, start in arrays for i in range(_width(array))}
    if selected and math.prod(n for d, n in enumerate(view) if d not in covered):
        raise IndexError(out_of_range)
    return True


def _selection_shape(arrays):
    """The shape the index arrays select together (a mask counts as the vector of its True
    positions), or PyTorch's error where they do not broadcast."""
    shapes = [array.shape if array.dtype != np.bool_ else (int(array.sum()),)
              for array in arrays]
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together "
                         f"with shapes {', '.join(str(list(s)) for s in shapes)}") from None


def _check_int(index, size, position):
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for dimension {position} with size "
                         f"{size}")


def _check_step(part):
    if part.step == 0:
        raise ValueError("slice step cannot be zero")
    if part.step is not None and part.step < 0:
        raise ValueError("step must be greater than zero")


def _check_mask(mask, shape, dim):
    for i, size in enumerate(mask):
        if dim + i < len(shape) and size != shape[dim + i]:
            raise IndexError(f"The shape of the mask {list(mask)} at index {i} does not match "
                             f"the shape of the indexed tensor {list(shape)} at index {dim + i}")


def _selects_all(parts):
    return all(p is Ellipsis or (isinstance(p, slice) and p == slice(None)) for p in parts)


def _legacy_scalar_index(input):
    warnings.warn("indexing a 0-d tensor with [0] is the pre-0.4 idiom (e.g. loss.data[0]); "
                  "use tensor.item() to get the number", DeprecationWarning, stacklevel=3)
    if input._box is not None:
        return input
    return input.item()


def _basic_index(input, parts):
    ndim = input._data.ndim
    for part in parts:  # (PyTorch checks the steps first)
        if type(part) is slice:
            _check_step(part)
    consumed = sum(1 for p in parts if p is not None and p is not Ellipsis)
    if consumed > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    if sum(1 for p in parts if p is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    current, axis = input, 0
    for position, part in enumerate(parts):
        if part is Ellipsis:
            axis += ndim - consumed
        elif part is None:
            current = wrap_view(current, fnp.expand_dims, "UnsqueezeBackward0", axis=axis)
            axis += 1
        elif isinstance(part, slice):
            if part != slice(None) or len(parts) == 1:
                current = wrap_view(current, fnp.getitem, "SliceBackward0",
                                    index=(slice(None),) * axis + (part,))
            axis += 1
        else:
            _check_int(part, current._data.shape[axis], position)
            # The Ellipsis makes NumPy return a 0-d view, not a copied scalar, when the
            # last axis is selected.
            current = wrap_view(current, fnp.getitem, "SelectBackward0",
                                index=(slice(None),) * axis + (part, Ellipsis))
    if current is input:
        current = alias(input)
    return current


def setitem(input, index, value):
    """``input[index] = value``: an in-place update, recorded (as a `where` that takes the
    new values at the index) when either side requires grad."""
    index = _as_index(index)
    parts = _index_parts(index)
    view, arrays = _check_index(input._data.shape, parts)
    if isinstance(value, Tensor):  # PyTorch checks the value before the index arrays
        _check_fits(value, _selected_shape(input._data, parts, view, arrays),
                    _is_basic(parts))
    if _check_arrays(view, arrays):  # an empty selection: nothing to write
        return
    if _selects_all(parts):  # x[:] = v is a fill or a copy, as in PyTorch
        if isinstance(value, Tensor):
            copy_all_(input, value)
        else:
            fill_with_wrapped_number_(input, value)
        return
    recording = STATE.enabled and (input._box is not None or (
        isinstance(value, Tensor) and value._box is not None))
    check_inplace(input, recording, view_message=True)
    shared = refuse_shared_selection(input, parts, _is_basic(parts))
    if not _is_basic(parts):  # (PyTorch's index_put_, and for one mask and a scalar its
        # masked_fill_: each warns of an expanded input)
        warn_if_expanded(input, "index_put_", "tensor[indices] = tensor")
        if (len(parts) == 1 and np.asarray(parts[0]).dtype == np.bool_
                and (not isinstance(value, Tensor) or not value._data.ndim)):
            warn_if_expanded(input, "masked_fill_", "tensor[mask] = scalar")
    if not recording:
        new = value
        if isinstance(value, Tensor):
            new = value._data.reshape(_without_leading_ones(value, input._data[parts].shape))
        write(input, new, parts)
        return
    old = alias_of(input)
    dtype = input.dtype
    mask = np.zeros(input._data.shape, np.bool_)
    mask[parts] = True
    if isinstance(value, Tensor):
        if value.dtype is not dtype:
            value = value.to(dtype)
        placed = _placed(value, parts, input._data.shape)
    else:
        placed = operand(value, dtype)
    label = "CopySlices" if _is_basic(parts) else "IndexPutBackward0"
    inputs = (old, value)
    result = wrap(fnp.where(mask, placed, engine(old)), label, inputs,
                  others=_index_tensors(index))
    assign(input, result, inputs, mask if shared else None, selected=_is_basic(parts))


def _selected_shape(array, parts, view, arrays):
    """The shape of ``array[parts]``, also where index arrays are out of range (their
    error comes after the value's)."""
    try:
        return array[parts].shape
    except IndexError:  # index 0 stands for each out-of-range one
        pass
    try:
        return array[_zero_indices(parts)].shape
    except IndexError:  # a dimension of length 0: no index is in range
        _check_arrays(view, arrays)
        raise


def _zero_indices(parts):
    """`parts` with each integer index array replaced by zeros of its shape."""
    return tuple(np.zeros_like(p) if isinstance(p, (np.ndarray, list)) and
                 np.asarray(p).dtype != np.bool_ else p for p in parts)


def _check_fits(value, target, basic):
    """PyTorch's errors for a value that does not broadcast to the `target` shape its index
    selects (checked without its leading length-1 dimensions, from the last dimension): an
    expand error for basic indices, a shape mismatch for array indices."""
    shape = value._data.shape
    while shape and shape[0] == 1:
        shape = shape[1:]
    if basic:
        expanded_shape(shape, target, value._data.dtype)
    else:
        _check_value_shape(shape, target)


def _check_value_shape(shape, target):
    """PyTorch's error for values of `shape` that do not broadcast to the `target` shape
    that index arrays select."""
    lead = len(target) - len(shape)
    if lead < 0 or any(n != 1 and n != m for n, m in zip(shape, target[lead:])):
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(shape)} cannot be "
                           f"broadcast to indexing result of shape {list(target)}")


def index_put(x, indices, values, accumulate=False):
    """x with `values` written (or added, if `accumulate`) at the positions the index
    tensors `indices` pick together, as ``x[indices] = values`` (``+=``) would; values
    broadcast to the selection as they are, leading dimensions of length 1 included."""
    shape = tuple(fnp.shape(x))
    if not indices:  # (PyTorch's kernel fails an internal assertion)
        raise RuntimeError("index_put(): expected at least one index tensor")
    covered = sum(max(np.ndim(part), 1) if np.asarray(part).dtype in _MASK_DTYPES else 1
                  for part in indices)
    if covered > len(shape):
        raise IndexError(f"too many indices for tensor of dimension {len(shape)} (got "
                         f"{covered})")
    parts = tuple(_index_array(np.asarray(part)) for part in indices)
    view, arrays = _check_index(shape, parts)
    target = _selection_shape(parts) + shape[covered:]
    _check_value_shape(fnp.shape(values), target)
    if unbox_all(values).dtype != unbox_all(x).dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{_dtypes.of_array(unbox_all(x)).scalar_name} for the destination "
                           f"and {_dtypes.of_array(unbox_all(values)).scalar_name} for the "
                           f"source.")
    if _check_arrays(view, arrays):  # an empty selection: nothing is written
        return x
    where = fnp.at(x)[parts]
    return where.add(values) if accumulate else where.set(values)


def index_put_written(t, indices, values, accumulate=False):
    """The elements index_put_ writes in tensor `t` (`_inplace.inplace`'s `written`, asked
    where elements of t share memory). Accumulating into shared memory is refused: each
    element's sum would be written over the others' (PyTorch adds them all)."""
    if accumulate:
        raise RuntimeError(SHARED_ELEMENTS)
    marks = np.zeros(t._data.shape, np.bool_)
    marks[tuple(_index_array(part._data) for part in indices)] = True
    return marks


def _placed(value, parts, shape):
    """`value`'s elements at the positions ``parts`` selects in an array of `shape`."""
    positions = np.arange(int(np.prod(shape))).reshape(shape)[parts]
    values = fnp.reshape(engine(value), _without_leading_ones(value, positions.shape))
    return placed_at(fnp.broadcast_to(values, positions.shape), positions, shape)


def _without_leading_ones(value, target):
    """The shape of tensor `value` written at positions of shape `target`: its leading
    dimensions beyond target's dropped (`_check_fits` found them of length 1)."""
    shape = value._data.shape
    return shape[max(len(shape) - len(target), 0):]


__all__ = ["getitem", "setitem", "index_put", "warn_of_byte_index"]
