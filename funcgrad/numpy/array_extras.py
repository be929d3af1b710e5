"""NumPy functions composed from funcgrad's primitives: joining (concat, block, insert,
delete), selecting (select, choose, compress, extract, piecewise), scans and differences
(cumulative_sum, ediff1d, gradient, unwrap), vector products (vecdot, matvec, vecmat),
functional scatters (bincount, put_along_axis, fill_diagonal), comparisons of whole
arrays (isclose, allclose, array_equal, array_equiv: constants) and real_if_close.

None of these is a primitive, so their derivatives of every order come from the
functions they are made of. Indices, masks and conditions are constants: they are read
from the plain values even when traced.
"""
import operator

import numpy as np

from ..core import Box, dtype_of, full_of_part, shape_of, zeros_in_library_of
from ._axes import axes_in_order, normalize_axis, normalize_one_axis
from ._rules import reject_out
from ._base import astype
from ._batching import plain_value, read_values
from .creation import asarray, zeros_like
from .elementwise import conj, real, subtract, where
from .elementwise_special import mod
from .index_update import at
from .indexing import _along_axis_index, _apply_index_mode, _integer_indices, getitem, take
from .products import matmul
from .reductions import cumprod, cumsum, diff, sum
from .shape_ops import (broadcast_to, concatenate, expand_dims, moveaxis, ravel, reshape,
                        stack, transpose)


def _cast(a, dtype):
    return a if np.result_type(a) == dtype else astype(a, dtype)


# ---- joining and removing ------------------------------------------------------------


def concat(arrays, /, *, axis=0):
    """``numpy.concat``, the array API's name for `concatenate`."""
    return concatenate(arrays, axis=axis)


def _block_depth(arrays, function):
    """How deeply ``arrays`` nests lists; every leaf must sit at the same depth."""
    if isinstance(arrays, tuple):
        raise TypeError(f"funcgrad.numpy.{function}: arrays are nested lists, not tuples; "
                        f"write [a, b] instead of (a, b)")
    if not isinstance(arrays, list):
        return 0
    if not arrays:
        raise ValueError(f"funcgrad.numpy.{function}: lists cannot be empty")
    depths = {_block_depth(item, function) for item in arrays}
    if len(depths) != 1:
        raise ValueError(f"funcgrad.numpy.{function}: list depths are mismatched; every "
                         f"array must be nested equally deep")
    return depths.pop() + 1


def _block_leaves(arrays):
    if isinstance(arrays, list):
        return [leaf for item in arrays for leaf in _block_leaves(item)]
    return [arrays]


def _block(arrays, depth, ndim):
    if not isinstance(arrays, list):
        a = asarray(arrays)
        return reshape(a, (1,) * (ndim - a.ndim) + shape_of(a))
    return concatenate([_block(item, depth - 1, ndim) for item in arrays], axis=-depth)


def block(arrays):
    """``numpy.block``: assemble an array from nested lists of blocks; the innermost lists
    join along the last axis, the outer ones along earlier axes."""
    depth = _block_depth(arrays, "block")
    ndim = max([depth] + [np.ndim(leaf) for leaf in _block_leaves(arrays)])
    return _block(arrays, depth, ndim)


def _axis_or_flat(arr, axis, function):
    """(arr, axis): the flattened array and 0 when ``axis`` is None."""
    arr = asarray(arr)
    if axis is None:
        return ravel(arr), 0
    return arr, normalize_one_axis(axis, arr.ndim, function)


def delete(arr, obj, axis=None):
    """``numpy.delete``: ``arr`` without the entries ``obj`` (an integer, a slice, integers
    or a boolean mask) along ``axis`` (None: of the flattened array)."""
    arr, axis = _axis_or_flat(arr, axis, "delete")
    keep = np.ones(shape_of(arr)[axis], bool)
    if not isinstance(obj, slice):
        empty_list = not isinstance(obj, (np.ndarray, Box)) and np.size(obj) == 0
        # As NumPy: an empty list (float when converted) deletes nothing.
        obj = np.asarray(obj, np.intp) if empty_list else plain_value(obj)
    if not isinstance(obj, slice) and obj.dtype.kind not in "iub":
        raise IndexError(f"funcgrad.numpy.delete: obj must be integers, a slice or a boolean "
                         f"mask, got dtype {obj.dtype}")
    try:
        keep[obj] = False
    except IndexError as error:
        raise IndexError(f"funcgrad.numpy.delete: {error}") from None
    return take(arr, np.flatnonzero(keep), axis=axis)


