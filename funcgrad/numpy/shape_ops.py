"""Shape manipulation: reshaping, transposing, broadcasting, joining, splitting, flipping,
rolling, tiling, padding, triangles and diagonals.

Few of these are primitives: most are a reshape, a transpose, a broadcast or a gather of
the base layer (`_base`), whose rules are cheap. Gathers that pick each element once
(flip, roll, diagonal, edge-free padding) say so, and their VJPs assign instead of
accumulating.
"""
import math
import operator

import numpy as np

from ..core import Box, constant_like, is_array, shape_of, unbox_all, zeros_in_library_of
from ._axes import axes_in_order, normalize_axis, normalize_one_axis
from ._base import (add_at_zeros, as_array, astype, broadcast_to_p, concatenate_p, gather,
                    reshape_p, stack_p, transpose_p)
from ._batching import scan as batch_scan
from ._batching import unstack as batch_unstack
from ._rules import ArgVJP, aval, defbatch, defjvp, defvjp, primitive, reject_out
from .elementwise import where

# ---- primitives ------------------------------------------------------------------------


def _split_impl(a, bounds, axis):
    # Basic slices, views of `a` in any array library: np.split costs ~3x as much (it
    # swaps axes twice a piece), and compat's chunk of an LSTM step's gates calls this.
    before = (slice(None),) * axis
    edges = (0, *bounds, a.shape[axis])
    return tuple([a[(*before, slice(start, stop))] for start, stop in zip(edges, edges[1:])])


def _unstack_impl(a, axis):
    if not is_array(a):
        a = np.asarray(a)
    before = (slice(None),) * axis
    # (The Ellipsis makes a vector's pieces 0-d arrays, views, where an int alone would
    # make NumPy scalars.)
    return tuple([a[(*before, i, ...)] for i in range(a.shape[axis])])


# Splitting is one node for all the pieces, whose VJP is one concatenate.
_split = primitive(_split_impl, "split", multiple_results=True)
_unstack = primitive(_unstack_impl, "unstack", multiple_results=True)


def _pieces_or_zeros(cotangents, avals):
    """The cotangent of each piece, with a concrete zero where it is None."""
    like = next(ct for ct in cotangents if ct is not None)
    return [zeros_in_library_of(like, *meta) if ct is None else ct
            for ct, meta in zip(cotangents, avals)]


def _split_save(ans, a, bounds, axis):
    return [aval(piece) for piece in ans], axis


def _split_pull(cts, avals, axis):
    return concatenate_p(*_pieces_or_zeros(cts, avals), axis=axis)


def _unstack_save(ans, a, axis):
    shape, dtype = aval(a)
    avals = [(shape[:axis] + shape[axis + 1:], dtype)] * len(ans)
    return avals, shape[:axis] + (1,) + shape[axis + 1:], axis


def _unstack_pull(cts, avals, kept, axis):
    return concatenate_p(*[reshape_p(ct, shape=kept, order="C")
                          for ct in _pieces_or_zeros(cts, avals)], axis=axis)


defvjp(_split, ArgVJP(_split_save, _split_pull))
defvjp(_unstack, ArgVJP(_unstack_save, _unstack_pull))

defjvp(_split, lambda t, ans, a, bounds, axis: _split(t, bounds=bounds, axis=axis))
defjvp(_unstack, lambda t, ans, a, axis: _unstack(t, axis=axis))
defbatch(_split, batch_scan)
defbatch(_unstack, batch_unstack)


def _shape_tuple(shape, function, argument="shape"):
    """A shape (an int, or a sequence or 1-D array of ints) as a tuple of ints."""
    try:
        if isinstance(shape, (tuple, list)) or np.ndim(shape) == 1:
            return tuple([operator.index(n) for n in shape])
        return (operator.index(shape),)
    except TypeError:
        raise TypeError(f"funcgrad.numpy.{function}: {argument} must be an int or a sequence "
                        f"of ints, got {shape!r}") from None


