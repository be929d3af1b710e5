"""Sorting and searching. Orders and positions are constants (integers); sorting a traced
array gathers it through the sorting permutation, so its derivative is that permutation."""
import numpy as np

from ..core import Box, unbox_all
from ._axes import normalize_one_axis
from ._base import astype
from ._batching import read_along, read_values
from ._rules import reject_out
from .indexing import permute_along_axis
from .shape_ops import ravel


def _values(x):
    """The plain values of ``x`` (traced or in a list): orders carry no derivative. A
    batched value (vmap) stays boxed."""
    if isinstance(x, (list, tuple)):
        return read_values(np.asarray, x)
    return unbox_all(x)


def _no_order(order, function):
    if order is not None:
        raise NotImplementedError(f"funcgrad.numpy.{function}: order= (fields of structured "
                                  f"arrays) is not supported")


def _axis(axis, x, function):
    return None if axis is None else normalize_one_axis(axis, np.ndim(x), function)


def _stable_argsort(values, axis, kind, stable):
    # Stable by default, as JAX: ties keep their order, and so do their derivatives
    # (kind="stable" rather than stable=True: CuPy's argsort takes only the former).
    if kind is None and stable is None:
        kind = "stable"
    return read_along(np.argsort, values, _axis(axis, values, "argsort"), kind=kind,
                      stable=stable)


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """``numpy.sort``; the derivative follows the stable sorting permutation (as JAX)."""
    _no_order(order, "sort")
    if not isinstance(a, Box):
        return np.sort(_values(a), axis=axis, kind=kind, stable=stable)
    if axis is None:
        a, axis = ravel(a), 0
    permutation = _stable_argsort(unbox_all(a), axis, kind, stable)
    return permute_along_axis(a, permutation, axis, unique=True, function="sort")


def sort_complex(a):
    """``numpy.sort_complex``: ``a`` sorted along its last axis (complex numbers by real
    part, then imaginary part), as complex numbers (complex64 for int8 and int16 and
    their unsigned kin, as NumPy; complex128 for the rest); the derivative follows the
    sort."""
    if not isinstance(a, Box):
        return np.sort_complex(_values(a))
    result = sort(a)
    if result.dtype.kind == "c":
        return result
    return astype(result, np.complex64 if result.dtype.char in "bhBH" else np.complex128)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """``numpy.argsort`` (stable unless ``kind`` says otherwise, as in JAX); a constant."""
    _no_order(order, "argsort")
    return _stable_argsort(_values(a), axis, kind, stable)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """``numpy.partition``: the k-th element in its sorted place, smaller ones before it
    and larger ones after (in no particular order); the derivative follows the elements."""
    _no_order(order, "partition")
    _check_kth(kth, _length(a, axis, "partition"), "partition")
    if not isinstance(a, Box):
        return np.partition(_values(a), kth, axis=axis, kind=kind)
    if axis is None:
        a, axis = ravel(a), 0
    permutation = read_along(np.argpartition, unbox_all(a), _axis(axis, a, "partition"),
                             kth=kth, kind=_unless_default(kind))
    return permute_along_axis(a, permutation, axis, unique=True, function="partition")


def _unless_default(kind):
    # NumPy's only partition algorithm, passed on only when named (CuPy takes no kind).
    return None if kind == "introselect" else kind


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """``numpy.argpartition``; a constant."""
    _no_order(order, "argpartition")
    a = _values(a)
    _check_kth(kth, _length(a, axis, "argpartition"), "argpartition")
    return read_along(np.argpartition, a, _axis(axis, a, "argpartition"), kth=kth,
                      kind=_unless_default(kind))


def _length(a, axis, function):
    """The length of the axis a partition works along (all of ``a`` for axis=None)."""
    return np.size(a) if axis is None else np.shape(a)[_axis(axis, a, function)]


def _check_kth(kth, length, function):
    """NumPy's bounds check of ``kth``, in an error that names the function (NumPy's own,
    from a batched or staged call, would not)."""
    for k in np.ravel(kth):
        if isinstance(k, np.integer) and not -length <= k < length:
            raise ValueError(f"funcgrad.numpy.{function}: kth={int(k)} is out of bounds "
                             f"for an axis of length {length}")


def lexsort(keys, axis=-1):
    """``numpy.lexsort``; a constant."""
    return read_values(np.lexsort, keys, axis=axis)


def searchsorted(a, v, side="left", sorter=None):
    """``numpy.searchsorted``: insertion positions, a constant."""
    return read_values(np.searchsorted, a, v, side=side, sorter=sorter)


def argmax(a, axis=None, out=None, *, keepdims=False):
    """``numpy.argmax``; a constant."""
    reject_out(out, "argmax")
    a = _values(a)
    return read_along(np.argmax, a, _axis(axis, a, "argmax"), keepdims=keepdims)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """``numpy.argmin``; a constant."""
    reject_out(out, "argmin")
    a = _values(a)
    return read_along(np.argmin, a, _axis(axis, a, "argmin"), keepdims=keepdims)


def nonzero(a):
    """``numpy.nonzero``: the indices of the non-zero elements, constants."""
    return read_values(np.nonzero, a)


def flatnonzero(a):
    """``numpy.flatnonzero``; a constant."""
    return read_values(np.flatnonzero, a)


def argwhere(a):
    """``numpy.argwhere``; a constant."""
    return read_values(np.argwhere, a)


__all__ = ["sort", "sort_complex", "argsort", "partition", "argpartition", "lexsort",
           "searchsorted", "argmax", "argmin", "nonzero", "flatnonzero", "argwhere"]