def insert(arr, obj, values, axis=None):
    """``numpy.insert``: ``values`` (cast to arr's dtype) inserted before the entries
    ``obj`` (an integer, a slice or integers) along ``axis`` (None: of the flattened
    array), differentiable in both."""
    arr, axis = _axis_or_flat(arr, axis, "insert")
    shape = shape_of(arr)
    length = shape[axis]
    if isinstance(obj, slice):
        indices = np.arange(*obj.indices(length))
    else:
        indices = plain_value(obj)
        if indices.dtype == bool or indices.ndim > 1 or (
                indices.size and indices.dtype.kind not in "iu"):
            raise IndexError("funcgrad.numpy.insert: obj must be an integer, a slice or a "
                             "one-dimensional array of integers")
        indices = indices.astype(np.intp)
    values = _cast(asarray(values), arr.dtype)
    if indices.size == 1:
        index = int(indices.item())
        if not -length <= index <= length:
            raise IndexError(f"funcgrad.numpy.insert: index {index} is out of bounds for "
                             f"axis {axis} with size {length}")
        index += length if index < 0 else 0
        values = reshape(values, (1,) * (arr.ndim - values.ndim) + shape_of(values))
        if indices.ndim == 0:  # as NumPy: a scalar index inserts values' first axis
            values = moveaxis(values, 0, axis)
        count = shape_of(values)[axis]
        values = broadcast_to(values, shape[:axis] + (count,) + shape[axis + 1:])
        head = (slice(None),) * axis
        return concatenate([getitem(arr, head + (slice(None, index),)), values,
                            getitem(arr, head + (slice(index, None),))], axis=axis)
    indices = np.where(indices < 0, indices + length, indices)
    count = indices.size
    indices[np.argsort(indices, kind="stable")] += np.arange(count)
    values = broadcast_to(values, shape[:axis] + (count,) + shape[axis + 1:])
    # Where each entry of the result comes from in concatenate([arr, values]).
    source = np.empty(length + count, np.intp)
    old = np.ones(length + count, bool)
    old[indices] = False
    source[old] = np.arange(length)
    source[indices] = length + np.arange(count)
    return take(concatenate([arr, values], axis=axis), source, axis=axis)


def resize(a, new_shape):
    """``numpy.resize``: ``a``'s flattened entries repeated cyclically to fill
    ``new_shape``."""
    a = ravel(asarray(a))
    new_shape = (operator.index(new_shape),) if np.ndim(new_shape) == 0 else \
        tuple(operator.index(n) for n in new_shape)
    if any(n < 0 for n in new_shape):
        raise ValueError("funcgrad.numpy.resize: all elements of new_shape must be "
                         "non-negative")
    size = int(np.prod(new_shape))
    if a.size == 0 or size == 0:
        return zeros_like(a, shape=new_shape)
    return reshape(take(a, np.arange(size) % a.size), new_shape)


def trim_zeros(filt, trim="fb", axis=None):
    """``numpy.trim_zeros``: ``filt`` without its leading ('f') and/or trailing ('b') zeros
    along ``axis`` (None: all axes), which are read from the plain values."""
    filt = asarray(filt)
    trim = trim.lower()
    if not trim or set(trim) - set("fb"):
        raise ValueError(f"funcgrad.numpy.trim_zeros: trim must be a combination of 'f' and "
                         f"'b', got {trim!r}")
    axes = range(filt.ndim) if axis is None else normalize_axis(axis, filt.ndim,
                                                               "trim_zeros")
    if not filt.ndim:  # (a 0-d array has nothing to trim, as NumPy's)
        return filt
    nonzero = np.nonzero(plain_value(filt))
    index = [slice(None)] * filt.ndim
    for ax in axes:
        if not nonzero[ax].size:
            index[ax] = slice(0, 0)
            continue
        start = int(nonzero[ax].min()) if "f" in trim else None
        stop = int(nonzero[ax].max()) + 1 if "b" in trim else None
        index[ax] = slice(start, stop)
    return getitem(filt, tuple(index))


