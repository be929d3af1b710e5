"""NumPy's in-place writers: `put`, `place`, `copyto`, `putmask`.

funcgrad arrays are immutable. On plain NumPy arrays these are NumPy's own, in place
(autograd scripts call them on constants). `put` and `place` also have JAX's functional
form, ``inplace=False``, which returns an updated copy, differentiable in the array and the
values. Writing into or from a traced value in place raises a TypeError saying what to
write instead.
"""
import numpy as np

from ..core import Box
from ._batching import plain_value
from ._base import astype
from .creation import asarray
from .index_update import at
from .indexing import _apply_index_mode, _integer_indices, take
from .shape_ops import ravel, reshape


def _immutable(function, instead):
    return TypeError(f"funcgrad.numpy.{function}: funcgrad arrays are immutable, so a traced "
                     f"value can be neither written in place nor written into a NumPy array "
                     f"(its derivative would be lost); {instead}")


def _traced(*values):
    return any(isinstance(v, Box) for v in values)


def _set_flat(a, positions, values, function, argument):
    """A copy of ``a`` with its flattened entries at ``positions`` set to ``values``,
    flattened, cast to ``a``'s dtype and repeated cyclically as needed (NumPy's filling of
    put and place)."""
    if not positions.size:
        return a
    if not np.size(values):
        raise ValueError(f"funcgrad.numpy.{function}: {argument} is empty, so there is "
                         f"nothing to {function}")
    values = ravel(astype(asarray(values), a.dtype))
    cycled = take(values, np.arange(positions.size) % values.shape[0])
    return reshape(at(ravel(a))[positions].set(cycled), a.shape)


def put(a, ind, v, mode="raise", *, inplace=True):
    """``numpy.put``: ``a``'s flattened entries at ``ind`` set to ``v`` (repeated as
    needed); ``mode`` is 'raise', 'wrap' or 'clip'. With ``inplace=False`` (JAX's form)
    a copy is returned; in place only on a NumPy array."""
    if inplace:
        if _traced(a, ind, v) or not isinstance(a, np.ndarray):
            raise _immutable("put", "pass inplace=False and use the returned array, or "
                                    "write a.at[ind].set(v)")
        return np.put(a, ind, v, mode=mode)
    a = asarray(a)
    size = a.size
    indices = _apply_index_mode(np.ravel(_integer_indices(ind, "put")), size, mode, "put")
    if mode == "raise" and indices.size and not (
            -size <= indices.min() and indices.max() < size):
        raise IndexError(f"funcgrad.numpy.put: an index is out of bounds for an array of "
                         f"size {size}")
    return _set_flat(a, indices, v, "put", "v")


def place(arr, mask, vals, *, inplace=True):
    """``numpy.place``: ``arr``'s entries where ``mask`` holds set, in order, to ``vals``
    (repeated as needed). With ``inplace=False`` (JAX's form) a copy is returned; in place
    only on a NumPy array."""
    if inplace:
        if _traced(arr, mask, vals) or not isinstance(arr, np.ndarray):
            raise _immutable("place", "pass inplace=False and use the returned array, or "
                                      "write arr.at[mask].set(...)")
        return np.place(arr, mask, vals)
    arr = asarray(arr)
    mask = plain_value(mask)
    if np.shape(mask) != arr.shape:
        raise ValueError(f"funcgrad.numpy.place: mask (shape {np.shape(mask)}) must have "
                         f"arr's shape {arr.shape}")
    return _set_flat(arr, np.flatnonzero(mask), vals, "place", "vals")


def copyto(dst, src, casting="same_kind", where=True):
    """``numpy.copyto`` on NumPy arrays; a traced ``dst``, ``src`` or ``where`` is refused
    (write ``funcgrad.numpy.where(where, src, dst)``, a new array)."""
    if _traced(dst, src, where):
        raise _immutable("copyto", "write dst = funcgrad.numpy.where(where, src, dst), "
                                   "which returns a new array")
    return np.copyto(dst, src, casting=casting, where=where)


def putmask(a, mask, values):
    """``numpy.putmask`` on NumPy arrays; a traced argument is refused (write
    ``funcgrad.numpy.where(mask, values, a)`` for same-shaped values, or
    ``place(a, mask, values, inplace=False)`` for values taken in order)."""
    if _traced(a, mask, values):
        raise _immutable("putmask", "write funcgrad.numpy.where(mask, values, a) (values of "
                                    "a's shape), which returns a new array")
    return np.putmask(a, mask, values)


__all__ = ["put", "place", "copyto", "putmask"]