# ---- reshaping ---------------------------------------------------------------------------


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    """``numpy.reshape``; -1 in ``shape`` is inferred."""
    shape = newshape if shape is None else shape
    if shape is None:
        raise TypeError("funcgrad.numpy.reshape: missing the target shape")
    if order != "C" and order != "F":
        raise ValueError(f"funcgrad.numpy.reshape: order must be 'C' or 'F', got {order!r}")
    if type(shape) is not tuple or not all(type(n) is int for n in shape):
        shape = _shape_tuple(shape, "reshape")
    old = shape_of(a)
    if -1 in shape:  # resolve it now, so the rules and graphs see the real shape
        shape = _infer_length(shape, old)
    elif math.prod(shape) != math.prod(old) or min(shape, default=0) < 0:
        raise ValueError(f"funcgrad.numpy.reshape: cannot reshape an array of shape {old} "
                         f"(size {math.prod(old)}) into shape {shape}")
    if shape == old and isinstance(a, Box):
        return a
    return reshape_p(a, shape=shape, order=order)


def _infer_length(shape, old):
    size, known = math.prod(old), -math.prod(shape)
    if shape.count(-1) > 1 or known <= 0 or size % known or min(shape) < -1:
        raise ValueError(f"funcgrad.numpy.reshape: cannot reshape an array of shape {old} "
                         f"into shape {shape}")
    return tuple(size // known if n == -1 else n for n in shape)


def ravel(a, order="C"):
    """``numpy.ravel`` in 'C' or 'F' order ('A' and 'K' depend on memory layout, which
    traced arrays do not have)."""
    if order is None:  # NumPy reads None as 'C'
        order = "C"
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"funcgrad.numpy.ravel: order must be one of 'C', 'F', 'A' or 'K', "
                         f"got {order!r}")
    if order not in ("C", "F"):
        raise NotImplementedError(f"funcgrad.numpy.ravel: order={order!r} is not supported; "
                                  f"use 'C' or 'F'")
    return reshape(a, (-1,), order=order)


def expand_dims(a, axis):
    """``numpy.expand_dims``: insert axes of length one at the positions in ``axis``."""
    shape = list(np.shape(a))
    count = 1 if isinstance(axis, (int, np.integer)) else len(axis)
    for ax in normalize_axis(axis, len(shape) + count, "expand_dims"):
        shape.insert(ax, 1)
    return reshape_p(a, shape=tuple(shape), order="C")


def squeeze(a, axis=None):
    """``numpy.squeeze``: remove axes of length one (all of them, or those in ``axis``)."""
    shape = np.shape(a)
    if axis is None:
        axes = tuple(i for i, n in enumerate(shape) if n == 1)
    else:
        axes = normalize_axis(axis, len(shape), "squeeze")
        for ax in axes:
            if shape[ax] != 1:
                raise ValueError(f"funcgrad.numpy.squeeze: cannot select axis {ax}, whose "
                                 f"length is {shape[ax]}, not 1")
    return reshape_p(a, shape=tuple(n for i, n in enumerate(shape) if i not in axes),
                    order="C")


def _atleast(arrays, ndim, placement):
    results = []
    for a in arrays:
        a = as_array(a)
        shape = np.shape(a)
        results.append(a if len(shape) >= ndim else reshape(a, placement(shape)))
    return results[0] if len(results) == 1 else tuple(results)  # as NumPy 2


def atleast_1d(*arys):
    """``numpy.atleast_1d``: scalars become arrays of shape (1,)."""
    return _atleast(arys, 1, lambda shape: (1,))


def atleast_2d(*arys):
    """``numpy.atleast_2d``: (n,) becomes (1, n)."""
    return _atleast(arys, 2, lambda shape: (1,) * (2 - len(shape)) + shape)


