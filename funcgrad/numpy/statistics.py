"""Statistics: var, std, ptp, average, median, quantile, percentile and NaN-ignoring forms.

All are compositions of differentiable functions, so they need no rules of their own.
Order statistics pick elements by a stable sort of the values, so among tied elements
the derivative goes to the one a stable sort puts at the chosen place, as in JAX.
"""
import math
import warnings

import numpy as np

from ..core import Box, as_dtype, dtype_of, shape_of, unbox_all
from ..debug import user_origin
from ._axes import kept_shape, normalize_axis
from ._base import astype, cast
from ._batching import holds_anywhere, may_hold, plain_value, read_values
from .creation import asarray
from .elementwise import add, conjugate, multiply, real, sqrt, subtract, true_divide
from .elementwise import where as _select
from .indexing import getitem
from .reductions import (_axes_last, _count, _is_inexact, _mask, _nan_mask, _prepare, _reject,
                         check_nan_dtype, max, mean, min, sum)
from .shape_ops import broadcast_to, reshape, transpose


def _warn_at_user_line(message):
    """NumPy's RuntimeWarning, shown at the user's line: var, std, nanstd, median, ... reach
    the code that warns through different numbers of library frames."""
    origin = user_origin()
    if origin is None:
        warnings.warn(message, RuntimeWarning, stacklevel=2)
    else:
        warnings.warn_explicit(message, RuntimeWarning, origin.filename, origin.lineno)


# ---- variance and standard deviation --------------------------------------------------


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """``numpy.var``: the mean squared deviation from the mean, divided by
    ``n - ddof`` instead of ``n`` (where n <= ddof: inf or NaN, with NumPy's warning, and
    a zero derivative).
    ``correction`` is the array-API name of ``ddof``; ``mean`` a precomputed mean
    (with keepdims=True) to use instead."""
    if _integer(dtype):
        return _in_integers(np.var, a, axis, dtype, out, ddof, keepdims, where, mean,
                            correction)
    a, axes = _prepare("var", a, axis, dtype, out)
    if not _is_inexact(a):
        a = _cast(a, np.float64)
    mask = _mask("var", where, shape_of(a))
    # (a complex dtype= gives a complex variance, as NumPy's sum of the squares in it)
    return cast(_variance(a, axes, _ddof("var", ddof, correction), keepdims, mask, mean),
                dtype)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """``numpy.std``: the square root of `var` (its derivative is NaN where var is 0, as
    in JAX)."""
    if _integer(dtype):
        return _in_integers(np.std, a, axis, dtype, out, ddof, keepdims, where, mean,
                            correction)
    return sqrt(var(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                    correction=correction))


def _integer(dtype):
    return dtype is not None and np.dtype(dtype).kind not in "fc"


def _in_integers(function, a, axis, dtype, out, ddof, keepdims, where, mean, correction):
    """A variance or standard deviation with an integer dtype=: NumPy's own, on the
    values (its mean is truncated to the dtype, and so is the result: no derivative)."""
    _reject(function.__name__, out=out)
    options = {} if correction is None else {"correction": correction}
    return read_values(function, a, axis, dtype, ddof=ddof, keepdims=keepdims, where=where,
                       mean=mean, **options)


def _ddof(function, ddof, correction):
    if correction is None:
        return ddof
    if ddof != 0:
        raise ValueError(f"funcgrad.numpy.{function}: give ddof or correction, not both")
    return correction


