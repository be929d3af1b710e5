"""Batching rules (vmap), by families, and the rules of the base layer's primitives.

A rule receives the primitive's arguments with the batch inside them (``values``), where
the batch sits in each (``axes``; None: not batched) and the batch ``size``, and computes
the whole batch with primitives (see `funcgrad.core.batching`). Families share one helper:

- `elementwise`: ufuncs and other broadcasting functions. Batched operands get the batch
  in front and ones up to the common rank, so NumPy's broadcasting lines them up.
- `reduction`, `scan`, `over_axes`: axis parameters renumbered around the batch axis,
  which stays where it is.
- `leading`: functions that already map over leading axes (linalg): batch in front.
- shape ops, indexing and products: rules of their own below or in their modules.

Functions whose results carry no derivative (argmax, argsort, all, digitize...) read the
plain values of their arguments; a batched value stays boxed through `unbox_all`, so
`read_values` and `read_along` route those through primitives that batch.
"""
import math
import string
import warnings

import numpy as np

from ..core import (BatchingFallbackWarning, Box, Primitive, defbatch, defdiagonal, every_value,
                    has_memory, is_array, registry, shape_of, unbox_all)
from ..tree_util import tree_flatten
from . import _diagonal
from ._base import (add_at_zeros, astype, broadcast_to_p, concatenate_p, getitem_p, real,
                    reshape_p, stack_p, sum_p, transpose_p)

# ---- helpers -----------------------------------------------------------------------------


def ndim_of(value):
    return len(shape_of(value))


def move_axis(x, source, destination):
    """``x`` with its axis ``source`` moved to ``destination`` (a transpose, or nothing)."""
    if source == destination:
        return x
    order = list(range(ndim_of(x)))
    order.insert(destination, order.pop(source))
    return transpose_p(x, axes=tuple(order))


def to_front(x, axis):
    return x if axis is None else move_axis(x, axis, 0)


def with_rank(x, rank):
    """Batched ``x`` (batch in front) with ones inserted after the batch axis up to
    ``rank`` dimensions besides it, so that it broadcasts against operands of that rank."""
    shape = shape_of(x)
    missing = rank - (len(shape) - 1)
    if missing <= 0:
        return x
    return reshape_p(x, shape=shape[:1] + (1,) * missing + shape[1:], order="C")


def batched_everywhere(x, axis, size):
    """``x`` with the batch in front; an unbatched ``x`` is broadcast along a new one."""
    if axis is not None:
        return move_axis(x, axis, 0)
    shape = shape_of(x)
    return broadcast_to_p(reshape_p(x, shape=(1,) + shape, order="C"), shape=(size,) + shape)


def physical(axis, batch_axis):
    """The position in the batched value of the element's ``axis`` (non-negative)."""
    return axis + (axis >= batch_axis)


def _out_axes(primitive, axis, out):
    return (axis,) * len(out) if primitive.multiple_results else axis


# ---- families ------------------------------------------------------------------------------


def elementwise(primitive, size, values, axes, params):
    """Broadcasting functions of any number of operands; parameters pass through."""
    ranks = []  # of an element of each operand
    rank = 0
    shared = None  # the batch axis, while the batched operands agree on it
    agree = True
    for v, a in zip(values, axes):
        r = len(shape_of(v))
        if a is not None:
            r -= 1
            if shared is None:
                shared = a
            elif a != shared:
                agree = False
        ranks.append(r)
        if r > rank:
            rank = r
    if agree:
        # The common case (x + y of one shape, sin(x), x * w): the batched operands have
        # the full rank, the unbatched ones no more axes than follow the batch axis, and
        # NumPy lines them up as they are.
        for a, r in zip(axes, ranks):
            if r != rank if a is not None else r > rank - shared:
                break
        else:
            out = primitive(*values, **params) if params else primitive(*values)
            return out, _out_axes(primitive, shared, out)
    moved = [v if a is None else with_rank(move_axis(v, a, 0), rank)
             for v, a in zip(values, axes)]
    out = primitive(*moved, **params)
    return out, _out_axes(primitive, 0, out)


