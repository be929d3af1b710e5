"""Array creation. Constructors of constants are NumPy's own; ``array`` also accepts
(nested) lists holding traced values, which it stacks so their derivatives flow, and
``full``, ``full_like``, ``linspace``, ``logspace``, ``geomspace`` and ``meshgrid`` accept
traced values."""
import functools
import operator

import numpy as np

from ..core import Box, constant_like, dtype_of, library_array, unbox_all
from ._axes import normalize_one_axis
from ._base import array, asarray, cast, is_traced
from ._batching import holds_anywhere
from .elementwise import log10, multiply, power, sign, true_divide
from .shape_ops import (broadcast_arrays, broadcast_to, concatenate, expand_dims, moveaxis,
                        reshape)


def asanyarray(a, dtype=None, order=None, *, like=None):
    """``numpy.asanyarray``; traced values pass through unchanged."""
    if is_traced(a):
        return asarray(a, dtype)
    return np.asanyarray(a, dtype=dtype, order=order, like=like)


def _other_library(like):
    """like's array if it is another library's (Dask's, CuPy's...), which the result is
    made in; None for NumPy (and for a bad like=, which NumPy's own call reports)."""
    return None if like is None else library_array(like)


def converted_like(numpy_function):
    """``numpy_function`` (a reader such as ``loadtxt``) whose result, for ``like=`` another
    library's array, NumPy makes and ``like``'s library converts: libraries lack these
    (Dask computes them in NumPy, warning, and returns NumPy's array)."""
    @functools.wraps(numpy_function)
    def made(*args, like=None, **kwargs):
        other = _other_library(like)
        if other is None:
            return numpy_function(*args, like=like, **kwargs)
        return np.asarray(numpy_function(*args, **kwargs), like=other)
    return made


def _laid_out(numpy_function, a, dtype, like):
    """``numpy.ascontiguousarray``/``asfortranarray``: an array of ndim >= 1. Memory layout
    is NumPy's concern: another library's array (``a`` itself, or ``like``'s library) is
    that library's asarray, which Dask and CuPy lay out themselves."""
    if is_traced(a):
        return asarray(a, dtype)
    other = _other_library(like)
    if other is None and library_array(a) is None:
        return numpy_function(a, dtype=dtype, like=like)
    out = np.asarray(a, dtype=dtype, like=a if other is None else other)
    return out.reshape(1) if out.ndim == 0 else out


def ascontiguousarray(a, dtype=None, *, like=None):
    """``numpy.ascontiguousarray``. Traced values have no memory layout to change (they are
    immutable and never viewed from NumPy), so they pass through; see `_laid_out`."""
    return _laid_out(np.ascontiguousarray, a, dtype, like)


def asfortranarray(a, dtype=None, *, like=None):
    """``numpy.asfortranarray``; traced values pass through, as in `ascontiguousarray`."""
    return _laid_out(np.asfortranarray, a, dtype, like)


def asarray_chkfinite(a, dtype=None, order=None):
    """``numpy.asarray_chkfinite``: `asarray`, raising ValueError if a value is inf or NaN."""
    if not is_traced(a):
        return np.asarray_chkfinite(a, dtype=dtype, order=order)
    a = asarray(a, dtype)
    np.asarray_chkfinite(unbox_all(a))  # NumPy's check and message, on the values
    return a


def copy(a, order="K", subok=False):
    """``numpy.copy``. Traced arrays are immutable, so a traced value is its own copy."""
    if is_traced(a):
        return asarray(a)
    return np.copy(a, order=order, subok=subok)


# ---- constants shaped like another array -----------------------------------------------


def _shape_and_dtype(a, dtype, shape):
    a = asarray(a) if not isinstance(a, (Box, np.ndarray)) else a
    return (np.shape(a) if shape is None else shape), np.dtype(a.dtype if dtype is None
                                                               else dtype)


def _constant_like(a, dtype, shape, make, *fill):
    """``make(shape, *fill, dtype=...)`` with a's shape and dtype, in a's library: there
    by NumPy's ``*_like`` form of an empty array of that shape (np.ones(like=) would pass
    NumPy's device= on, which CuPy does not take, and CuPy's *_like read shape=() as "a's
    shape"; dtype as a keyword: Dask ignores a positional one)."""
    shape, dtype = _shape_and_dtype(a, dtype, shape)
    library = library_array(a)
    if library is None:
        return make(shape, *fill, dtype=dtype)
    return _IN_LIBRARY[make](np.empty(shape, dtype=dtype, like=library), *fill)