def atleast_3d(*arys):
    """``numpy.atleast_3d``: (n,) becomes (1, n, 1) and (m, n) becomes (m, n, 1)."""
    def placement(shape):
        return {0: (1, 1, 1), 1: (1,) + shape + (1,), 2: shape + (1,)}[len(shape)]
    return _atleast(arys, 3, placement)


# ---- permuting axes -------------------------------------------------------------------


def transpose(a, axes=None):
    """``numpy.transpose``: reverse the axes, or permute them as ``axes`` says."""
    ndim = np.ndim(a)
    if axes is None:
        axes = tuple(range(ndim))[::-1]
    else:
        axes = tuple(operator.index(ax) for ax in axes)
        if len(axes) == ndim:  # as NumPy: an axis out of range is an AxisError
            for ax in axes:
                if not -ndim <= ax < ndim:
                    raise np.exceptions.AxisError(ax, ndim, "funcgrad.numpy.transpose")
        axes = tuple(ax % ndim if -ndim <= ax < ndim else ax for ax in axes)
        if sorted(axes) != list(range(ndim)):
            raise ValueError(f"funcgrad.numpy.transpose: axes {axes} are not a permutation of "
                             f"the {ndim} axes of the array")
    if axes == tuple(range(ndim)) and isinstance(a, Box):
        return a
    return transpose_p(a, axes=axes)


def permute_dims(a, axes=None):
    """``numpy.permute_dims``: the array-API name of transpose."""
    return transpose(a, axes)


def matrix_transpose(x):
    """``numpy.matrix_transpose``: swap the last two axes."""
    if np.ndim(x) < 2:
        raise ValueError(f"funcgrad.numpy.matrix_transpose: the array must have at least two "
                         f"dimensions, got shape {np.shape(x)}")
    return swapaxes(x, -1, -2)


def moveaxis(a, source, destination):
    """``numpy.moveaxis``: move the axes ``source`` to positions ``destination``."""
    ndim = np.ndim(a)
    source_axes = axes_in_order(source, ndim, "moveaxis", argument="source")
    destination_axes = axes_in_order(destination, ndim, "moveaxis", argument="destination")
    if len(source_axes) != len(destination_axes):
        raise ValueError("funcgrad.numpy.moveaxis: source and destination must have the same "
                         "number of elements")
    order = [i for i in range(ndim) if i not in source_axes]
    for dest, src in sorted(zip(destination_axes, source_axes)):
        order.insert(dest, src)
    return transpose(a, order)


def swapaxes(a, axis1, axis2):
    """``numpy.swapaxes``: exchange two axes."""
    ndim = np.ndim(a)
    order = list(range(ndim))
    i, j = normalize_one_axis(axis1, ndim, "swapaxes"), normalize_one_axis(axis2, ndim, "swapaxes")
    order[i], order[j] = order[j], order[i]
    return transpose(a, order)


# ---- broadcasting ---------------------------------------------------------------------


def broadcast_to(array, shape):
    """``numpy.broadcast_to``; the VJP sums over the broadcast axes."""
    shape = _shape_tuple(shape, "broadcast_to")
    old = np.shape(array)
    if old == shape:
        return array
    try:
        target = np.broadcast_shapes(old, shape)
    except ValueError:
        target = None
    if target != shape:
        raise ValueError(f"funcgrad.numpy.broadcast_to: cannot broadcast an array of shape "
                         f"{old} to shape {shape}")
    return broadcast_to_p(array, shape=shape)


def broadcast_arrays(*args, subok=False):
    """``numpy.broadcast_arrays``: every argument broadcast to their common shape."""
    try:
        shape = np.broadcast_shapes(*(np.shape(a) for a in args))
    except ValueError:
        raise ValueError(f"funcgrad.numpy.broadcast_arrays: shapes "
                         f"{[np.shape(a) for a in args]} cannot be broadcast together") from None
    return tuple(broadcast_to(as_array(a), shape) for a in args)


# ---- joining ------------------------------------------------------------------------------