def first_operand(primitive, size, values, axes, params):
    """Functions of their first argument alone that keep its shape (a cast, whose second
    argument is a dtype): the batch axis stays."""
    return primitive(*values, **params), axes[0]


def reduction(primitive, size, values, axes, params):
    """``f(x, axes, keepdims)``: reduce over the element's axes; the batch axis stays."""
    (x,), (b,) = values, axes
    reduced = params["axes"]
    out = primitive(x, axes=tuple(physical(a, b) for a in reduced),
                    keepdims=params["keepdims"])
    out_axis = b if params["keepdims"] else b - sum(1 for a in reduced if a < b)
    return out, out_axis


def scan(primitive, size, values, axes, params):
    """``f(x, axis, ...)`` keeping the shape (cumulative sums, sorts, splits): the axis
    parameter renumbered, the batch axis kept."""
    (x,), (b,) = values, axes
    out = primitive(x, **{**params, "axis": physical(params["axis"], b)})
    return out, _out_axes(primitive, b, out)


def over_axes(primitive, size, values, axes, params):
    """``f(x, axes, ...)`` keeping the rank (FFTs): the ``axes`` parameter renumbered."""
    (x,), (b,) = values, axes
    out = primitive(x, **{**params, "axes": tuple(physical(a, b) for a in params["axes"])})
    return out, _out_axes(primitive, b, out)


def leading(primitive, size, values, axes, params):
    """Functions of matrices that map over leading axes (linalg): batch in front, and
    batched operands of different ranks aligned as for broadcasting."""
    rank = max([ndim_of(v) - (a is not None) for v, a in zip(values, axes)])
    moved = [v if a is None else with_rank(move_axis(v, a, 0), rank)
             for v, a in zip(values, axes)]
    out = primitive(*moved, **params)
    return out, _out_axes(primitive, 0, out)


# ---- shape ops ------------------------------------------------------------------------------


def _reshape(primitive, size, values, axes, params):
    (x,), (b,) = values, axes
    shape, order = params["shape"], params["order"]
    if order == "F":  # the batch varies slowest in Fortran order: put it last
        x = move_axis(x, b, ndim_of(x) - 1)
        return reshape_p(x, shape=tuple(shape) + (size,), order=order), len(shape)
    return reshape_p(move_axis(x, b, 0), shape=(size,) + tuple(shape), order=order), 0


def _transpose(primitive, size, values, axes, params):
    (x,), (b,) = values, axes
    order = (b,) + tuple(physical(a, b) for a in params["axes"])
    return transpose_p(x, axes=order), 0


def _broadcast_to(primitive, size, values, axes, params):
    (x,), (b,) = values, axes
    shape = tuple(params["shape"])
    x = with_rank(move_axis(x, b, 0), len(shape))
    return broadcast_to_p(x, shape=(size,) + shape), 0


def _joining(primitive, size, values, axes, params):
    """concatenate and stack: every operand batched in front, the axis moved past it."""
    moved = [batched_everywhere(v, a, size) for v, a in zip(values, axes)]
    return primitive(*moved, axis=params["axis"] + 1), 0


def unstack(primitive, size, values, axes, params):
    (x,), (b,) = values, axes
    axis = physical(params["axis"], b)
    out = primitive(x, axis=axis)
    return out, (b - (axis < b),) * len(out)


# ---- indexing ---------------------------------------------------------------------------------


def _is_array(part):
    return isinstance(part, np.ndarray)


