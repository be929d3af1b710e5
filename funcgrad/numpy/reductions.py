"""Reductions and scans, and their VJP and JVP rules.

sum, mean, prod, max, min (with NumPy's where= and initial=), their NaN-ignoring forms,
cumsum, cumprod and diff, and the constant-valued all, any, count_nonzero, nanargmax and
nanargmin (computed by NumPy from the plain values: no primitives). Statistics built on
these (var, std, median, ...) are in statistics.py, argmax and
argmin in sorting.py.
"""
import builtins
import functools
import math
import operator
import warnings

import numpy as np

from ..core import Box, as_dtype, dtype_of, full_of_part, shape_of, unbox_all
from ._axes import kept_shape, normalize_axis, normalize_one_axis
from ._base import asarray, astype, cast, chunked_like, gather, spread, sum_p, ufunc_reduction
from ._batching import may_hold, read_along
from ._batching import reduction as batch_reduction
from ._batching import scan as batch_scan
from ._rules import ArgVJP, defbatch, defjvp, defvjp, primitive, reject_out
# `where` names the where= argument of NumPy's reductions, so the function is `_select`.
from .elementwise import (add, constant_from_values, maximum, minimum, multiply, subtract,
                          true_divide)
from .elementwise import where as _select
from .indexing import getitem
from .shape_ops import broadcast_to, concatenate, diagonal, reshape, transpose

# ---- primitives --------------------------------------------------------------------
# Reductions take ``axes`` already normalized (a sorted tuple of non-negative ints),
# scans one non-negative ``axis`` and ``reverse`` (scan from the end: the transpose
# of a forward scan, which is what their VJPs need).


def _reduction(impl, name, allocates=False):
    reduction = primitive(impl, name, allocates=allocates)
    defbatch(reduction, batch_reduction)
    return reduction


def _scan(numpy_function, name):
    def impl(x, axis, reverse):
        if reverse:
            return np.flip(numpy_function(np.flip(x, axis), axis=axis), axis)
        return numpy_function(x, axis=axis)
    scan = primitive(impl, name)
    defbatch(scan, batch_scan)
    return scan


# sum is in the base layer.
def _mean_impl(x, axes, keepdims):
    return np.mean(x, axis=axes, keepdims=keepdims)


_mean = _reduction(_mean_impl, "mean")
_prod = _reduction(ufunc_reduction(np.multiply, np.prod), "prod", allocates=True)
_max = _reduction(ufunc_reduction(np.maximum, np.max), "max", allocates=True)
_min = _reduction(ufunc_reduction(np.minimum, np.min), "min", allocates=True)
_cumsum = _scan(np.cumsum, "cumsum")
_cumprod = _scan(np.cumprod, "cumprod")

# ---- helpers the rules share -------------------------------------------------------


def _count(shape, axes):
    return math.prod(shape[a] for a in axes)


def _axes_last(x, axes):
    """``x`` with ``axes`` moved to the end and merged into one: shape (kept..., n)."""
    shape = shape_of(x)
    kept = [i for i in range(len(shape)) if i not in axes]
    if kept + list(axes) != list(range(len(shape))):
        x = transpose(x, kept + list(axes))
    return reshape(x, tuple(shape[i] for i in kept) + (_count(shape, axes),))


def _axes_back(y, shape, axes):
    """Undo `_axes_last` for an array ``y`` of the merged shape."""
    kept = [i for i in range(len(shape)) if i not in axes]
    order = kept + list(axes)
    y = reshape(y, tuple(shape[i] for i in order))
    if order != list(range(len(shape))):
        y = transpose(y, tuple(np.argsort(order)))
    return y