def _cast_all(arrays, dtype):
    if dtype is None:
        return arrays
    dtype = np.dtype(dtype)
    return [a if np.result_type(a) == dtype else astype(a, dtype) for a in arrays]


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.concatenate`` of a sequence of arrays (axis=None flattens them first)."""
    reject_out(out, "concatenate")
    arrays = _cast_all([as_array(a) for a in arrays], dtype)
    if not arrays:
        raise ValueError("funcgrad.numpy.concatenate: need at least one array to concatenate")
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    shapes = [np.shape(a) for a in arrays]
    ndim = len(shapes[0])
    if ndim == 0:
        raise ValueError("funcgrad.numpy.concatenate: zero-dimensional arrays cannot be "
                         "concatenated; use stack")
    axis = normalize_one_axis(axis, ndim, "concatenate")
    for shape in shapes:
        if len(shape) != ndim or shape[:axis] + shape[axis + 1:] != \
                shapes[0][:axis] + shapes[0][axis + 1:]:
            raise ValueError(f"funcgrad.numpy.concatenate: the shapes {shapes} must match "
                             f"except along axis {axis}")
    return concatenate_p(*arrays, axis=axis)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """``numpy.stack``: join arrays of one shape along a new axis (one node, whose VJP
    picks each array's slice)."""
    reject_out(out, "stack")
    arrays = _cast_all([as_array(a) for a in arrays], dtype)
    if not arrays:
        raise ValueError("funcgrad.numpy.stack: need at least one array to stack")
    shapes = {np.shape(a) for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"funcgrad.numpy.stack: all input arrays must have the same shape, "
                         f"got {sorted(shapes)}")
    axis = normalize_one_axis(axis, np.ndim(arrays[0]) + 1, "stack")
    return stack_p(*arrays, axis=axis)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """``numpy.hstack``: concatenate along the second axis (the first for 1-D arrays)."""
    arrays = [atleast_1d(a) for a in tup]
    axis = 0 if arrays and np.ndim(arrays[0]) == 1 else 1
    return concatenate(arrays, axis=axis, dtype=dtype)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """``numpy.vstack``: concatenate along the first axis, 1-D arrays as rows."""
    return concatenate([atleast_2d(a) for a in tup], axis=0, dtype=dtype)


row_stack = vstack  # NumPy's older name for vstack


def dstack(tup):
    """``numpy.dstack``: concatenate along the third axis."""
    return concatenate([atleast_3d(a) for a in tup], axis=2)


def column_stack(tup):
    """``numpy.column_stack``: 1-D arrays become columns of a 2-D array."""
    columns = []
    for a in tup:
        a = as_array(a)
        columns.append(reshape(a, (-1, 1)) if np.ndim(a) < 2 else a)
    return concatenate(columns, axis=1)


def append(arr, values, axis=None):
    """``numpy.append``: ``values`` joined after ``arr`` (both flattened if axis is None)."""
    arr, values = as_array(arr), as_array(values)
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], axis=0)
    return concatenate([arr, values], axis=axis)


# ---- splitting -------------------------------------------------------------------------


def _split_bounds(length, indices_or_sections, equal, function):
    """The split points along an axis of ``length``, as NumPy's (array_)split reads them."""
    if isinstance(indices_or_sections, (int, np.integer)):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"funcgrad.numpy.{function}: the number of sections must be "
                             f"larger than 0, got {sections}")
        if equal and length % sections:
            raise ValueError(f"funcgrad.numpy.{function}: an axis of length {length} cannot "
                             f"be split into {sections} equal sections; use array_split")
        size, extra = divmod(length, sections)
        sizes = [size + 1] * extra + [size] * (sections - extra)
        return tuple(int(b) for b in np.cumsum(sizes)[:-1])
    return tuple(operator.index(i) for i in indices_or_sections)


