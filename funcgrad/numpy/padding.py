"""``numpy.pad``, differentiable, in every mode of NumPy's but 'empty' (whose padding is
undefined).

'constant' places the array into zeros (its VJP is a slice); 'edge', 'wrap', and
'reflect' and 'symmetric' of the default reflect_type 'even' are one gather whose source
positions NumPy's own pad of ``arange`` computes. The modes whose padding is computed from
the values ('maximum', 'minimum', 'mean', 'median', 'linear_ramp', and the 'odd'
reflections) pad one axis after the other, as NumPy does (the statistics of a later axis
see the padding of the earlier ones), each axis by joining what they compute to the array.
"""
import operator

import numpy as np

from ..core import Box, unbox_all
from ._base import add_at_zeros, as_array, astype, gather
from .creation import linspace
from .elementwise import multiply, subtract
from .elementwise_special import round as _round
from .indexing import getitem
from .reductions import max as _max, mean, min as _min
from .shape_ops import broadcast_to, concatenate, flip, squeeze
from .statistics import median

_GATHERED = ("edge", "reflect", "symmetric", "wrap")
_STATISTICS = {"maximum": _max, "minimum": _min, "mean": mean, "median": median}
_OPTIONS = {"constant": {"constant_values"}, "edge": set(), "wrap": set(),
            "reflect": {"reflect_type"}, "symmetric": {"reflect_type"},
            "linear_ramp": {"end_values"}, **{mode: {"stat_length"} for mode in _STATISTICS}}


def _pad_widths(pad_width, ndim):
    widths = np.asarray(unbox_all(pad_width))  # (a guard on its value under jit)
    if widths.dtype.kind not in "iu":
        raise TypeError(f"funcgrad.numpy.pad: pad_width must be integers, got {pad_width!r}")
    try:
        widths = np.broadcast_to(widths, (ndim, 2))
    except ValueError:
        raise ValueError(f"funcgrad.numpy.pad: pad_width {pad_width!r} does not fit an array "
                         f"of {ndim} dimensions") from None
    if widths.size and widths.min() < 0:
        raise ValueError(f"funcgrad.numpy.pad: pad_width must not be negative, got "
                         f"{pad_width!r}")
    return [(int(before), int(after)) for before, after in widths]


def pad(array, pad_width, mode="constant", **kwargs):
    """``numpy.pad``: ``array`` with ``pad_width`` values before and after each axis,
    made as ``mode`` says."""
    array = as_array(array)
    shape = np.shape(array)
    widths = _pad_widths(pad_width, len(shape))
    if mode not in _OPTIONS:
        error = NotImplementedError if mode == "empty" else ValueError
        raise error(f"funcgrad.numpy.pad: mode={mode!r} is not supported; use one of "
                    f"{', '.join(_OPTIONS)} ('empty' leaves the padding undefined)")
    unexpected = set(kwargs) - _OPTIONS[mode]
    if unexpected:
        raise TypeError(f"funcgrad.numpy.pad: unsupported keyword arguments {sorted(unexpected)} "
                        f"for mode {mode!r}")
    if mode == "constant":
        return _pad_constant(array, shape, widths, kwargs.get("constant_values", 0))
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"funcgrad.numpy.pad: reflect_type must be 'even' or 'odd', got "
                         f"{reflect_type!r}")
    if mode in _GATHERED and reflect_type == "even":
        sources = [np.pad(np.arange(n), w, mode=mode) for n, w in zip(shape, widths)]
        return gather(array, np.ix_(*sources), unique=False)
    if mode in _STATISTICS:
        pairs = _pairs(kwargs.get("stat_length"), len(shape), "stat_length")
    elif mode == "linear_ramp":
        pairs = _pairs(kwargs.get("end_values", 0), len(shape), "end_values")
    else:  # (the odd reflections take no option)
        pairs = [None] * len(shape)
    for axis, ((before, after), pair) in enumerate(zip(widths, pairs)):
        if before or after:
            if shape[axis] == 0:
                raise ValueError(f"funcgrad.numpy.pad: can't extend empty axis {axis} using "
                                 f"modes other than 'constant' or 'empty'")
            array = _pad_axis(array, axis, before, after, mode, pair)
    return array


def _pad_constant(array, shape, widths, constant_values):
    if _traced(constant_values):
        raise TypeError("funcgrad.numpy.pad: constant_values cannot be traced; pad with zeros "
                        "and add the traced value where funcgrad.numpy.pad(ones_like(x), ...) "
                        "is zero")
    dtype = np.result_type(array)
    padded = tuple(n + before + after for n, (before, after) in zip(shape, widths))
    inner = tuple(slice(before, before + n) for n, (before, _) in zip(shape, widths))
    out = add_at_zeros(array, index=inner, unique=True, shape=padded, dtype=dtype)
    if np.any(np.asarray(constant_values) != 0):
        out = out + np.pad(np.zeros(shape, dtype), widths, constant_values=constant_values)
    return out