_IN_LIBRARY = {np.zeros: np.zeros_like, np.ones: np.ones_like, np.empty: np.empty_like,
               np.full: np.full_like}


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """``numpy.zeros_like``: a constant, even when ``a`` is traced."""
    return _constant_like(a, dtype, shape, np.zeros)


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """``numpy.ones_like``: a constant, even when ``a`` is traced."""
    return _constant_like(a, dtype, shape, np.ones)


def empty_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """``numpy.empty_like``: a constant, even when ``a`` is traced."""
    return _constant_like(a, dtype, shape, np.empty)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """``numpy.full_like``; a traced ``fill_value`` is broadcast, so its derivative flows."""
    if is_traced(fill_value):
        shape, dtype = _shape_and_dtype(a, dtype, shape)
        return broadcast_to(cast(asarray(fill_value), dtype), shape)
    return _constant_like(a, dtype, shape, np.full, fill_value)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """``numpy.full``; a traced ``fill_value`` is broadcast, so its derivative flows."""
    if is_traced(fill_value):
        return broadcast_to(cast(asarray(fill_value), dtype), shape)
    other = _other_library(like)
    if other is None:
        return np.full(shape, fill_value, dtype, order=order, device=device, like=like)
    dtype = dtype_of(fill_value) if dtype is None else dtype
    return np.full_like(np.empty(shape, dtype=dtype, like=other), fill_value)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    """``numpy.ones``. For ``like=`` another library's array, that library's ``ones_like``
    of an empty array (as `full`): NumPy's dispatch of ``ones`` and ``full`` passes
    ``device=`` on, which CuPy refuses."""
    other = _other_library(like)
    if other is None:
        return np.ones(shape, dtype, order, device=device, like=like)
    return np.ones_like(np.empty(shape, dtype=float if dtype is None else dtype, like=other))


# ---- grids ------------------------------------------------------------------------------


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """``numpy.linspace``; ``start`` and ``stop`` may be traced (and arrays, which adds
    the samples as a new ``axis``)."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"funcgrad.numpy.linspace: num must be non-negative, got {num}")
    integer_result = dtype is not None and np.dtype(dtype).kind not in "fc"
    if not (is_traced(start) or is_traced(stop)) or integer_result:
        return np.linspace(_untraced(start), _untraced(stop), num, endpoint, retstep, dtype,
                           axis)
    start, stop = asarray(start), asarray(stop)
    computed = np.result_type(start.dtype, stop.dtype, float(num))
    start, stop = broadcast_arrays(cast(start, computed), cast(stop, computed))
    divisions = num - 1 if endpoint else num
    delta = stop - start
    fractions = constant_like(
        np.arange(num, dtype=computed).reshape((num,) + (1,) * np.ndim(delta)), delta)
    samples = start + fractions * (delta / divisions if divisions > 0 else delta)
    if endpoint and num > 1:  # the last sample is exactly stop, as in NumPy
        samples = concatenate([samples[:-1], reshape(stop, (1,) + np.shape(stop))], axis=0)
    axis = normalize_one_axis(axis, np.ndim(samples), "linspace")
    samples = cast(moveaxis(samples, 0, axis), dtype)
    if retstep:
        step = delta / divisions if divisions > 0 else delta * np.nan
        return samples, step
    return samples


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """``numpy.logspace``: ``base ** linspace(start, stop)``; ``start``, ``stop`` and
    ``base`` may be traced."""
    if not (is_traced(start) or is_traced(stop) or is_traced(base)):
        return np.logspace(start, stop, num, endpoint, base, dtype, axis)
    if not isinstance(base, (float, int)) and np.ndim(base):
        # An array of bases broadcasts with start and stop (it may decide what `axis`
        # is); a number, or a 0-d base, is used as it is, as NumPy's logspace does (so a
        # Python float stays weak and float32 exponents give float32).
        ndmax = len(np.broadcast_shapes(*(np.shape(a) for a in (start, stop, base))))
        start, stop, base = (array(a, ndmin=ndmax) for a in (start, stop, base))
        base = expand_dims(base, axis)
    exponents = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    return cast(power(base, exponents), dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``numpy.geomspace``: a geometric progression from ``start`` to ``stop`` (both
    non-zero, of one sign; either may be traced)."""
    if not (is_traced(start) or is_traced(stop)):
        return np.geomspace(start, stop, num, endpoint, dtype, axis)
    start, stop = multiply(asarray(start), 1.0), multiply(asarray(stop), 1.0)
    if holds_anywhere(_untraced(start) == 0) or holds_anywhere(_untraced(stop) == 0):
        raise ValueError("funcgrad.numpy.geomspace: a geometric sequence cannot include zero; "
                         "start and stop must be non-zero")
    computed = np.result_type(start.dtype, stop.dtype, float(num), np.zeros((), dtype))
    start, stop = cast(start, computed), cast(stop, computed)
    # Negative (and complex) progressions are positive ones times the sign of start.
    out_sign = sign(start)
    start, stop = true_divide(start, out_sign), true_divide(stop, out_sign)
    result = logspace(log10(start), log10(stop), num=num, endpoint=endpoint, base=10.0,
                      dtype=computed)
    if num > 0:  # the ends are exactly start and stop, as in NumPy
        ends = broadcast_arrays(start, stop, result[0])[:2]
        middle = result[1:-1] if num > 1 and endpoint else result[1:]
        pieces = [reshape(ends[0], (1,) + np.shape(middle)[1:]), middle]
        if num > 1 and endpoint:
            pieces.append(reshape(ends[1], (1,) + np.shape(middle)[1:]))
        result = concatenate(pieces)
    result = multiply(out_sign, result)
    if axis != 0:
        result = moveaxis(result, 0, axis)
    return cast(result, computed if dtype is None else dtype)