def index_batch_axis(index):
    """Where ``x[(slice(None),) + index]`` puts the batch (x's leading axis): first,
    unless the index's arrays are separated by a slice, None or Ellipsis, when NumPy puts
    their broadcast dimensions first and the batch after them."""
    arrays = [i for i, part in enumerate(index) if _is_array(part)]
    if not arrays:
        return 0
    advanced = [i for i, part in enumerate(index)
                if _is_array(part) or isinstance(part, (int, np.integer))]
    if advanced[-1] - advanced[0] + 1 == len(advanced):
        return 0
    shapes = [np.shape(part) if part.dtype != bool else (int(np.count_nonzero(part)),)
              for part in index if _is_array(part)]
    return len(np.broadcast_shapes(*shapes))


def indexed_shape(shape, index):
    """The shape of ``x[index]`` for ``x`` of ``shape`` (on a view that holds no data)."""
    return np.broadcast_to(np.zeros((), np.int8), shape)[index].shape


def batched_update(values, axis, shape, index, size):
    """The values of an indexed update, batched and laid out as
    ``x[(slice(None),) + index]`` is, for a batched ``x`` of element ``shape``."""
    target = indexed_shape(shape, index)
    values = batched_everywhere(values, axis, size)
    values = broadcast_to_p(with_rank(values, len(target)), shape=(size,) + target)
    return move_axis(values, 0, index_batch_axis(index))


def _getitem(primitive, size, values, axes, params):
    (x,), (b,) = values, axes
    index = params["index"]
    out = getitem_p(move_axis(x, b, 0), index=(slice(None),) + index, unique=params["unique"])
    return out, index_batch_axis(index)


def _add_at_zeros(primitive, size, values, axes, params):
    (g,), (b,) = values, axes
    index, shape = params["index"], params["shape"]
    g = batched_update(g, b, shape, index, size)
    return add_at_zeros(g, index=(slice(None),) + index, unique=params["unique"],
                        shape=(size,) + tuple(shape), dtype=params["dtype"]), 0


def scatter(primitive, size, values, axes, params):
    """Updates at an index (``x.at[index].set(values)`` and the like)."""
    (x, v), (xb, vb) = values, axes
    index = params["index"]
    shape = shape_of(x) if xb is None else shape_of(x)[:xb] + shape_of(x)[xb + 1:]
    x = batched_everywhere(x, xb, size)
    v = batched_update(v, vb, shape, index, size)
    return primitive(x, v, **{**params, "index": (slice(None),) + index}), 0


# ---- products ---------------------------------------------------------------------------------


def unused_label(subscripts_used):
    return next(c for c in string.ascii_letters if c not in subscripts_used)


def einsum(primitive, size, values, axes, params):
    """A new label for the batch, on each batched operand and in front of the output."""
    inputs, output = params["subscripts"]
    label = unused_label("".join(inputs) + output)
    moved = [to_front(v, a) for v, a in zip(values, axes)]
    inputs = tuple(term if a is None else label + term for term, a in zip(inputs, axes))
    return primitive(*moved, subscripts=(inputs, label + output)), 0


def _matmul_shared_matrix(primitive, a, ab, b, bb, params):
    """A product with one operand an unbatched matrix, as one matrix product (NumPy would
    make one small product per batch element, each reading the whole matrix again), or
    None where that does not apply. A batch of ``a`` joins its rows: (B, ..., K) @ (K, N)
    as (B*..., K) @ (K, N). A batch of vectors ``b`` (one-column matrices too, a VJP's
    promoted vectors) is a matrix of rows times ``a`` transposed: (B, K) @ (K, M), the
    batch in front. A batch of matrices ``b`` becomes columns: (M, K) @ (K, B*N) is
    (M, B, N), whose batch axis is 1."""
    if bb is None and ndim_of(b) == 2:
        a = to_front(a, ab)
        shape = shape_of(a)
        rows = reshape_p(a, shape=(math.prod(shape[:-1]), shape[-1]), order="C") \
            if len(shape) > 2 else a
        out = primitive(rows, b, **params)
        if len(shape) > 2:
            out = reshape_p(out, shape=shape[:-1] + shape_of(b)[1:], order="C")
        return out, 0
    if ab is None and ndim_of(a) == 2 and ndim_of(b) in (2, 3):
        b = to_front(b, bb)
        shape = shape_of(b)
        if len(shape) == 2 or shape[2] == 1:
            rows = b if len(shape) == 2 else reshape_p(b, shape=shape[:2], order="C")
            out = primitive(rows, transpose_p(a, axes=(1, 0)), **params)
            if len(shape) == 3:
                out = reshape_p(out, shape=shape_of(out) + (1,), order="C")
            return out, 0
        size, k, n = shape
        columns = reshape_p(transpose_p(b, axes=(1, 0, 2)), shape=(k, size * n), order="C")
        out = primitive(a, columns, **params)
        return reshape_p(out, shape=(shape_of(a)[0], size, n), order="C"), 1
    return None