def rollaxis(a, axis, start=0):
    """``numpy.rollaxis``: move ``axis`` to before position ``start`` (prefer moveaxis)."""
    a = asarray(a)
    ndim = a.ndim
    axis = normalize_one_axis(axis, ndim, "rollaxis")
    start = operator.index(start)
    if not -ndim <= start <= ndim:
        raise np.exceptions.AxisError(f"funcgrad.numpy.rollaxis: start {start} is out of "
                                      f"bounds for an array of dimension {ndim}")
    start += ndim if start < 0 else 0
    if axis < start:
        start -= 1
    axes = [i for i in range(ndim) if i != axis]
    axes.insert(start, axis)
    return transpose(a, axes)


# ---- selecting -------------------------------------------------------------------------


def select(condlist, choicelist, default=0):
    """``numpy.select``: the entry of the first choice whose condition holds, else
    ``default``; the conditions are constants."""
    if len(condlist) != len(choicelist):
        raise ValueError("funcgrad.numpy.select: condlist and choicelist must have the same "
                         "length")
    if not condlist:
        raise ValueError("funcgrad.numpy.select: select with an empty condition list is "
                         "not possible")
    conditions = [plain_value(c) for c in condlist]
    for c in conditions:
        if c.dtype != bool:
            raise TypeError(f"funcgrad.numpy.select: conditions must be boolean, got dtype "
                            f"{c.dtype}")
    choices = [asarray(c) for c in choicelist]
    dtype = np.result_type(*choices, default)
    shape = np.broadcast_shapes(*(c.shape for c in conditions), *(c.shape for c in choices),
                                np.shape(default))
    result = broadcast_to(_cast(asarray(default), dtype), shape)
    # The first true condition wins, so the earliest choice is applied last.
    for condition, choice in zip(conditions[::-1], choices[::-1]):
        result = where(condition, _cast(choice, dtype), result)
    return result


def choose(a, choices, out=None, mode="raise"):
    """``numpy.choose``: entry by entry, ``choices[a]`` (all broadcast together);
    ``mode`` is 'raise', 'wrap' or 'clip' for out-of-range ``a``."""
    reject_out(out, "choose")
    a = _integer_indices(a, "choose")
    choices = [asarray(c) for c in choices]
    count = len(choices)
    a = _apply_index_mode(a, count, mode, "choose")
    if mode == "raise" and a.size and (a.min() < 0 or a.max() >= count):
        raise ValueError(f"funcgrad.numpy.choose: an index is out of range for "
                         f"{count} choices; use mode='wrap' or 'clip'")
    shape = np.broadcast_shapes(a.shape, *(c.shape for c in choices))
    dtype = np.result_type(*choices)
    stacked = stack([broadcast_to(_cast(c, dtype), shape) for c in choices])
    picks = np.broadcast_to(a, shape)[np.newaxis]
    return getitem(getitem(stacked, _along_axis_index(stacked.shape, picks, 0)), 0)


def compress(condition, a, axis=None, out=None):
    """``numpy.compress``: the slices of ``a`` along ``axis`` (None: of the flattened array)
    where the 1-D ``condition`` holds (it may be shorter than the axis)."""
    reject_out(out, "compress")
    condition = plain_value(condition)
    if condition.ndim != 1:
        raise ValueError("funcgrad.numpy.compress: condition must be a 1-d array")
    a, axis = _axis_or_flat(a, axis, "compress")
    picked = np.flatnonzero(condition)
    if picked.size and picked[-1] >= shape_of(a)[axis]:
        raise IndexError(f"funcgrad.numpy.compress: condition selects index {picked[-1]}, "
                         f"out of bounds for axis {axis} with size {shape_of(a)[axis]}")
    return take(a, picked, axis=axis)


def extract(condition, arr):
    """``numpy.extract``: the entries of the flattened ``arr`` where the flattened
    ``condition`` is nonzero."""
    return take(ravel(asarray(arr)), np.flatnonzero(plain_value(condition)))


