"""Indexing: ``x[index]``, take and take_along_axis, and the transpose of indexing.

Every index form NumPy accepts is normalized once by `canonical_index` (a tuple whose
array parts are plain integer or boolean NumPy arrays), so the rules see one format.
"""
import numpy as np

from ..core import Box, dtype_of, unbox_all
from ._axes import normalize_axis
from ._base import as_array, gather, getitem_p
from ._rules import reject_out
from .shape_ops import ravel

_VALID_INDICES = ("indices must be integers, slices, None (numpy.newaxis), Ellipsis, or "
                  "integer or boolean arrays")


def _index_array(part, function):
    """A list, tuple or array used as (part of) an index, as an integer or boolean array."""
    array = np.asarray(part)
    if array.dtype.kind not in "iub":
        if array.size == 0:  # `x[[]]`: NumPy reads an empty list as no integers
            return array.astype(np.intp)
        raise IndexError(f"funcgrad.numpy.{function}: an array used as an index must hold "
                         f"integers or booleans, got dtype {array.dtype}; {_VALID_INDICES}")
    return array


def _slice_bound(bound, function):
    if bound is None or type(bound) is int:
        return bound
    if isinstance(bound, Box):
        bound = unbox_all(bound)
    if isinstance(bound, (np.integer, np.ndarray)) and np.ndim(bound) == 0 \
            and dtype_of(bound).kind in "iu":
        return int(bound)
    raise TypeError(f"funcgrad.numpy.{function}: slice bounds must be integers or None, got "
                    f"{bound!r}")


def _canonical_part(part, function):
    kind = type(part)
    if kind is int or part is None or part is Ellipsis:
        return part
    if kind is slice:
        start, stop, step = part.start, part.stop, part.step
        if (start is None or type(start) is int) and (stop is None or type(stop) is int) \
                and (step is None or type(step) is int):
            return part
        return slice(_slice_bound(start, function), _slice_bound(stop, function),
                     _slice_bound(step, function))
    if isinstance(part, Box):
        if dtype_of(part).kind not in "iub":
            raise TypeError(
                f"funcgrad.numpy.{function}: an index was a traced {dtype_of(part)} value. "
                f"Indices cannot carry derivatives; {_VALID_INDICES}. Convert a computed "
                f"index with .astype(int) first.")
        part = unbox_all(part)
    if isinstance(part, (bool, np.bool_)):
        return bool(part)
    if isinstance(part, np.integer):
        return int(part)
    if isinstance(part, (float, complex, np.inexact)):
        raise IndexError(f"funcgrad.numpy.{function}: the index {part!r} is not an integer; "
                         f"{_VALID_INDICES}. Convert it with int() first.")
    if isinstance(part, (list, tuple, np.ndarray)):
        return _index_array(part, function)
    raise IndexError(f"funcgrad.numpy.{function}: {type(part).__name__} {part!r} cannot be "
                     f"used as an index; {_VALID_INDICES}")


def canonical_index(index, function="getitem"):
    """``index`` as a tuple of ints, slices, None, Ellipsis and integer/boolean arrays."""
    kind = type(index)
    if kind is int or kind is slice:  # the hot path: x[i], x[a:b]
        return (_canonical_part(index, function),)
    if kind is not tuple:
        index = (index,)
    return tuple([_canonical_part(part, function) for part in index])


def has_integer_array(index):
    """Whether ``index`` (canonical) may pick an element more than once."""
    return any(type(part) is np.ndarray and part.dtype.kind in "iu" for part in index)


def getitem(x, index):
    """``x[index]`` for every NumPy index form; the VJP adds into zeros at the index."""
    index = canonical_index(index)
    return getitem_p(x, index=index, unique=not has_integer_array(index))


# ---- take, take_along_axis -------------------------------------------------------------


def _integer_indices(indices, function):
    """``indices`` as an integer array (computed indices may arrive traced, never float)."""
    if isinstance(indices, Box):
        indices = unbox_all(indices)
    indices = np.asarray(indices)
    if indices.dtype.kind not in "iu":
        if indices.size == 0:
            return indices.astype(np.intp)
        raise IndexError(f"funcgrad.numpy.{function}: indices must be integers, got dtype "
                         f"{indices.dtype}")
    return indices


def _apply_index_mode(indices, count, mode, function):
    """``indices`` (into ``count`` entries) wrapped or clipped as NumPy's ``mode`` says;
    unchanged for 'raise', whose range check is the caller's (its errors differ)."""
    if mode == "wrap":
        return np.mod(indices, count)
    if mode == "clip":
        return np.clip(indices, 0, count - 1)
    if mode != "raise":
        raise ValueError(f"funcgrad.numpy.{function}: mode must be 'raise', 'wrap' or 'clip', "
                         f"got {mode!r}")
    return indices


def take(a, indices, axis=None, out=None, mode="raise"):
    """``numpy.take``: elements of ``a`` at ``indices`` along ``axis`` (flattened if None).

    ``mode`` is NumPy's: 'raise' (out-of-bounds indices are an error), 'wrap' or 'clip'.
    """
    reject_out(out, "take")
    a = as_array(a)
    indices = _integer_indices(indices, "take")
    if axis is None:
        a, axis = ravel(a), 0
    axis = normalize_axis(axis, np.ndim(a), "take")[0]
    length = np.shape(a)[axis]
    indices = _apply_index_mode(indices, length, mode, "take")
    if mode == "raise" and indices.size and not (
            -length <= indices.min() and indices.max() < length):
        raise IndexError(f"funcgrad.numpy.take: an index is out of bounds for axis {axis} "
                         f"with size {length}")
    return getitem_p(a, index=(slice(None),) * axis + (indices,), unique=indices.ndim == 0)


def _along_axis_index(shape, indices, axis):
    """The fancy index that picks ``indices`` along ``axis`` and keeps the other axes."""
    index = []
    for dim, length in enumerate(shape):
        if dim == axis:
            index.append(indices)
        else:
            span = [1] * len(shape)
            span[dim] = length
            index.append(np.arange(length).reshape(span))
    return tuple(index)


def take_along_axis(arr, indices, axis=-1):
    """``numpy.take_along_axis``: pick ``indices`` (arr's rank) along ``axis``."""
    return permute_along_axis(arr, indices, axis, unique=False, function="take_along_axis")


def permute_along_axis(arr, indices, axis, unique=True, function="take_along_axis"):
    """take_along_axis for callers that know whether the indices along each line are
    distinct (a permutation, as in sort): then the VJP assigns instead of accumulating."""
    arr = as_array(arr)
    indices = _integer_indices(indices, function)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError(f"funcgrad.numpy.{function}: with axis=None, indices must be "
                             f"one-dimensional, got shape {indices.shape}")
        arr, axis = ravel(arr), 0
    shape = np.shape(arr)
    if indices.ndim != len(shape):
        raise ValueError(f"funcgrad.numpy.{function}: indices (shape {indices.shape}) and "
                         f"arr (shape {shape}) must have the same number of dimensions")
    axis = normalize_axis(axis, len(shape), function)[0]
    # Where indices are longer than arr in another dimension, arr's single line there is
    # read more than once: not unique then.
    broadcasts = any(n > m for d, (n, m) in enumerate(zip(indices.shape, shape)) if d != axis)
    return getitem_p(arr, index=_along_axis_index(shape, indices, axis),
                    unique=unique and not broadcasts)


__all__ = ["getitem", "take", "take_along_axis"]
