"""Unique values and set operations: NumPy's `unique` (and the array API's `unique_all`,
`unique_counts`, `unique_inverse`, `unique_values`), `intersect1d`, `union1d`,
`setdiff1d`, `setxor1d` and `in1d`.

Each result value is an entry of an input, so each is a gather (`take`) of the inputs at
positions that NumPy computes from the plain values: the derivative reaches the first
occurrence of each value (as JAX's, with ``size=``). Indices, inverses and counts are
constants. JAX's ``size=`` and ``fill_value=`` give results of a fixed length: the first
``size`` entries, padded by repeating the first (or with ``fill_value``), so that a
program's shapes do not depend on the values.
"""
import collections
import operator

import numpy as np

from ..core import Box
from ._axes import normalize_one_axis
from ._base import astype
from ._batching import computed, plain_value, read_values
from .creation import asarray
from .elementwise import where
from .indexing import take
from .shape_ops import broadcast_to, concatenate, ravel, reshape

UniqueAllResult = collections.namedtuple("UniqueAllResult",
                                         "values indices inverse_indices counts")
UniqueCountsResult = collections.namedtuple("UniqueCountsResult", "values counts")
UniqueInverseResult = collections.namedtuple("UniqueInverseResult", "values inverse_indices")


# ---- arguments --------------------------------------------------------------------------


def _check_size(size, function):
    """``size`` as a non-negative int (or None)."""
    if size is None:
        return None
    try:
        size = operator.index(size)
    except TypeError:
        raise TypeError(f"funcgrad.numpy.{function}: size must be an integer, got "
                        f"{type(size).__name__}") from None
    if size < 0:
        raise ValueError(f"funcgrad.numpy.{function}: size must be non-negative, got {size}")
    return size


def _flat(ar):
    return ravel(asarray(ar))


# ---- positions, from the plain values (NumPy's; constants) ------------------------------


def _padded(positions, size, pad):
    """``positions`` cut or padded to ``size`` entries (pad: what fills them)."""
    if size is None:
        return positions
    positions = positions[:size]
    return np.concatenate([positions, np.full(size - positions.size, pad, positions.dtype)])


def _first_occurrences(values, axis, equal_nan, size):
    """Where each unique value (or slice along ``axis``) first occurs, in sorted order;
    padded with the first of them."""
    first = np.unique(computed(values), return_index=True, axis=axis, equal_nan=equal_nan)[1]
    return _padded(first, size, first[0] if first.size else 0)


def _unique_inverse(values, axis, equal_nan):
    return np.unique(computed(values), return_inverse=True, axis=axis, equal_nan=equal_nan)[1]


def _unique_counts(values, axis, equal_nan, size):
    counts = np.unique(computed(values), return_counts=True, axis=axis, equal_nan=equal_nan)[1]
    return _padded(counts, size, 0)


def _filled(result, valid, fill_value, axis):
    """``result`` with ``fill_value`` (cast to its dtype) where ``valid`` (one flag per
    entry along ``axis``) does not hold."""
    flags_shape = [1] * result.ndim
    flags_shape[axis] = -1
    fill = astype(asarray(fill_value), result.dtype)
    return where(reshape(valid, tuple(flags_shape)), result, fill)