def _shift(x, axis, by, reverse, fill):
    """``x`` moved ``by`` places along ``axis`` (towards the end, or the start if
    ``reverse``), with ``fill`` in the places left empty."""
    shape = shape_of(x)
    n = shape[axis]
    by = builtins.min(by, n)
    head = (slice(None),) * axis
    if by == n:
        return _filled_edge(x, axis, by, fill)
    chunked = chunked_like(x)
    if chunked is not None and len(chunked.chunks[axis]) == 1:
        # Dask, the axis in one chunk: x rolled along it, with the fill where it wrapped
        # round. Joined from two pieces, the axis would be split into two chunks, and the
        # rechunking that follows keeps Dask's ordering from finishing one block of the
        # other axes before the next: prod's VJP held every block (docs/out-of-core.md).
        order = np.roll(np.arange(n), -by if reverse else by)
        moved = gather(x, head + (order,), unique=True)
        wrapped = np.arange(n) >= n - by if reverse else np.arange(n) < by
        return _select(wrapped.reshape((n,) + (1,) * (len(shape) - axis - 1)), fill, moved)
    block = _filled_edge(x, axis, by, fill)
    if reverse:
        return concatenate([getitem(x, head + (slice(by, None),)), block], axis=axis)
    return concatenate([block, getitem(x, head + (slice(0, n - by),))], axis=axis)


def _filled_edge(x, axis, by, fill):
    """``fill`` in the shape of the first ``by`` places of ``x`` along ``axis``."""
    shape = shape_of(x)
    return full_of_part(x, (slice(None),) * axis + (slice(0, by),),
                        shape[:axis] + (by,) + shape[axis + 1:], fill, dtype_of(x))


def _affine_scan(a, b, axis, reverse):
    """``y[j] = a[j] * y[j-1] + b[j]`` along ``axis`` (``y[j+1]`` if ``reverse``), y = 0
    before the start, by log-depth doubling: only products and sums, so derivatives of
    every order are exact, at zeros too."""
    n = shape_of(b)[axis]
    by = 1
    while by < n:
        b = add(b, multiply(a, _shift(b, axis, by, reverse, 0)))
        if 2 * by < n:
            a = multiply(a, _shift(a, axis, by, reverse, 1))
        by *= 2
    return b


def _exclusive_cumprod(x, axis, reverse, inclusive=None):
    """The product of the elements before each one along ``axis`` (after, if ``reverse``)."""
    if inclusive is None:
        inclusive = _cumprod(x, axis=axis, reverse=reverse)
    return _shift(inclusive, axis, 1, reverse, 1)


def _product_of_others(x, axes):
    """For each element of ``x``, the product of the others it is reduced with: exclusive
    products from the left times those from the right, with no division, so exact at
    zeros to every order."""
    shape = shape_of(x)
    merged = _axes_last(x, axes)
    last = len(shape_of(merged)) - 1
    others = multiply(_exclusive_cumprod(merged, last, False),
                      _exclusive_cumprod(merged, last, True))
    return _axes_back(others, shape, axes)


def _tie_share(x, ans, axes):
    """1/k for each of the k elements equal to the max (or min) of their slice, else 0:
    ties share the derivative equally, as in JAX (NaN if the result is NaN, as in JAX)."""
    return constant_from_values(functools.partial(_tie_share_values, axes=axes), dtype_of(x),
                                x, ans)