def _variance(a, axes, ddof, keepdims, mask, center=None, degenerate=None):
    """The variance of ``a`` over ``axes``, counting only elements where ``mask`` (None:
    all) is True.

    Where ``n - ddof <= 0`` the result is ``degenerate``, or NumPy's ``var``'s inf (NaN if
    every deviation is 0) if None: a constant there, so its JVP is zero, as in JAX.
    """
    shape = shape_of(a)
    where_ = True if mask is None else mask
    if center is None and mask is None:
        center = mean(a, axes, keepdims=True)
    elif center is None:
        with warnings.catch_warnings():  # NumPy's var warns only of the degrees of freedom
            warnings.filterwarnings("ignore", "Mean of empty slice", RuntimeWarning)
            center = mean(a, axes, keepdims=True, where=where_)
    deviation = subtract(a, center)
    if dtype_of(deviation).kind == "c":
        squares = real(multiply(deviation, conjugate(deviation)))
    else:
        squares = multiply(deviation, deviation)
    total = sum(squares, axes, keepdims=keepdims, where=where_)
    if mask is None:
        count = _count(shape, axes)
    else:
        count = np.sum(mask, axis=axes, keepdims=bool(keepdims))
    divisor = count - ddof
    # ([()]: a count is a NumPy scalar, not a 0-d array, which CuPy would refuse.)
    divisor = (astype(divisor, dtype_of(total)) if isinstance(divisor, Box)
               else as_dtype(divisor, dtype_of(total))[()])
    undefined = divisor <= 0
    if may_hold(undefined):
        if not isinstance(undefined, Box):  # (a batch's elements are not reported)
            _warn_at_user_line("Degrees of freedom <= 0 for slice")
        if degenerate is None:
            with np.errstate(divide="ignore", invalid="ignore"):
                degenerate = unbox_all(total) / 0
        total = _select(undefined, degenerate, total)
        divisor = np.where(undefined, 1, divisor)
    return true_divide(total, divisor)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    """``numpy.nanvar``: `var` of the non-NaN elements (NaNs get zero derivatives); NaN
    where there are no more than ``ddof`` of them."""
    check_nan_dtype("nanvar", asarray(a), dtype)
    if _integer(dtype):  # (of an integer array, which holds no NaN)
        return _in_integers(np.var, a, axis, dtype, out, ddof, keepdims, where, mean,
                            correction)
    a, axes = _prepare("nanvar", a, axis, dtype, out)
    if not _is_inexact(a):
        a = _cast(a, np.float64)
    mask, nans = _mask("nanvar", where, shape_of(a)), _nan_mask(a)
    if nans is not None:
        mask = ~nans if mask is None else mask & ~nans
        a = _select(nans, 0, a)
    return cast(_variance(a, axes, _ddof("nanvar", ddof, correction), keepdims, mask, mean,
                          degenerate=np.nan), dtype)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    """``numpy.nanstd``: the square root of `nanvar`."""
    check_nan_dtype("nanstd", asarray(a), dtype)
    if _integer(dtype):
        return _in_integers(np.std, a, axis, dtype, out, ddof, keepdims, where, mean,
                            correction)
    return sqrt(nanvar(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                       correction=correction))


def ptp(a, axis=None, out=None, keepdims=False):
    """``numpy.ptp``: max minus min (ties share the derivative, as in max and min)."""
    _reject("ptp", out=out)
    return subtract(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


# ---- weighted average ----------------------------------------------------------------


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """``numpy.average``: the mean, or ``sum(a * weights) / sum(weights)`` over ``axis``
    (differentiable in ``a`` and ``weights``). With ``returned``, also the sum of the
    weights (the count without weights), broadcast to the average's shape."""
    a = asarray(a)
    shape = shape_of(a)
    axes = normalize_axis(axis, len(shape), "average")
    if weights is None:
        avg = mean(a, axes, keepdims=keepdims)
        scale = dtype_of(avg).type(_count(shape, axes))
    else:
        weights = _aligned_weights(asarray(weights), shape, axis)
        dtype = np.result_type(dtype_of(a), dtype_of(weights),
                               *([] if _is_inexact(a) else [np.float64]))
        a, weights = _cast(a, dtype), _cast(weights, dtype)
        scale = sum(broadcast_to(weights, shape), axes, keepdims=keepdims)
        if holds_anywhere(unbox_all(scale) == 0):
            raise ZeroDivisionError("funcgrad.numpy.average: the weights sum to zero, so "
                                    "they cannot be normalized")
        avg = true_divide(sum(multiply(a, weights), axes, keepdims=keepdims), scale)
    if not returned:
        return avg
    if shape_of(scale) != shape_of(avg):
        scale = broadcast_to(scale, shape_of(avg))
    return avg, scale


def _cast(x, dtype):
    return x if dtype_of(x) == dtype else astype(x, dtype)


def _aligned_weights(weights, shape, axis):
    """Weights of ``a``'s shape, or of its shape along ``axis``, reshaped to broadcast."""
    weights_shape = shape_of(weights)
    if weights_shape == shape:
        return weights
    if axis is None:
        raise TypeError(f"funcgrad.numpy.average: axis must be given when the shapes of a "
                        f"{shape} and weights {weights_shape} differ")
    # The user's axis order (not sorted) says which weight axis goes with which of a's.
    order = [ax % len(shape) for ax in ((axis,) if np.isscalar(axis) else axis)]
    if weights_shape != tuple(shape[ax] for ax in order):
        raise ValueError(f"funcgrad.numpy.average: weights of shape {weights_shape} do not "
                         f"match a's shape {shape} along axis {axis}")
    weights = transpose(weights, tuple(np.argsort(order)))
    return reshape(weights, tuple(n if i in order else 1 for i, n in enumerate(shape)))


# ---- order statistics ----------------------------------------------------------------

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")
# median's own method: the mean of the two middle values ((a + b) / 2, NumPy's median),
# where quantile's midpoint interpolates halfway from the upper one.
_MIDDLE_MEAN = "middle mean"


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None, interpolation=None):
    """``numpy.quantile`` for ``q`` in [0, 1] (scalar or array, differentiable too; the
    result's leading axes are q's), by the methods linear, lower, higher, nearest and
    midpoint."""
    _reject("quantile", out=out, weights=weights, interpolation=interpolation)
    return _quantile("quantile", a, _checked_q("quantile", q, 1), axis, method, keepdims)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None, interpolation=None):
    """``numpy.percentile``: `quantile` with ``q`` in percent."""
    _reject("percentile", out=out, weights=weights, interpolation=interpolation)
    return _quantile("percentile", a, _checked_q("percentile", q, 100), axis, method,
                     keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """``numpy.median``: the middle element, or the mean of the two middle ones."""
    _reject("median", out=out)
    return _quantile("median", a, 0.5, axis, _MIDDLE_MEAN, keepdims)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None, interpolation=None):
    """``numpy.nanquantile``: `quantile` of the non-NaN elements (NaNs get zero
    derivatives; all-NaN slices give NaN)."""
    _reject("nanquantile", out=out, weights=weights, interpolation=interpolation)
    return _quantile("nanquantile", a, _checked_q("nanquantile", q, 1), axis, method,
                     keepdims, skip_nan=True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None, interpolation=None):
    """``numpy.nanpercentile``: `nanquantile` with ``q`` in percent."""
    _reject("nanpercentile", out=out, weights=weights, interpolation=interpolation)
    return _quantile("nanpercentile", a, _checked_q("nanpercentile", q, 100), axis, method,
                     keepdims, skip_nan=True)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """``numpy.nanmedian``: `median` of the non-NaN elements."""
    _reject("nanmedian", out=out)
    return _quantile("nanmedian", a, 0.5, axis, _MIDDLE_MEAN, keepdims, skip_nan=True)