# ---- unique ------------------------------------------------------------------------------


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True, size=None, fill_value=None):
    """``numpy.unique``: the sorted unique values of ``ar`` (flattened, or unique slices
    along ``axis``), optionally with the index of each one's first occurrence, the inverse
    (``ar``'s entries as indices into the result) and the counts. The values' derivative
    goes to each first occurrence. ``size``/``fill_value`` as in JAX: the result has
    exactly ``size`` entries, padded with the smallest value (or ``fill_value``); padded
    indices repeat the first, padded counts are 0. The result is always sorted (which
    ``sorted=False`` allows)."""
    size = _check_size(size, "unique")
    if size is None and not isinstance(ar, Box):
        return np.unique(ar, return_index, return_inverse, return_counts, axis,
                         equal_nan=equal_nan, sorted=sorted)
    original = asarray(ar)
    inverse_axis = axis  # NumPy shapes the inverse of the flattened ar as ar
    x = ravel(original) if axis is None else original
    axis = 0 if axis is None else normalize_one_axis(axis, x.ndim, "unique")
    if size and not x.shape[axis] and fill_value is None:
        raise ValueError("funcgrad.numpy.unique: an empty input has no value to pad "
                         "size= entries with; pass fill_value")
    values = plain_value(x)
    first = read_values(_first_occurrences, values, axis=axis, equal_nan=equal_nan, size=size)
    counts = None
    if return_counts or fill_value is not None:
        counts = read_values(_unique_counts, values, axis=axis, equal_nan=equal_nan,
                             size=size)
    result = take(x, first, axis=axis)
    if size is not None and fill_value is not None:
        result = _filled(result, counts > 0, fill_value, axis)
    extras = []
    if return_index:
        extras.append(first)
    if return_inverse:
        extras.append(read_values(_unique_inverse, plain_value(original), axis=inverse_axis,
                                  equal_nan=equal_nan))
    if return_counts:
        extras.append(counts)
    return (result, *extras) if extras else result


def unique_values(x, /, *, size=None, fill_value=None):
    """``numpy.unique_values``: the unique values of ``x``, sorted."""
    return unique(x, size=size, fill_value=fill_value)


def unique_counts(x, /, *, size=None, fill_value=None):
    """``numpy.unique_counts``: the unique values of ``x`` and how often each occurs."""
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False, size=size,
                                      fill_value=fill_value))


def unique_inverse(x, /, *, size=None, fill_value=None):
    """``numpy.unique_inverse``: the unique values of ``x``, and ``x``'s entries as
    indices into them (shaped as ``x``)."""
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False, size=size,
                                       fill_value=fill_value))


def unique_all(x, /, *, size=None, fill_value=None):
    """``numpy.unique_all``: the unique values of ``x``, the indices of their first
    occurrences, the inverse (shaped as ``x``) and the counts."""
    return UniqueAllResult(*unique(x, return_index=True, return_inverse=True,
                                   return_counts=True, equal_nan=False, size=size,
                                   fill_value=fill_value))


# ---- set operations of flattened arrays --------------------------------------------------


def _rows(positions, size, repeat_first, *indices):
    """One integer array, so that the values are read once: the gather positions, then 1
    where an entry is a result (not padding), then 1 where the padding repeats the first
    result (``repeat_first``, when there is one) or is a result, then ``indices`` as
    (array, pad) pairs, padded likewise."""
    valid = np.ones(positions.size, np.intp)
    repeats = repeat_first and positions.size
    rows = [_padded(positions, size, positions[0] if repeats else 0),
            _padded(valid, size, 0), _padded(valid, size, 1 if repeats else 0)]
    rows += [_padded(index, size, index_pad) for index, index_pad in indices]
    return np.stack([row.astype(np.intp) for row in rows])


def _set_result(joined, rows, size, fill_value):
    """The gathered values; with ``size``, the padding is ``fill_value`` if given, else the
    repeated first result, or 0 where there is none (as JAX's)."""
    result = take(joined, rows[0])
    if size is None:
        return result
    if fill_value is None:
        return _filled(result, rows[2] > 0, 0, 0)
    return _filled(result, rows[1] > 0, fill_value, 0)