def _tie_share_values(raw, ans, axes):
    winners = (raw == np.reshape(ans, kept_shape(np.shape(raw), axes))).astype(raw.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        return winners / np.sum(winners, axis=axes, keepdims=True)


# ---- VJP and JVP rules ---------------------------------------------------------------


def _mean_save(ans, x, axes, keepdims):
    shape = shape_of(x)
    return shape, axes, _count(shape, axes), chunked_like(x)


def _mean_pull(g, shape, axes, count, chunked):
    return spread(true_divide(g, count), shape, axes, chunked)


def _prod_save(ans, x, axes, keepdims):
    return shape_of(x), axes, _product_of_others(x, axes)


def _spread_times(g, shape, axes, factor):
    """The VJP of a reduction whose input elements each weigh `factor` in the result."""
    return multiply(spread(g, shape, axes), factor)


def _prod_jvp(t, ans, x, axes, keepdims):
    return sum_p(multiply(t, _product_of_others(x, axes)), axes=axes, keepdims=keepdims)


def _chooser_save(ans, x, axes, keepdims):
    return shape_of(x), axes, _tie_share(x, ans, axes)


def _chooser_jvp(t, ans, x, axes, keepdims):
    return sum_p(multiply(t, _tie_share(x, ans, axes)), axes=axes, keepdims=keepdims)


def _cumsum_pull(g, axis, reverse):
    return _cumsum(g, axis=axis, reverse=not reverse)


def _cumprod_save(ans, x, axis, reverse):
    # d out[j] / d x[i] = (product before i) * (product of x[i+1..j]) for j >= i, so the
    # cotangent is (product before i) * r[i] with r[i] = g[i] + x[i+1] r[i+1].
    before = _exclusive_cumprod(x, axis, reverse, inclusive=ans)
    return before, _shift(x, axis, 1, not reverse, 1), axis, reverse


def _cumprod_pull(g, before, next_x, axis, reverse):
    return multiply(before, _affine_scan(next_x, g, axis, not reverse))


def _cumprod_jvp(t, ans, x, axis, reverse):
    # The tangent obeys dout[j] = x[j] dout[j-1] + (product before j) t[j].
    before = _exclusive_cumprod(x, axis, reverse, inclusive=ans)
    return _affine_scan(x, multiply(before, t), axis, reverse)


def _linear_jvp(primitive_):
    """The JVP of a primitive that is linear in its one array argument."""
    return lambda t, ans, x, **params: primitive_(t, **params)


defvjp(_mean, ArgVJP(_mean_save, _mean_pull))
defvjp(_prod, ArgVJP(_prod_save, _spread_times))
defvjp(_max, ArgVJP(_chooser_save, _spread_times))
defvjp(_min, ArgVJP(_chooser_save, _spread_times))
defvjp(_cumsum, ArgVJP(lambda ans, x, axis, reverse: (axis, reverse), _cumsum_pull))
defvjp(_cumprod, ArgVJP(_cumprod_save, _cumprod_pull))
defjvp(_mean, _linear_jvp(_mean))
defjvp(_prod, _prod_jvp)
defjvp(_max, _chooser_jvp)
defjvp(_min, _chooser_jvp)
defjvp(_cumsum, _linear_jvp(_cumsum))
defjvp(_cumprod, _cumprod_jvp)

# ---- argument handling -------------------------------------------------------------


def _reject(function, **unsupported):
    """A clear TypeError for NumPy arguments funcgrad does not support (None: not given)."""
    reject_out(unsupported.pop("out", None), function)
    for name, value in unsupported.items():
        if value is not None:
            raise TypeError(f"funcgrad.numpy.{function}: {name}= is not supported")


def _prepare(function, a, axis, dtype=None, out=None):
    """``a`` as an array (cast to ``dtype`` if given) and ``axis`` as sorted axes."""
    reject_out(out, function)
    a = asarray(a)
    if dtype is not None and np.dtype(dtype) != dtype_of(a):
        a = astype(a, dtype)
    return a, normalize_axis(axis, len(shape_of(a)), function)


def check_nan_dtype(function, a, dtype):
    """NumPy's refusal of an integer or boolean dtype= for the NaN-ignoring statistics of
    a float or complex array."""
    if dtype is not None and _is_inexact(a) and np.dtype(dtype).kind not in "fc":
        raise TypeError(f"funcgrad.numpy.{function}: dtype={np.dtype(dtype)} for an array of "
                        f"{dtype_of(a)}: the dtype of a float or complex array's NaN-ignoring "
                        f"{function} must be float or complex too, as in NumPy")


def _initial(initial, dtype, function):
    """``initial`` in the reduction's ``dtype``, into which NumPy casts it, refused where
    the cast would change it beyond rounding (NumPy makes 2.5 into 2 in an integer
    reduction, 5 into True in a boolean one, and drops an imaginary part)."""
    dtype = np.dtype(dtype)
    if isinstance(initial, Box):
        return initial if dtype_of(initial) == dtype else astype(initial, dtype)
    value = np.asarray(initial)
    if value.dtype.kind == "c" and dtype.kind != "c":
        cast = None
    else:
        with np.errstate(invalid="ignore"):  # (NaN into an integer: refused below)
            cast = np.asarray(initial, dtype)  # (a Python int out of range: OverflowError)
    if cast is None or (dtype.kind not in "fc" and cast != value):
        raise TypeError(f"funcgrad.numpy.{function}: initial={initial!r} would change when "
                        f"cast to the reduction's dtype, {dtype} (NumPy casts it silently); "
                        f"pass a {dtype} value, or convert the array first with astype")
    return cast


def _mask(function, where_, shape):
    """A where= mask as a boolean array of ``shape`` (None for where=True)."""
    if where_ is True:
        return None
    mask = unbox_all(where_)
    mask = astype(mask, bool) if isinstance(mask, Box) else as_dtype(mask, np.dtype(bool))
    if np.broadcast_shapes(mask.shape, shape) != shape:
        raise ValueError(f"funcgrad.numpy.{function}: where= of shape {mask.shape} does not "
                         f"broadcast to the array's shape {shape}")
    return broadcast_to(mask, shape)


def _masked(function, a, where_, fill):
    """``a`` with ``fill`` where the where= mask is False (``a`` itself for where=True)."""
    if where_ is True:  # the common case, first: sum is in every loss
        return a
    return _select(_mask(function, where_, shape_of(a)), a, fill)


def _is_inexact(a):
    return dtype_of(a).kind in "fc"


def _nan_mask(a):
    """Where ``a`` is NaN, as a constant boolean array, or None if it has no NaN."""
    if not _is_inexact(a):
        return None
    mask = np.isnan(unbox_all(a))
    return mask if may_hold(mask) else None


# ---- sums, products, means -----------------------------------------------------------


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """``numpy.sum``: the sum over ``axis`` (None, int or tuple), differentiable."""
    a, axes = _prepare("sum", a, axis, dtype, out)
    result = sum_p(_masked("sum", a, where, 0), axes=axes, keepdims=bool(keepdims))
    if initial is not None:
        result = add(result, _initial(initial, dtype or dtype_of(result), "sum"))
    # In dtype= (also prod's and the scans'): NumPy's reductions of small integers widen
    # to int64 unless dtype= says otherwise. Cast back: the values are those NumPy
    # computes in dtype (integer sums and products wrap modulo the width either way).
    return cast(result, dtype)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """``numpy.prod``; derivatives are products of the other elements, exact at zeros."""
    a, axes = _prepare("prod", a, axis, dtype, out)
    result = _prod(_masked("prod", a, where, 1), axes=axes, keepdims=bool(keepdims))
    if initial is not None:
        result = multiply(result, _initial(initial, dtype or dtype_of(result), "prod"))
    return cast(result, dtype)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """``numpy.mean`` over ``axis``; with where=, the mean of the selected elements."""
    a, axes = _prepare("mean", a, axis, dtype, out)
    mask = _mask("mean", where, shape_of(a))
    if mask is None:
        result = _mean(a, axes=axes, keepdims=bool(keepdims))
    else:
        if not _is_inexact(a):
            a = astype(a, np.float64)
        total = sum_p(_select(mask, a, 0), axes=axes, keepdims=bool(keepdims))
        result = _divide_by_count(total, mask, axes, keepdims)
    # An integer dtype= gives an integer mean (the quotient truncated), as in NumPy.
    return result if dtype is None or dtype_of(result) == dtype else astype(result, dtype)


def _divide_by_count(total, mask, axes, keepdims):
    """``total`` over the number of True elements of ``mask`` in each slice (NaN, with
    NumPy's warning, where there are none)."""
    count = np.sum(mask, axis=axes, keepdims=bool(keepdims))
    if not isinstance(count, Box) and not count.all():
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=3)
    with np.errstate(invalid="ignore", divide="ignore"):
        return true_divide(total, count.astype(np.finfo(dtype_of(total)).dtype))