def piecewise(x, condlist, funclist, *args, **kw):
    """``numpy.piecewise``: ``funclist[i]`` (a function of the selected entries, or a
    value) where ``condlist[i]`` holds, later conditions winning; one extra function
    covers the entries where no condition holds; zero elsewhere."""
    x = asarray(x)
    if np.isscalar(condlist) or (not isinstance(condlist[0], (list, np.ndarray, Box))
                                 and x.ndim != 0):
        condlist = [condlist]  # as NumPy: a single condition
    conditions = [plain_value(c) for c in condlist]
    if any(isinstance(c, Box) for c in conditions):  # batched (vmap)
        return _piecewise_selecting(x, conditions, funclist, args, kw)
    conditions = np.asarray(conditions, dtype=bool)
    if len(conditions) == len(funclist) - 1:
        otherwise = ~np.any(conditions, axis=0, keepdims=True)
        conditions = np.concatenate([conditions, otherwise], axis=0)
    else:
        _check_piecewise_arity(conditions, funclist)
    y = zeros_like(x)
    for condition, func in zip(conditions, funclist):
        if not callable(func):
            y = at(y)[condition].set(func)
            continue
        # Only the selected entries reach func, as in NumPy: no NaN from outside its domain.
        values = getitem(x, condition)
        if values.size:
            y = at(y)[condition].set(func(values, *args, **kw))
    return y


def _check_piecewise_arity(conditions, funclist):
    if len(conditions) != len(funclist):
        raise ValueError(f"funcgrad.numpy.piecewise: with {len(conditions)} condition(s), "
                         f"either {len(conditions)} or {len(conditions) + 1} functions are "
                         f"needed")


def _piecewise_selecting(x, conditions, funclist, args, kw):
    """piecewise for conditions that differ per batch element (vmap): each function of the
    whole of ``x``, chosen per element with `where` (as JAX's piecewise does)."""
    if len(conditions) == len(funclist) - 1:
        otherwise = conditions[0] == conditions[0]  # all True, batched like the conditions
        for condition in conditions:
            otherwise = otherwise & ~astype(condition, bool)
        conditions = conditions + [otherwise]
    else:
        _check_piecewise_arity(conditions, funclist)
    y = zeros_like(x)
    for condition, func in zip(conditions, funclist):
        value = func(x, *args, **kw) if callable(func) else func
        y = where(astype(condition, bool), astype(value, y.dtype), y)
    return y


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """``numpy.apply_along_axis``: ``func1d`` applied to each 1-D slice along ``axis``;
    its result's axes take the place of ``axis``."""
    arr = asarray(arr)
    ndim = arr.ndim
    axis = normalize_one_axis(axis, ndim, "apply_along_axis")
    lines = moveaxis(arr, axis, -1)
    outer = shape_of(lines)[:-1]
    if 0 in outer:
        raise ValueError("funcgrad.numpy.apply_along_axis: cannot apply to an array with a "
                         "zero-length axis other than the one applied along")
    results = [asarray(func1d(getitem(lines, index), *args, **kwargs))
               for index in np.ndindex(*outer)]
    inner = results[0].shape
    result = reshape(stack(results), outer + inner)
    # The result's own axes go where ``axis`` was.
    order = list(range(axis)) + list(range(len(outer), len(outer) + len(inner))) + \
        list(range(axis, len(outer)))
    return transpose(result, order)


# ---- scans and differences -------------------------------------------------------------