def _untraced(x):
    """A traced value's plain value, for results that carry no derivative (integers)."""
    if isinstance(x, (list, tuple)):
        return [_untraced(item) for item in x]
    return unbox_all(x)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """``numpy.meshgrid``: coordinate arrays from 1-D coordinate vectors (traced or not)."""
    if indexing not in ("xy", "ij"):
        raise ValueError(f"funcgrad.numpy.meshgrid: indexing must be 'xy' or 'ij', got "
                         f"{indexing!r}")
    count = len(xi)
    grids = []
    for i, x in enumerate(xi):
        shape = [1] * count
        shape[i] = -1
        if indexing == "xy" and count > 1 and i < 2:
            shape[0], shape[1] = shape[1], shape[0]
        grids.append(reshape(asarray(x), tuple(shape)))
    if not sparse:
        grids = broadcast_arrays(*grids)
    return tuple(grids)


# Constants that never depend on traced values: NumPy's constructors as they are.
zeros = np.zeros
empty = np.empty
arange = np.arange
tri = np.tri


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None, like=None):
    """``numpy.eye``. For ``like=`` another library's array, ones where ``j - i == k`` from
    that library's ``arange``: NumPy's dispatch passes ``order=`` on, which Dask's ``eye``
    does not take (memory order is NumPy's concern, as in `ascontiguousarray`)."""
    other = _other_library(like)
    if other is None:
        return np.eye(N, M, k, dtype, order, device=device, like=like)
    rows = np.arange(N, like=other)
    columns = np.arange(N if M is None else M, like=other)
    return (columns[None, :] - rows[:, None] == k).astype(np.dtype(dtype))


def identity(n, dtype=None, *, like=None):
    """``numpy.identity``: ``eye(n)``, in ``like``'s library (Dask lacks identity)."""
    if _other_library(like) is None:
        return np.identity(n, dtype, like=like)
    return eye(n, dtype=float if dtype is None else dtype, like=like)


__all__ = ["array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray",
           "asarray_chkfinite", "copy", "zeros", "ones", "empty", "full", "arange", "linspace",
           "logspace", "geomspace", "meshgrid", "eye", "identity", "tri", "zeros_like", "ones_like", "full_like",
           "empty_like"]