def _matmul_outer(a, ab, b, bb):
    """Batches of outer products, (M, 1) @ (1, N) per element (a VJP's for a vector times a
    matrix), as one einsum, or None: NumPy's matmul makes one small product per batch
    element (1.6-3.5x the time), and a broadcast multiply runs a slower loop than einsum's
    (1.4x at 64 x 1000 x 100 float32, 2x at 8 x 100 x 100). einsum, like matmul, adds
    each product to +0.0: a -0.0 product comes out +0.0, where the unbatched primitive's
    multiply keeps it."""
    if ab is None or bb is None or ndim_of(a) != 3 or ndim_of(b) != 3:
        return None
    a, b = to_front(a, ab), to_front(b, bb)
    if shape_of(a)[2] != 1 or shape_of(b)[1] != 1:
        return None
    return registry["einsum"](a, b, subscripts=(("bik", "bkj"), "bij")), 0


def matmul(primitive, size, values, axes, params):
    (a, b), (ab, bb) = values, axes
    if 0 in (ndim_of(a) - (ab is not None), ndim_of(b) - (bb is not None)):
        # NumPy refuses a 0-d operand, but with the batch axis it would pass as a vector;
        # this error reaches funcgrad.numpy.matmul, which explains it
        raise ValueError("matmul: an operand is 0-d in each element of the batch")
    shared = _matmul_shared_matrix(primitive, a, ab, b, bb, params)
    if shared is None:
        shared = _matmul_outer(a, ab, b, bb)
    if shared is not None:
        return shared
    a_vector = ab is not None and ndim_of(a) == 2
    b_vector = bb is not None and ndim_of(b) == 2
    b_is_vector = ndim_of(b) - (bb is not None) == 1  # (an unbatched one NumPy handles)
    a, b = to_front(a, ab), to_front(b, bb)
    if a_vector:  # a batch of vectors is a batch of one-row matrices
        a = reshape_p(a, shape=(size, 1) + shape_of(a)[1:], order="C")
    if b_vector:
        b = reshape_p(b, shape=shape_of(b) + (1,), order="C")
    ranks = [ndim_of(v) - (bx is not None) for v, bx in ((a, ab), (b, bb))]
    rank = max([r for r in ranks if r >= 2], default=2)
    if ab is not None:
        a = with_rank(a, rank)
    if bb is not None:
        b = with_rank(b, rank)
    out = primitive(a, b, **params)
    if a_vector or b_vector:
        dims = list(shape_of(out))
        if b_vector:
            dims.pop(-1)
        if a_vector:  # its row: last once b's column is gone (or b was a vector)
            dims.pop(-1 if b_is_vector else -2)
        out = reshape_p(out, shape=tuple(dims), order="C")
    return out, 0


# ---- reading values (results without derivative) -------------------------------------------


try:  # np.count_nonzero's C function, without its Python wrapper and dispatcher (which
    # cost 0.3 us hot, 1 us on the cold cache of a jitted program after a large matmul)
    from numpy._core.multiarray import count_nonzero as _count_all_nonzero
