"""Indexing ``x[index]`` and its transpose, adding a cotangent into zeros at ``index``."""
import numpy as np

from ..core import Box
from ._rules import aval, defvjp, primitive

_BASIC_INDEX_TYPES = (int, np.integer, slice, type(None), type(Ellipsis))


def _is_basic(index):
    """Basic indices (ints, slices, None, ...) pick each element at most once."""
    return all(isinstance(i, _BASIC_INDEX_TYPES) for i in index)


def _canonical_index(index):
    """The index as a tuple whose array parts are NumPy arrays (never traced)."""
    index = index if isinstance(index, tuple) else (index,)
    canonical = []
    for i in index:
        if isinstance(i, Box):
            raise TypeError(
                "funcgrad.numpy: an index was a traced (differentiable) value. Indices must "
                "be integers, slices, None, Ellipsis, or integer/boolean arrays; convert a "
                "computed index with .astype(int) first.")
        if isinstance(i, (list, np.ndarray)):
            i = np.asarray(i)
            if i.dtype.kind not in "iub":
                raise IndexError(f"funcgrad.numpy: arrays used as indices must be of integer "
                                 f"or boolean type, got {i.dtype}")
        canonical.append(i)
    return tuple(canonical)


_getitem = primitive(lambda x, index: x[index], "getitem")


def _add_at(g, index, shape, dtype):
    out = np.zeros(shape, dtype)
    if _is_basic(index):
        out[index] = g
    else:
        np.add.at(out, index, g)  # repeated integer indices accumulate
    return out


# The transpose of indexing: g added into zeros of the indexed array's shape.
_add_at_zeros = primitive(_add_at, "add_at_zeros")


def _getitem_vjp(ans, x, index):
    shape, dtype = aval(x)
    return lambda g: _add_at_zeros(g, index=index, shape=shape, dtype=dtype)


defvjp(_getitem, _getitem_vjp)
defvjp(_add_at_zeros, lambda ans, g, index, shape, dtype: lambda ct: _getitem(ct, index=index))


def getitem(x, index):
    """``x[index]`` for every NumPy index form; the VJP adds into zeros at the index."""
    return _getitem(x, index=_canonical_index(index))


__all__ = ["getitem"]