def _cumulative(function, scan, initial, x, axis, dtype, out, include_initial):
    reject_out(out, function)
    x = asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"funcgrad.numpy.{function}: axis must be given for arrays of "
                             f"more than one dimension")
        x, axis = reshape(x, (-1,)), 0
    result = scan(x, axis=axis, dtype=dtype)
    if include_initial:
        axis = normalize_one_axis(axis, x.ndim, function)
        shape = shape_of(result)
        edge = full_of_part(result, (slice(None),) * axis + (slice(0, 1),),
                            shape[:axis] + (1,) + shape[axis + 1:], initial, result.dtype)
        result = concatenate([edge, result], axis=axis)
    return result


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """``numpy.cumulative_sum``: `cumsum`, which may start with 0 (``include_initial``)
    and needs ``axis`` unless ``x`` has at most one dimension."""
    return _cumulative("cumulative_sum", cumsum, 0, x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """``numpy.cumulative_prod``: `cumprod`, which may start with 1 (``include_initial``)
    and needs ``axis`` unless ``x`` has at most one dimension."""
    return _cumulative("cumulative_prod", cumprod, 1, x, axis, dtype, out, include_initial)


def ediff1d(ary, to_end=None, to_begin=None):
    """``numpy.ediff1d``: differences of the flattened ``ary``, between ``to_begin`` and
    ``to_end`` (cast to ary's dtype; differentiable too)."""
    ary = ravel(asarray(ary))
    _refuse_booleans(ary, "ediff1d")
    parts = [_cast(ravel(asarray(extra)), ary.dtype) if extra is not None else None
             for extra in (to_begin, diff(ary), to_end)]
    return concatenate([part for part in parts if part is not None])


def _refuse_booleans(x, function):
    """NumPy's refusal of differences of booleans (its subtract has no boolean loop)."""
    if x.dtype == np.bool_:
        raise TypeError(f"funcgrad.numpy.{function}: booleans have no differences, as in "
                        f"NumPy; convert them first, e.g. with astype(int)")


def _gradient_along(f, axis, step, edge_order):
    length = shape_of(f)[axis]
    if length < edge_order + 1:
        raise ValueError(f"funcgrad.numpy.gradient: an axis of length {length} is too short "
                         f"for edge_order={edge_order}; it needs at least {edge_order + 1}")

    def part(*index):
        return getitem(f, (slice(None),) * axis + (slice(*index),))

    interior = subtract(part(2, None), part(None, -2)) / (2.0 * step)
    if edge_order == 1:
        first = subtract(part(1, 2), part(0, 1)) / step
        last = subtract(part(-1, None), part(-2, -1)) / step
    else:
        first = (-1.5 * part(0, 1) + 2.0 * part(1, 2) - 0.5 * part(2, 3)) / step
        last = (0.5 * part(-3, -2) - 2.0 * part(-2, -1) + 1.5 * part(-1, None)) / step
    return concatenate([first, interior, last], axis=axis)


def gradient(f, *varargs, axis=None, edge_order=1):
    """``numpy.gradient`` for scalar spacings (one for all axes, or one per axis):
    central differences inside, one-sided ones of ``edge_order`` (1 or 2) at the edges.
    Coordinate arrays as spacings are not supported."""
    f = asarray(f)
    _refuse_booleans(f, "gradient")
    if f.dtype.kind not in "fc":
        f = astype(f, np.float64)
    # (in the order given: NumPy pairs them with the spacings and returns them so)
    axes = tuple(range(f.ndim)) if axis is None else axes_in_order(axis, f.ndim, "gradient")
    if edge_order not in (1, 2):
        raise ValueError(f"funcgrad.numpy.gradient: edge_order must be 1 or 2, got "
                         f"{edge_order}")
    if len(varargs) == 0:
        steps = [1.0] * len(axes)
    elif len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        steps = list(varargs) * len(axes)
    elif len(varargs) == len(axes):
        steps = list(varargs)
    else:
        raise TypeError(f"funcgrad.numpy.gradient: give one spacing, or one per axis "
                        f"({len(axes)}), got {len(varargs)}")
    if any(isinstance(s, Box) or np.ndim(s) != 0 for s in steps):
        raise NotImplementedError("funcgrad.numpy.gradient: only constant scalar spacings "
                                  "are supported; resample onto a uniform grid, or take "
                                  "differences with funcgrad.numpy.diff")
    # Python floats keep f's precision, as NumPy's in-place division does.
    results = tuple(_gradient_along(f, ax, float(s), edge_order) for ax, s in zip(axes, steps))
    return results[0] if len(results) == 1 else results


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """``numpy.unwrap``: ``p`` with jumps larger than ``discont`` (default period/2) along
    ``axis`` replaced by their complement modulo ``period``; the corrections are
    piecewise constant, so the derivative passes straight through."""
    p = asarray(p)
    if p.dtype.kind not in "fc":
        p = astype(p, np.result_type(p, period, np.float64))
    axis = normalize_one_axis(axis, p.ndim, "unwrap")
    if discont is None:
        discont = period / 2
    dd = diff(p, axis=axis)
    high = period / 2
    ddmod = mod(dd + high, period) - high
    # As NumPy: a jump of exactly -period/2 becomes +period/2 where the step was positive.
    ddmod = where((plain_value(ddmod) == -high) & (plain_value(dd) > 0), high, ddmod)
    correction = where(np.abs(plain_value(dd)) < discont, 0.0, subtract(ddmod, dd))
    head = (slice(None),) * axis
    return concatenate([getitem(p, head + (slice(None, 1),)),
                        getitem(p, head + (slice(1, None),)) + cumsum(correction, axis=axis)],
                       axis=axis)


# ---- vector products -------------------------------------------------------------------


def vecdot(x1, x2, /, *, axis=-1, keepdims=False):
    """``numpy.vecdot``: the dot product of vectors along ``axis`` (broadcast over the
    others), conjugating ``x1``, in the operands' common dtype (as NumPy's gufunc: small
    integers are not widened, and wrap)."""
    x1, x2 = asarray(x1), asarray(x2)
    x1 = moveaxis(x1, normalize_one_axis(axis, x1.ndim, "vecdot"), -1)
    x2 = moveaxis(x2, normalize_one_axis(axis, x2.ndim, "vecdot"), -1)
    if x1.shape[-1] != x2.shape[-1]:
        raise ValueError(f"funcgrad.numpy.vecdot: the vectors' lengths differ: "
                         f"{x1.shape[-1]} and {x2.shape[-1]}")
    products = (conj(x1) if dtype_of(x1).kind == "c" else x1) * x2  # (conj of bool is int8)
    result = sum(products, axis=-1, dtype=dtype_of(products), keepdims=bool(keepdims))
    if keepdims:  # the vectors' axis, of length 1, where `axis` says in the result
        result = moveaxis(result, -1, normalize_one_axis(axis, result.ndim, "vecdot"))
    return result


def _at_least(x, ndim, function, argument):
    x = asarray(x)
    if x.ndim < ndim:
        raise ValueError(f"funcgrad.numpy.{function}: {argument} must have at least {ndim} "
                         f"dimension(s), got shape {x.shape}")
    return x


def matvec(x1, x2, /):
    """``numpy.matvec``: matrices (..., m, n) times vectors (..., n), broadcast."""
    x1 = _at_least(x1, 2, "matvec", "x1")
    x2 = _at_least(x2, 1, "matvec", "x2")
    return getitem(matmul(x1, expand_dims(x2, -1)), (Ellipsis, 0))


def vecmat(x1, x2, /):
    """``numpy.vecmat``: conjugated vectors (..., n) times matrices (..., n, m),
    broadcast."""
    x1 = _at_least(x1, 1, "vecmat", "x1")
    x2 = _at_least(x2, 2, "vecmat", "x2")
    return getitem(matmul(expand_dims(conj(x1), -2), x2), (Ellipsis, 0, slice(None)))


# ---- functional scatters ---------------------------------------------------------------


def bincount(x, weights=None, minlength=0):
    """``numpy.bincount``: how often each non-negative integer occurs in ``x`` (a
    constant), or the sum of ``weights`` (float64, differentiable) at each."""
    x = _integer_indices(x, "bincount")
    if x.ndim != 1:
        raise ValueError(f"funcgrad.numpy.bincount: x must be one-dimensional, got shape "
                         f"{x.shape}")
    if x.size and x.min() < 0:
        raise ValueError("funcgrad.numpy.bincount: x must be non-negative")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("funcgrad.numpy.bincount: minlength must be non-negative")
    if weights is None:
        return np.bincount(x, minlength=minlength)
    weights = asarray(weights)
    if weights.dtype.kind == "c":
        raise TypeError("funcgrad.numpy.bincount: weights cannot be complex (NumPy casts "
                        "them to float64); count the real and imaginary parts separately")
    if weights.shape != x.shape:
        raise ValueError(f"funcgrad.numpy.bincount: weights (shape {weights.shape}) and x "
                         f"(shape {x.shape}) must have the same shape")
    length = max(int(x.max()) + 1 if x.size else 0, minlength)
    return at(zeros_in_library_of(x, length, np.float64))[x].add(
        _cast(weights, np.dtype(np.float64)))


def _no_inplace(inplace, function):
    if inplace:
        raise ValueError(f"funcgrad.numpy.{function}: arrays are immutable, so it cannot "
                         f"work in place; pass inplace=False and use the returned array")


def put_along_axis(arr, indices, values, axis, inplace=True, *, mode=None):
    """``numpy.put_along_axis`` as JAX has it: a copy of ``arr`` with ``values`` written at
    ``indices`` along ``axis`` (None: of the flattened array); needs inplace=False."""
    _no_inplace(inplace, "put_along_axis")
    arr = asarray(arr)
    indices = _integer_indices(indices, "put_along_axis")
    shape = arr.shape
    if axis is None:
        if indices.ndim != 1:
            raise ValueError(f"funcgrad.numpy.put_along_axis: with axis=None, indices must "
                             f"be one-dimensional, got shape {indices.shape}")
        return reshape(put_along_axis(ravel(arr), indices, values, 0, inplace=False,
                                      mode=mode), shape)
    if indices.ndim != arr.ndim:
        raise ValueError(f"funcgrad.numpy.put_along_axis: indices (shape {indices.shape}) "
                         f"and arr (shape {shape}) must have the same number of dimensions")
    axis = normalize_one_axis(axis, arr.ndim, "put_along_axis")
    return at(arr)[_along_axis_index(shape, indices, axis)].set(values, mode=mode)


def fill_diagonal(a, val, wrap=False, *, inplace=True):
    """``numpy.fill_diagonal`` as JAX has it: a copy of ``a`` with its main diagonal set to
    ``val`` (repeated as needed); ``wrap`` restarts the diagonal below tall matrices, as
    NumPy; needs inplace=False."""
    _no_inplace(inplace, "fill_diagonal")
    a = asarray(a)
    shape = a.shape
    if a.ndim < 2:
        raise ValueError("funcgrad.numpy.fill_diagonal: the array must be at least 2-d")
    if a.ndim == 2:
        step = shape[1] + 1
        end = a.size if wrap else min(a.size, shape[1] * shape[1])
    else:
        if len(set(shape)) != 1:
            raise ValueError("funcgrad.numpy.fill_diagonal: all dimensions of the input "
                             "must be of equal length")
        step = 1 + int(np.cumprod(shape[:-1]).sum())
        end = a.size
    positions = np.arange(0, end, step)
    val = ravel(_cast(asarray(val), a.dtype))
    if not val.size:
        return a
    # As NumPy's flat assignment: val repeats to cover the diagonal.
    val = take(val, np.arange(positions.size) % val.size)
    return reshape(at(ravel(a))[positions].set(val), shape)


# ---- whole-array comparisons: constants ------------------------------------------------


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``numpy.isclose`` of the plain values: a boolean constant."""
    return read_values(np.isclose, a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``numpy.allclose`` of the plain values: a boolean constant."""
    return read_values(np.allclose, a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def array_equal(a1, a2, equal_nan=False):
    """``numpy.array_equal`` of the plain values: a boolean constant."""
    return read_values(np.array_equal, a1, a2, equal_nan=equal_nan)


def array_equiv(a1, a2):
    """``numpy.array_equiv`` of the plain values: a boolean constant."""
    return read_values(np.array_equiv, a1, a2)


# ---- complex to real --------------------------------------------------------------------


def real_if_close(a, tol=100):
    """``numpy.real_if_close``: the real part of complex ``a`` when every imaginary part is
    below ``tol`` in magnitude (``tol`` > 1 counts machine epsilons of a's dtype), else
    ``a`` unchanged. The test reads the values, so whether the result is real depends on
    them, as in NumPy; the derivative is that of the branch taken."""
    a = asarray(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    if np.all(np.abs(np.imag(plain_value(a))) < tol):
        return real(a)
    return a


__all__ = ["concat", "block", "delete", "insert", "resize", "trim_zeros", "rollaxis",
           "select", "choose", "compress", "extract", "piecewise", "apply_along_axis",
           "cumulative_sum", "cumulative_prod", "ediff1d", "gradient", "unwrap", "vecdot",
           "matvec", "vecmat", "bincount", "put_along_axis", "fill_diagonal", "isclose",
           "allclose", "array_equal", "array_equiv", "real_if_close"]