except ImportError:  # another NumPy
    _count_all_nonzero = np.count_nonzero


def may_hold(mask):
    """Whether a raw boolean ``mask`` holds anywhere, for rules that skip work where it
    does not. A batched mask (vmap) is read whole: holding in no element of the batch, it
    holds in none. A staged one (jit) stands for the values of later runs too, and reading
    a lazy one (Dask's) would compute it: assume it does."""
    while isinstance(mask, Box) and mask._trace.batches:
        mask = mask.value
    if isinstance(mask, Box) or (type(mask) is not np.ndarray and is_array(mask)):
        return True
    return bool(_count_all_nonzero(mask))


def plain_value(x):
    """The value of ``x`` without derivatives, for masks and constants: an array, or under
    vmap a batched box (NumPy's functions dispatch to funcgrad.numpy's for it)."""
    x = unbox_all(x) if isinstance(x, Box) else x
    return x if isinstance(x, Box) or is_array(x) else np.asarray(x)


def computed(x):
    """``x`` as an array with memory, for indices and for positions read from values: a
    lazy (Dask) array is computed; NumPy's and CuPy's are kept."""
    return x if has_memory(x) else np.asarray(x)


def holds_anywhere(mask):
    """Whether a boolean ``mask`` holds anywhere, in any element of a batch: for checks
    that raise an error (an inaccurate decomposition, zero weights)."""
    return bool(np.any(every_value(mask)))


def _plain(leaves):
    return [unbox_all(x) if isinstance(x, Box) else x for x in leaves]


def _read_impl(*leaves, function, tree):
    args, kwargs = tree.unflatten(leaves)
    return function(*args, **kwargs)


_reported = set()


# Functions whose result has one element per element of one positional argument
# (numbered here), computed from that element alone: a batch of that argument (the other
# arguments unbatched) is computed in one call, its batch axis kept where it is.
_ELEMENTWISE_IN = {np.digitize: 0, np.isin: 0, np.searchsorted: 1}


def _read_per_element(primitive, size, values, axes, params):
    """Run the function once per batch element (its result may depend on values in any
    way) and stack the results; in one call where `_ELEMENTWISE_IN` allows."""
    function = params["function"]
    position = _ELEMENTWISE_IN.get(function)
    if position is not None:
        args_axes, kwargs_axes = params["tree"].unflatten(list(axes))
        if position < len(args_axes) and type(args_axes[position]) is int and sum(
                axis is not None for axis in axes) == 1:
            return primitive(*values, **params), args_axes[position]
    name = f"{getattr(function, '__module__', None) or 'numpy'}.{function.__name__}"
    if name not in _reported:
        _reported.add(name)
        warnings.warn(f"funcgrad.vmap: {name} reads the values of a batched array, so it "
                      f"runs once per batch element in a Python loop.", BatchingFallbackWarning,
                      stacklevel=5)
    if size == 0:  # as the fallback loop (core.batching.loop_over_batch)
        raise ValueError(f"funcgrad.vmap: {name} reads the values of a batched array, and a "
                         f"batch of size 0 gives no element to read the result's shape from.")
    results = []
    for i in range(size):
        element = [v if a is None else v[(slice(None),) * a + (i,)]
                   for v, a in zip(values, axes)]
        results.append(primitive(*element, **params))
    shapes = {shape_of(r) for r in results}
    if any(isinstance(r, (tuple, list)) for r in results) or len(shapes) > 1:
        raise ValueError(f"funcgrad.vmap: {name} gives the elements of the batch "
                         f"results of different shapes (or a tuple of arrays), which cannot "
                         f"be stacked into one batched array; compute it outside vmap.")
    return np.stack(results), 0


read_values_p = Primitive("read_values", _read_impl, register=False)
defbatch(read_values_p, _read_per_element)