def _traced(option):
    """Whether a pad option (a number, or a sequence of them) holds a traced value."""
    return isinstance(option, Box) or any(isinstance(v, Box) for v in np.ravel(
        np.asarray(option, object)))


def _pad_axis(x, axis, before, after, mode, pair):
    """``x`` padded along ``axis`` (by values computed from it, in its dtype); ``pair``:
    the axis's stat_length or end_values."""
    if mode in _STATISTICS:
        left, right = _statistics(x, axis, _STATISTICS[mode], pair)
    elif mode == "linear_ramp":
        left, right = _ramps(x, axis, before, after, pair)
    else:
        return _reflected_odd(x, axis, before, after, include_edge=mode == "symmetric")
    shape = list(np.shape(x))
    shape[axis] = before
    left = broadcast_to(left, tuple(shape))
    shape[axis] = after
    return concatenate([left, x, broadcast_to(right, tuple(shape))], axis=axis)


def _pairs(value, ndim, name):
    """A pad option (a number, a pair, or a pair per axis; None: none) as a pair per axis."""
    if value is None:
        return [(None, None)] * ndim
    if _traced(value):
        raise TypeError(f"funcgrad.numpy.pad: {name} cannot be traced")
    try:  # (NumPy scalars, whose dtype counts in linspace's, as NumPy's pad passes them)
        return np.broadcast_to(np.asarray(value), (ndim, 2))
    except ValueError:
        raise ValueError(f"funcgrad.numpy.pad: {name} {value!r} does not fit an array of "
                         f"{ndim} dimensions") from None


def _part(x, axis, start, stop):
    return getitem(x, (slice(None),) * axis + (slice(start, stop),))


def _statistics(x, axis, statistic, lengths):
    """The statistic of the first and of the last ``lengths`` values along ``axis`` (all
    of them for None), each with length 1 along it; rounded for an integer ``x``, as
    NumPy's."""
    n = np.shape(x)[axis]
    left_length, right_length = (n if length is None else min(operator.index(length), n)
                                 for length in lengths)
    if min(left_length, right_length) < 0:
        raise ValueError("funcgrad.numpy.pad: stat_length must not be negative")
    if 0 in (left_length, right_length):  # (NumPy's mean and median pad with NaN there)
        raise ValueError("funcgrad.numpy.pad: stat_length of 0 yields no value for padding")
    dtype = np.result_type(x)
    stats = []
    for start, stop in ((0, left_length), (n - right_length, n)):
        stat = statistic(_part(x, axis, start, stop), axis=axis, keepdims=True)
        if dtype.kind in "iu" and np.result_type(stat) != dtype:
            stat = astype(_round(stat), dtype)
        stats.append(stat)
    return stats


def _ramps(x, axis, before, after, ends):
    """Linear ramps from the end values to the edges (the edge itself excluded), as
    NumPy's linspace in x's dtype."""
    n = np.shape(x)[axis]
    dtype = np.result_type(x)
    left = linspace(ends[0], squeeze(_part(x, axis, 0, 1), axis), before, endpoint=False,
                    dtype=dtype, axis=axis)
    right = linspace(ends[1], squeeze(_part(x, axis, n - 1, n), axis), after,
                     endpoint=False, dtype=dtype, axis=axis)
    return left, flip(right, axis)


def _reflected_odd(x, axis, before, after, include_edge):
    """``x`` padded along ``axis`` by odd reflections (each reflected value v becomes
    2 * edge - v), in NumPy's rounds: each reflects what is there so far, in whole periods
    of the original length."""
    period = np.shape(x)[axis]
    if period == 1:  # (NumPy pads a single value by itself, which both reflections give)
        return concatenate([x] * (before + 1 + after), axis=axis)
    while before or after:
        length = np.shape(x)[axis]
        if include_edge:  # 'symmetric': the edge is reflected too
            usable, offset = length // period * period, 1
        else:
            usable, offset = (length - 1) // (period - 1) * (period - 1), 0
        left_width, right_width = min(usable, before), min(usable, after)
        left = flip(_part(x, axis, 1 - offset, left_width + 1 - offset), axis)
        right = flip(_part(x, axis, length - 1 + offset - right_width, length - 1 + offset),
                     axis)
        left = subtract(multiply(2, _part(x, axis, 0, 1)), left)
        right = subtract(multiply(2, _part(x, axis, length - 1, length)), right)
        x = concatenate([left, x, right], axis=axis)
        before, after = before - left_width, after - right_width
    return x


__all__ = ["pad"]