def _checked_q(function, q, top):
    """``q`` (in [0, top]) as a fraction: an array, or a Python float, which stays weak in
    NumPy's dtype promotion, or a traced value."""
    if not isinstance(q, (Box, int, float)):
        q = np.asarray(q)
    q_raw = plain_value(q)
    if holds_anywhere(~((q_raw >= 0) & (q_raw <= top))):  # (NaN too)
        what = "quantiles" if top == 1 else "percentiles"
        raise ValueError(f"funcgrad.numpy.{function}: {what} must be in the range [0, {top}]")
    if top == 1:
        return q
    return q / top if isinstance(q, (int, float)) else true_divide(q, top)


def _quantile(function, a, q, axis, method, keepdims, skip_nan=False):
    """The ``q`` quantiles of ``a`` over ``axis``: shape q.shape + the reduced shape."""
    if method not in _METHODS and method != _MIDDLE_MEAN:
        raise ValueError(f"funcgrad.numpy.{function}: method must be one of {_METHODS}, "
                         f"got {method!r}")
    a = asarray(a)
    if method != _MIDDLE_MEAN and dtype_of(a).kind == "c":  # (NumPy's medians sort complex)
        raise TypeError(f"funcgrad.numpy.{function}: a must be an array of real numbers, "
                        f"got dtype {dtype_of(a)}; take the quantiles of its real part or "
                        f"of its abs")
    shape = shape_of(a)
    axes = normalize_axis(axis, len(shape), function)
    if _count(shape, axes) == 0:
        raise ValueError(f"funcgrad.numpy.{function}: cannot take quantiles of an empty "
                         f"slice")
    if method == _MIDDLE_MEAN:  # in the dtype of NumPy's mean of the two
        a = _cast(a, np.result_type(dtype_of(a), 0.5))
    values = _axes_last(a, axes)                       # (batch..., n)
    raw = unbox_all(values)
    batch, q_raw = raw.shape[:-1], plain_value(q)
    q_axes = (1,) * q_raw.ndim
    nans = np.isnan(raw) if _is_inexact(a) else np.zeros(raw.shape, bool)
    # NaNs sort last; with skip_nan only the others count.
    count = raw.shape[-1] - np.sum(nans, axis=-1) if skip_nan else np.full(batch, raw.shape[-1])
    # The last sorted place used, in q's precision, as NumPy computes positions.
    last = np.reshape(np.maximum(count, 1) - 1, batch + q_axes).astype(
        q_raw.dtype if q_raw.dtype.kind == "f" else np.float64)
    order = np.argsort(raw, axis=-1, kind="stable")
    result = _interpolate(method, values, order, q, last)   # (batch..., *q.shape)
    undefined = count == 0 if skip_nan else nans.any(axis=-1)
    if may_hold(undefined):
        if skip_nan and not isinstance(undefined, Box):
            _warn_at_user_line("All-NaN slice encountered")
        result = _select(np.reshape(undefined, batch + q_axes), np.nan, result)
    return _leading_q_axes(result, q_raw.ndim, shape, axes, keepdims)