# Functions of stacks of matrices that map over their leading axes, as NumPy's linalg:
# a batch goes in front, in one call (a batch of size 0 included).
read_stacked_p = Primitive("read_stacked", _read_impl, register=False)
defbatch(read_stacked_p, leading)


def _read(primitive, function, args, kwargs):
    leaves, tree = tree_flatten((args, kwargs))
    leaves = _plain(leaves)
    if not any(isinstance(x, Box) for x in leaves):
        args, kwargs = tree.unflatten(leaves)
        return function(*args, **kwargs)
    return primitive(*leaves, function=function, tree=tree)


def read_values(function, *args, **kwargs):
    """``function(*args, **kwargs)`` (NumPy's, with no derivative) on the plain values of
    its arguments, which may be traced and may hold traced values in lists."""
    return _read(read_values_p, function, args, kwargs)


def read_stacked(function, *args, **kwargs):
    """`read_values` for a function of stacks of matrices that maps over their leading
    axes: under vmap, one call for the whole batch."""
    return _read(read_stacked_p, function, args, kwargs)


def _read_along_impl(x, function, axis, keepdims, options):
    if keepdims is None:
        return function(x, axis=axis, **dict(options))
    return function(x, axis=axis, keepdims=keepdims, **dict(options))


def _read_along_batch(primitive, size, values, axes, params):
    """Along an axis (or several): renumbered around the batch axis; None (all axes)
    becomes the one axis of each element's values flattened."""
    (x,), (b,) = values, axes
    axis, keepdims = params["axis"], params["keepdims"]
    if axis is None:
        shape = shape_of(x)  # each element's size spelled out: -1 is ambiguous in an empty batch
        flat = reshape_p(move_axis(x, b, 0), shape=(size, math.prod(shape[:b] + shape[b + 1:])),
                         order="C")
        out = primitive(flat, **{**params, "axis": 1})
        if keepdims:
            out = reshape_p(out, shape=(size,) + (1,) * (ndim_of(x) - 1), order="C")
        return out, 0
    many = isinstance(axis, tuple)
    moved = tuple(physical(a, b) for a in axis) if many else physical(axis, b)
    out = primitive(x, **{**params, "axis": moved})
    if keepdims is None or keepdims:  # the shape is kept (argsort) or the axes are
        return out, b
    return out, b - sum(1 for a in (axis if many else (axis,)) if a < b)


read_along_p = Primitive("read_along", _read_along_impl, register=False)
defbatch(read_along_p, _read_along_batch)


def read_along(function, x, axis, keepdims=None, **options):
    """``function(x, axis=axis[, keepdims=keepdims], **options)`` on the plain values of
    ``x``; ``axis`` is None, a non-negative int or a tuple of them; ``keepdims=None`` for
    functions that keep the shape (argsort). Options that are None are not passed: other
    libraries' functions (CuPy's) may not take them."""
    options = {name: value for name, value in options.items() if value is not None}
    x = unbox_all(x) if isinstance(x, Box) else x
    if not isinstance(x, Box):
        return _read_along_impl(x, function, axis, keepdims, tuple(options.items()))
    return read_along_p(x, function=function, axis=axis, keepdims=keepdims,
                        options=tuple(options.items()))


# ---- the base layer's primitives ------------------------------------------------------------

defbatch(astype, first_operand)
defbatch(real, elementwise)
defdiagonal(astype, _diagonal.elementwise)
defdiagonal(real, _diagonal.elementwise)
defdiagonal(reshape_p, _diagonal.reshape)
defdiagonal(sum_p, _diagonal.total)
defbatch(sum_p, reduction)
defbatch(reshape_p, _reshape)
defbatch(transpose_p, _transpose)
defbatch(broadcast_to_p, _broadcast_to)
defbatch(concatenate_p, _joining)
defbatch(stack_p, _joining)
defbatch(getitem_p, _getitem)
defbatch(add_at_zeros, _add_at_zeros)