def _intersection_rows(v1, v2, assume_unique, size):
    v1, v2 = computed(v1), computed(v2)
    _, index1, index2 = np.intersect1d(v1, v2, assume_unique, return_indices=True)
    return _rows(index1, size, True, (index1, v1.size), (index2, v2.size))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False, *, size=None,
                fill_value=None):
    """``numpy.intersect1d``: the sorted unique values in both (flattened) arrays, and
    with ``return_indices`` their first positions in each. The derivative goes to ``ar1``'s
    entries, as JAX's. ``size``/``fill_value`` as in JAX: padded values repeat the first
    (or are ``fill_value``), padded indices are the arrays' sizes."""
    size = _check_size(size, "intersect1d")
    if size is None and not isinstance(ar1, Box) and not isinstance(ar2, Box):
        return np.intersect1d(ar1, ar2, assume_unique, return_indices)
    a1, a2 = _flat(ar1), _flat(ar2)
    rows = read_values(_intersection_rows, plain_value(a1), plain_value(a2),
                       assume_unique=assume_unique, size=size)
    result = _set_result(concatenate([a1, a2]), rows, size, fill_value)
    return (result, rows[3], rows[4]) if return_indices else result


def union1d(ar1, ar2, *, size=None, fill_value=None):
    """``numpy.union1d``: the sorted unique values of both (flattened) arrays; the
    derivative goes to each value's first occurrence in ``ar1`` then ``ar2``."""
    size = _check_size(size, "union1d")
    if size is None and not isinstance(ar1, Box) and not isinstance(ar2, Box):
        return np.union1d(ar1, ar2)
    return unique(concatenate([_flat(ar1), _flat(ar2)]), size=size, fill_value=fill_value)


def _difference_rows(v1, v2, assume_unique, size):
    v1, v2 = computed(v1), computed(v2)
    if assume_unique:  # NumPy keeps ar1's order
        positions = np.flatnonzero(~np.isin(v1, v2, assume_unique=True))
    else:
        values, first = np.unique(v1, return_index=True)
        positions = first[~np.isin(values, v2)]
    return _rows(positions, size, False)


def setdiff1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """``numpy.setdiff1d``: the unique values of ``ar1`` not in ``ar2`` (sorted, or in
    ``ar1``'s order with ``assume_unique``); the derivative goes to ``ar1``'s entries.
    ``size`` pads with ``fill_value`` (default 0), as JAX."""
    size = _check_size(size, "setdiff1d")
    if size is None and not isinstance(ar1, Box) and not isinstance(ar2, Box):
        return np.setdiff1d(ar1, ar2, assume_unique)
    a1 = _flat(ar1)
    rows = read_values(_difference_rows, plain_value(a1), plain_value(_flat(ar2)),
                       assume_unique=assume_unique, size=size)
    if size is not None and not a1.size:  # nothing to gather: all padding
        return broadcast_to(astype(asarray(0 if fill_value is None else fill_value),
                                   a1.dtype), (size,))
    return _set_result(a1, rows, size, 0 if fill_value is None else fill_value)


def _exclusive_or_rows(v1, v2, assume_unique, size):
    v1, v2 = computed(v1), computed(v2)
    joined = np.concatenate([v1, v2])
    values, first = np.unique(joined, return_index=True)
    positions = first[np.searchsorted(values, np.setxor1d(v1, v2, assume_unique))]
    return _rows(positions, size, True)


def setxor1d(ar1, ar2, assume_unique=False, *, size=None, fill_value=None):
    """``numpy.setxor1d``: the sorted unique values in exactly one of the (flattened)
    arrays; the derivative goes to the array holding each. ``size``/``fill_value`` as in
    JAX: padded values repeat the first (or are ``fill_value``)."""
    size = _check_size(size, "setxor1d")
    if size is None and not isinstance(ar1, Box) and not isinstance(ar2, Box):
        return np.setxor1d(ar1, ar2, assume_unique)
    a1, a2 = _flat(ar1), _flat(ar2)
    rows = read_values(_exclusive_or_rows, plain_value(a1), plain_value(a2),
                       assume_unique=assume_unique, size=size)
    return _set_result(concatenate([a1, a2]), rows, size, fill_value)


__all__ = ["unique", "unique_values", "unique_counts", "unique_inverse", "unique_all",
           "intersect1d", "union1d", "setdiff1d", "setxor1d"]