# ---- extrema -----------------------------------------------------------------------


def _extremum(function, primitive_, combine, fill, a, axis, out, keepdims, initial, where_):
    a, axes = _prepare(function, a, axis, out=out)
    if initial is not None:
        initial = _initial(initial, dtype_of(a), function)
    mask = _mask(function, where_, shape_of(a))
    if mask is not None:
        if initial is None:
            raise ValueError(f"funcgrad.numpy.{function}: a where= mask needs initial= (the "
                             f"value for slices with nothing selected), as in NumPy")
        a = _select(mask, a, _identity(dtype_of(a), fill))
    if initial is not None and 0 in [shape_of(a)[i] for i in axes]:
        # empty slices, which NumPy answers with `initial`: the identity stands in for
        # their extremum (a, having no elements, has an empty derivative)
        a = _identity_slices(a, axes, fill)
    result = primitive_(a, axes=axes, keepdims=bool(keepdims))
    # Ties with `initial` share the derivative, as in JAX.
    return result if initial is None else combine(result, initial)


def _identity_slices(a, axes, sign):
    """For an empty ``a``: the identity of max (sign -1) or min (sign 1), in a's shape but
    with length 1 along its empty axes of ``axes``."""
    shape = tuple(1 if i in axes and n == 0 else n for i, n in enumerate(shape_of(a)))
    return broadcast_to(asarray(_identity(dtype_of(a), sign), dtype_of(a)), shape)