def _piece_ranges(length, bounds):
    """Each piece's (start, stop) as NumPy slices it, ``a[bounds[k-1]:bounds[k]]``:
    negative bounds count from the end, and a bound below its predecessor gives an empty
    piece, after which the next piece starts back at that bound."""
    edges = (0, *bounds, length)
    ranges = []
    for start, stop in zip(edges, edges[1:]):
        start, stop, _ = slice(start, stop).indices(length)
        ranges.append((start, max(start, stop)))
    return ranges


def _split_along(ary, indices_or_sections, axis, equal, function):
    ary = as_array(ary)
    ndim = np.ndim(ary)
    if ndim == 0:
        raise ValueError(f"funcgrad.numpy.{function}: a zero-dimensional array cannot be split")
    axis = normalize_one_axis(axis, ndim, function)
    length = np.shape(ary)[axis]
    ranges = _piece_ranges(length, _split_bounds(length, indices_or_sections, equal, function))
    if all(stop == start for (_, stop), (start, _) in zip(ranges, ranges[1:])):
        # the pieces tile the axis in order: one node, whose VJP concatenates
        return list(_split(ary, bounds=tuple(stop for _, stop in ranges[:-1]), axis=axis))
    # Bounds out of order make pieces that overlap (or leave gaps), which a concatenate
    # cannot transpose: each piece is then its own slice.
    return [gather(ary, (slice(None),) * axis + (slice(start, stop),), unique=True)
            for start, stop in ranges]


def split(ary, indices_or_sections, axis=0):
    """``numpy.split`` into equal sections, or at the given indices; one node for all
    pieces, so the VJP is a single concatenate."""
    return _split_along(ary, indices_or_sections, axis, True, "split")


def array_split(ary, indices_or_sections, axis=0):
    """``numpy.array_split``: like split, but sections may differ in length by one."""
    return _split_along(ary, indices_or_sections, axis, False, "array_split")


def hsplit(ary, indices_or_sections):
    """``numpy.hsplit``: split along the second axis (the first for 1-D arrays)."""
    if np.ndim(ary) == 0:
        raise ValueError("funcgrad.numpy.hsplit: only works on arrays of 1 or more dimensions")
    return _split_along(ary, indices_or_sections, 1 if np.ndim(ary) > 1 else 0, True, "hsplit")


def vsplit(ary, indices_or_sections):
    """``numpy.vsplit``: split along the first axis (arrays of 2 or more dimensions)."""
    if np.ndim(ary) < 2:
        raise ValueError("funcgrad.numpy.vsplit: only works on arrays of 2 or more dimensions")
    return _split_along(ary, indices_or_sections, 0, True, "vsplit")


def dsplit(ary, indices_or_sections):
    """``numpy.dsplit``: split along the third axis (arrays of 3 or more dimensions)."""
    if np.ndim(ary) < 3:
        raise ValueError("funcgrad.numpy.dsplit: only works on arrays of 3 or more dimensions")
    return _split_along(ary, indices_or_sections, 2, True, "dsplit")


def unstack(x, /, *, axis=0):
    """``numpy.unstack``: the slices of ``x`` along ``axis``, as a tuple (one node)."""
    x = as_array(x)
    if np.ndim(x) == 0:
        raise ValueError("funcgrad.numpy.unstack: a zero-dimensional array cannot be unstacked")
    return _unstack(x, axis=normalize_one_axis(axis, np.ndim(x), "unstack"))


# ---- reordering elements: flip, rot90, roll --------------------------------------------


def flip(m, axis=None):
    """``numpy.flip``: reverse the order of elements along ``axis`` (all axes if None)."""
    m = as_array(m)
    ndim = np.ndim(m)
    axes = normalize_axis(axis, ndim, "flip")
    if not axes:
        return m
    index = tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(ndim))
    return gather(m, index, unique=True)


def fliplr(m):
    """``numpy.fliplr``: reverse the columns (axis 1)."""
    if np.ndim(m) < 2:
        raise ValueError("funcgrad.numpy.fliplr: the array must be at least 2-D")
    return flip(m, 1)