def _interpolate(method, values, order, q, last):
    """The values at sorted positions ``q * last`` (shape batch + q.shape) along the last
    axis of ``values``, whose stable sort is ``order``, interpolated by ``method``."""
    position = plain_value(q) * last
    if method == "nearest":  # halves go to the even place, as in NumPy
        return _take_sorted(values, order, np.around(position).astype(np.intp))
    low, high = np.floor(position).astype(np.intp), np.ceil(position).astype(np.intp)
    if method == "lower" or (method == _MIDDLE_MEAN and not may_hold(low != high)):
        return _take_sorted(values, order, low)
    if method == "higher":
        return _take_sorted(values, order, high)
    lower, upper = _take_sorted(values, order, low), _take_sorted(values, order, high)
    if method == _MIDDLE_MEAN:
        return multiply(add(lower, upper), 0.5)
    # linear and midpoint: NumPy's lerp between the places below and above the position (at
    # a whole position the same place, as JAX and PyTorch take it: NumPy lerps toward the
    # next place with a weight of 0, which is NaN beside an infinity).
    if method == "midpoint":
        weight = np.where(low != high, 0.5, 0.0).astype(position.dtype)
    else:
        weight = _linear_weight(q, last, low)
    # From the nearer end: the difference in the values' dtype, the weight in q's (a Python
    # float's rounded to the values' dtype, as NumPy's promotion does).
    weight_dtype = np.result_type(dtype_of(values), q if isinstance(q, float) else dtype_of(q))
    difference = subtract(upper, lower)
    near_lower = add(lower, multiply(difference, _in_dtype(weight, weight_dtype)))
    near_upper = subtract(upper, multiply(difference, _in_dtype(1 - weight, weight_dtype)))
    return _select(plain_value(weight) >= 0.5, near_upper, near_lower)


def _linear_weight(q, last, low):
    """How far each position ``q * last`` lies past ``low``, in q's precision (as NumPy
    computes it): differentiable in a traced q."""
    if isinstance(q, Box):
        q_dtype = dtype_of(q)
        return subtract(multiply(q, last.astype(q_dtype)), low.astype(q_dtype))
    return np.asarray(q) * last - low


def _in_dtype(weight, dtype):
    """A weight (or its complement) in `dtype`, rounded once from q's precision; a traced
    one as it is (its promotion is NumPy's)."""
    return weight if isinstance(weight, Box) else weight.astype(dtype)


def _take_sorted(values, order, index):
    """``values`` at the sorted places ``index`` (shape batch + q.shape) along its last
    axis, whose stable sort is ``order``."""
    batch = order.shape[:-1]
    q_ndim = index.ndim - len(batch)
    places = math.prod(index.shape[len(batch):])  # (not -1: the batch may be empty)
    positions = np.take_along_axis(order, index.reshape(batch + (places,)), axis=-1)
    grid = tuple(g.reshape(g.shape + (1,) * q_ndim) for g in np.indices(batch, sparse=True))
    return getitem(values, grid + (positions.reshape(index.shape),))


def _leading_q_axes(result, q_ndim, shape, axes, keepdims):
    """Move q's axes from last to first, and restore reduced axes if ``keepdims``."""
    if q_ndim:
        batch_ndim = len(shape_of(result)) - q_ndim
        result = transpose(result, tuple(range(batch_ndim, batch_ndim + q_ndim))
                           + tuple(range(batch_ndim)))
    if keepdims:
        result = reshape(result, shape_of(result)[:q_ndim] + kept_shape(shape, axes))
    return result


__all__ = ["var", "std", "nanvar", "nanstd", "ptp", "average", "quantile", "percentile",
           "median", "nanquantile", "nanpercentile", "nanmedian"]