def _identity(dtype, sign):
    """The smallest (sign -1) or largest (sign 1) value of ``dtype``."""
    if dtype.kind in "fc":
        return sign * np.inf
    if dtype.kind == "b":
        return sign > 0
    return np.iinfo(dtype).max if sign > 0 else np.iinfo(dtype).min


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """``numpy.max``; tied maxima share the derivative equally, as in JAX."""
    return _extremum("max", _max, maximum, -1, a, axis, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """``numpy.min``; tied minima share the derivative equally, as in JAX."""
    return _extremum("min", _min, minimum, 1, a, axis, out, keepdims, initial, where)


amax = max
amin = min

# ---- ignoring NaNs: NaN elements get zero derivatives ---------------------------------


def _replace_nan(a, value):
    a = asarray(a)
    mask = _nan_mask(a)
    return a if mask is None else _select(mask, value, a)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """``numpy.nansum``: NaNs count as zero (and get zero derivatives)."""
    return sum(_replace_nan(a, 0), axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """``numpy.nanprod``: NaNs count as one (and get zero derivatives)."""
    return prod(_replace_nan(a, 1), axis, dtype, out, keepdims, initial, where)


def nancumsum(a, axis=None, dtype=None, out=None):
    """``numpy.nancumsum``: NaNs count as zero."""
    return cumsum(_replace_nan(a, 0), axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """``numpy.nancumprod``: NaNs count as one."""
    return cumprod(_replace_nan(a, 1), axis, dtype, out)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """``numpy.nanmean``: the mean of the non-NaN elements (NaN for all-NaN slices)."""
    check_nan_dtype("nanmean", asarray(a), dtype)
    a, axes = _prepare("nanmean", a, axis, dtype, out)
    mask, nans = _mask("nanmean", where, shape_of(a)), _nan_mask(a)
    if nans is None:
        return mean(a, axes, dtype, keepdims=keepdims, where=True if mask is None else mask)
    valid = ~nans if mask is None else mask & ~nans
    total = sum_p(_select(valid, a, 0), axes=axes, keepdims=bool(keepdims))
    return _divide_by_count(total, valid, axes, keepdims)


def _nan_extremum(function, extremum, fill, a, axis, out, keepdims, initial, where_):
    a = asarray(a)
    if initial is not None:  # (checked here, for errors that name this function)
        initial = _initial(initial, dtype_of(a), function)
    nans = _nan_mask(a)
    if nans is None:
        return extremum(a, axis, out, keepdims, initial, where_)
    result = extremum(_select(nans, fill * np.inf, a), axis, out, keepdims, initial, where_)
    if initial is not None:
        return result
    axes = normalize_axis(axis, nans.ndim, function)
    mask = _mask(function, where_, nans.shape)
    all_nan = np.all(nans, axis=axes, keepdims=bool(keepdims),
                     where=True if mask is None else mask)
    if not may_hold(all_nan):
        return result
    if not isinstance(all_nan, Box):  # (a batch's elements are not reported)
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    return _select(all_nan, np.nan, result)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """``numpy.nanmax``: the max of the non-NaN elements (NaN for all-NaN slices)."""
    return _nan_extremum("nanmax", max, -1, a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """``numpy.nanmin``: the min of the non-NaN elements (NaN for all-NaN slices)."""
    return _nan_extremum("nanmin", min, 1, a, axis, out, keepdims, initial, where)


# ---- scans -------------------------------------------------------------------------


def _scanner(primitive_, name):
    def scan(a, axis=None, dtype=None, out=None):
        a, _ = _prepare(name, a, None, dtype, out)
        if axis is None:
            a, axis = reshape(a, (-1,)), 0
        axis = normalize_one_axis(axis, len(shape_of(a)), name)
        return cast(primitive_(a, axis=axis, reverse=False), dtype)
    scan.__name__ = name
    return scan


cumsum = _scanner(_cumsum, "cumsum")
cumsum.__doc__ = "``numpy.cumsum`` along ``axis`` (None: of the flattened array)."
cumprod = _scanner(_cumprod, "cumprod")
cumprod.__doc__ = ("``numpy.cumprod`` along ``axis`` (None: of the flattened array); "
                   "derivatives of every order are exact at zeros.")


def diff(a, n=1, axis=-1, prepend=None, append=None):
    """``numpy.diff``: the ``n``-th differences along ``axis``; ``prepend`` and ``append``
    (differentiable too; None: nothing) are joined to ``a`` first."""
    if operator.index(n) < 0:
        raise ValueError(f"funcgrad.numpy.diff: order n must be non-negative, got {n}")
    a = asarray(a)
    if n == 0:  # NumPy ignores prepend and append then
        return a
    shape = shape_of(a)
    if not shape:
        raise ValueError("funcgrad.numpy.diff: the input must be at least one-dimensional")
    axis = normalize_one_axis(axis, len(shape), "diff")
    parts = [a]
    if prepend is not None:
        parts.insert(0, _edge(prepend, shape, axis))
    if append is not None:
        parts.append(_edge(append, shape, axis))
    if len(parts) > 1:
        a = concatenate(parts, axis=axis)
    head = (slice(None),) * axis
    difference = np.not_equal if dtype_of(a) == np.bool_ else subtract
    for _ in range(n):
        a = difference(getitem(a, head + (slice(1, None),)), getitem(a, head + (slice(None, -1),)))
    return a


def _edge(value, shape, axis):
    """A prepend= or append= value; a scalar becomes one slice along ``axis``."""
    value = asarray(value)
    if not shape_of(value):
        value = broadcast_to(value, shape[:axis] + (1,) + shape[axis + 1:])
    return value


# ---- constants: boolean and integer results, computed from the plain values ------------


def _values(a):
    """The plain values of ``a`` (traced, or a list that may hold traced values)."""
    return unbox_all(asarray(a))


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """``numpy.all`` (a constant: no derivative)."""
    _reject("all", out=out)
    a = _values(a)
    return read_along(np.all, a, normalize_axis(axis, a.ndim, "all"), keepdims=keepdims,
                      where=_unless_everywhere(where))


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """``numpy.any`` (a constant: no derivative)."""
    _reject("any", out=out)
    a = _values(a)
    return read_along(np.any, a, normalize_axis(axis, a.ndim, "any"), keepdims=keepdims,
                      where=_unless_everywhere(where))


def _unless_everywhere(where):
    # where=True is the default, left out for libraries whose any/all take no where (CuPy).
    return None if where is True else unbox_all(where)


def count_nonzero(a, axis=None, *, keepdims=False):
    """``numpy.count_nonzero`` (a constant: no derivative)."""
    a = _values(a)
    axes = normalize_axis(axis, a.ndim, "count_nonzero")
    if axis is None and not keepdims and not isinstance(a, Box):
        return np.count_nonzero(a)  # NumPy's int, as NumPy gives it
    return read_along(np.count_nonzero, a, axes, keepdims=keepdims)


def _arg_extremum(function, numpy_function):
    def arg_extremum(a, axis=None, out=None, *, keepdims=False):
        _reject(function, out=out)
        a = _values(a)
        if axis is not None:
            axis = normalize_one_axis(axis, a.ndim, function)
        return read_along(numpy_function, a, axis, keepdims=keepdims)
    arg_extremum.__name__ = function
    arg_extremum.__doc__ = f"``numpy.{function}`` (a constant: no derivative)."
    return arg_extremum


# argmax and argmin are in sorting.py.
nanargmax = _arg_extremum("nanargmax", np.nanargmax)
nanargmin = _arg_extremum("nanargmin", np.nanargmin)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """``numpy.trace``: the sum along the diagonal."""
    reject_out(out, "trace")
    return sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


__all__ = [
    "trace", "sum", "prod", "mean", "max", "min", "amax", "amin", "nansum", "nanprod", "nancumsum",
    "nancumprod", "nanmean", "nanmax", "nanmin", "cumsum", "cumprod", "diff", "all", "any",
    "count_nonzero", "nanargmax", "nanargmin",
]