def flipud(m):
    """``numpy.flipud``: reverse the rows (axis 0)."""
    if np.ndim(m) < 1:
        raise ValueError("funcgrad.numpy.flipud: the array must be at least 1-D")
    return flip(m, 0)


def rot90(m, k=1, axes=(0, 1)):
    """``numpy.rot90``: rotate by 90 degrees ``k`` times in the plane of ``axes``."""
    m = as_array(m)
    ndim = np.ndim(m)
    if len(axes) != 2:
        raise ValueError("funcgrad.numpy.rot90: axes must name exactly two axes")
    first, second = (normalize_one_axis(ax, ndim, "rot90") for ax in axes)
    if first == second:
        raise ValueError("funcgrad.numpy.rot90: the two axes must be different")
    k = operator.index(k) % 4
    if k == 0:
        return m
    if k == 2:
        return flip(m, (first, second))
    order = list(range(ndim))
    order[first], order[second] = order[second], order[first]
    if k == 1:
        return transpose(flip(m, second), order)
    return flip(transpose(m, order), second)


def roll(a, shift, axis=None):
    """``numpy.roll``: shift elements cyclically along ``axis`` (the flattened array if
    None); each rolled axis is one gather of a permutation."""
    a = as_array(a)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), np.shape(a))
    ndim = np.ndim(a)
    if np.ndim(shift) > 1 or np.ndim(axis) > 1:
        raise ValueError(f"funcgrad.numpy.roll: shift and axis must be ints or 1-D sequences "
                         f"of ints, got shapes {np.shape(shift)} and {np.shape(axis)}")
    shifts = {}
    for sh, ax in np.broadcast(shift, axis):
        ax = normalize_one_axis(ax, ndim, "roll")
        try:  # (NumPy truncates a float shift)
            sh = operator.index(sh)
        except TypeError:
            raise TypeError(f"funcgrad.numpy.roll: shifts must be integers, got {sh!r}") from None
        shifts[ax] = shifts.get(ax, 0) + sh
    for ax, sh in sorted(shifts.items()):
        length = np.shape(a)[ax]
        if length and sh % length:
            source = (np.arange(length) - sh) % length
            a = gather(a, (slice(None),) * ax + (source,), unique=True)
    return a


# ---- tiling and repeating -------------------------------------------------------------


def tile(A, reps):
    """``numpy.tile``: one broadcast between two reshapes, so the VJP is one sum."""
    A = as_array(A)
    reps = _shape_tuple(reps, "tile", "reps")
    shape = np.shape(A)
    ndim = max(len(shape), len(reps))
    shape = (1,) * (ndim - len(shape)) + shape
    reps = (1,) * (ndim - len(reps)) + reps
    if min(reps, default=0) < 0:
        raise ValueError(f"funcgrad.numpy.tile: reps must not be negative, got {reps}")
    interleaved = tuple(n for pair in zip((1,) * ndim, shape) for n in pair)
    tiled = tuple(n for pair in zip(reps, shape) for n in pair)
    result = broadcast_to(reshape(A, interleaved), tiled)
    return reshape(result, tuple(r * n for r, n in zip(reps, shape)))


def repeat(a, repeats, axis=None):
    """``numpy.repeat``: each element repeated ``repeats`` times along ``axis``."""
    a = as_array(a)
    if axis is None:
        a, axis = ravel(a), 0
    shape = np.shape(a)
    axis = normalize_one_axis(axis, len(shape), "repeat")
    repeats = np.asarray(unbox_all(repeats))  # (a guard on its value under jit)
    if repeats.dtype.kind not in "iu" or (repeats.size and repeats.min() < 0):
        raise ValueError(f"funcgrad.numpy.repeat: repeats must be non-negative integers, got "
                         f"{repeats!r}")
    if repeats.size == 1:  # the same count for every element: a broadcast
        count = int(repeats.reshape(()))
        spread = shape[:axis + 1] + (count,) + shape[axis + 1:]
        result = broadcast_to(expand_dims(a, axis + 1), spread)
        return reshape(result, shape[:axis] + (shape[axis] * count,) + shape[axis + 1:])
    if repeats.shape != (shape[axis],):
        raise ValueError(f"funcgrad.numpy.repeat: repeats has shape {repeats.shape}, but "
                         f"axis {axis} has length {shape[axis]}")
    source = np.repeat(np.arange(shape[axis]), repeats)
    return gather(a, (slice(None),) * axis + (source,), unique=bool(repeats.max() <= 1))


# ---- triangles and diagonals -------------------------------------------------------------


def _triangle(m, k, keep_lower, function):
    m = as_array(m)
    shape = np.shape(m)
    if len(shape) == 0:
        raise ValueError(f"funcgrad.numpy.{function}: the array must be at least 1-D")
    rows, cols = shape[-2:] if len(shape) > 1 else (shape[-1], shape[-1])
    lower = np.tri(rows, cols, operator.index(k), dtype=bool)
    keep = constant_like(lower if keep_lower else ~lower, m)
    return where(keep, m, np.zeros((), np.result_type(m))[()])


def tril(m, k=0):
    """``numpy.tril``: zero the elements above the k-th diagonal."""
    return _triangle(m, k, True, "tril")


def triu(m, k=0):
    """``numpy.triu``: zero the elements below the k-th diagonal."""
    return _triangle(m, k - 1, False, "triu")


def _diagonal_positions(rows, cols, offset):
    length = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    start = np.arange(length)
    return start - min(offset, 0), start + max(offset, 0)


def diagonal(a, offset=0, axis1=0, axis2=1):
    """``numpy.diagonal``: the diagonal of the planes spanned by axis1 and axis2, as the
    last axis of the result."""
    a = as_array(a)
    ndim = np.ndim(a)
    if ndim < 2:
        raise ValueError(f"funcgrad.numpy.diagonal: the array must be at least 2-D, got shape "
                         f"{np.shape(a)}")
    first = normalize_one_axis(axis1, ndim, "diagonal")
    second = normalize_one_axis(axis2, ndim, "diagonal")
    if first == second:
        raise ValueError("funcgrad.numpy.diagonal: axis1 and axis2 cannot be the same")
    moved = moveaxis(a, (first, second), (-2, -1))
    rows, cols = np.shape(moved)[-2:]
    row, col = _diagonal_positions(rows, cols, operator.index(offset))
    return gather(moved, (Ellipsis, row, col), unique=True)


def diag(v, k=0):
    """``numpy.diag``: the k-th diagonal of a 2-D array, or a 2-D array with 1-D ``v`` on
    its k-th diagonal."""
    v = as_array(v)
    k = operator.index(k)
    if np.ndim(v) == 2:
        return diagonal(v, k)
    if np.ndim(v) != 1:
        raise ValueError(f"funcgrad.numpy.diag: the input must be 1-D or 2-D, got shape "
                         f"{np.shape(v)}")
    size = np.shape(v)[0] + abs(k)
    row, col = _diagonal_positions(size, size, k)
    return add_at_zeros(v, index=(row, col), unique=True, shape=(size, size),
                        dtype=np.result_type(v))


def diagflat(v, k=0):
    """``numpy.diagflat``: the flattened input on the k-th diagonal of a 2-D array."""
    return diag(ravel(as_array(v)), k)


__all__ = [
    "reshape", "ravel", "expand_dims", "squeeze", "atleast_1d", "atleast_2d", "atleast_3d",
    "transpose", "permute_dims", "matrix_transpose", "moveaxis", "swapaxes", "broadcast_to",
    "broadcast_arrays", "concatenate", "stack", "hstack", "vstack", "row_stack", "dstack",
    "column_stack",
    "append", "split", "array_split", "hsplit", "vsplit", "dsplit", "unstack", "flip",
    "fliplr", "flipud", "rot90", "roll", "tile", "repeat", "tril", "triu", "diagonal",
    "diag", "diagflat",
]
