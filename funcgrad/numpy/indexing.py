"""Indexing: ``x[index]``, take and take_along_axis, and the transpose of indexing.

Every index form NumPy accepts is normalized once by `canonical_index` (a tuple whose
array parts are plain integer or boolean NumPy arrays), so the rules see one format.
"""
import numpy as np

from ..core import (Box, dtype_of, is_array, strip_derivatives, unbox_all,
                    zeros_in_library_of)
from ._add_at import added_at
from ._axes import normalize_one_axis
from ..core import Primitive, defbatch, defjvp, defvjp
from ._base import as_array, getitem_p, transpose_p
from ._batching import batched_everywhere, computed, ndim_of, with_rank
from ._rules import ArgVJP, aval, reject_out
from .shape_ops import ravel

_VALID_INDICES = ("indices must be integers, slices, None (numpy.newaxis), Ellipsis, or "
                  "integer or boolean arrays")


def _index_array(part, function):
    """A list, tuple or array used as (part of) an index, as an integer or boolean array."""
    array = np.asarray(part)
    if array.dtype.kind not in "iub":
        if array.size == 0:  # `x[[]]`: NumPy reads an empty list as no integers
            return array.astype(np.intp)
        raise IndexError(f"funcgrad.numpy.{function}: an array used as an index must hold "
                         f"integers or booleans, got dtype {array.dtype}; {_VALID_INDICES}")
    return array


def _slice_bound(bound, function):
    if bound is None or type(bound) is int:
        return bound
    if isinstance(bound, Box):
        bound = unbox_all(bound)
    if isinstance(bound, (np.integer, np.ndarray)) and np.ndim(bound) == 0 \
            and dtype_of(bound).kind in "iu":
        return int(bound)
    raise TypeError(f"funcgrad.numpy.{function}: slice bounds must be integers or None, got "
                    f"{bound!r}")


def _canonical_part(part, function):
    kind = type(part)
    if kind is int or part is None or part is Ellipsis:
        return part
    if kind is slice:
        start, stop, step = part.start, part.stop, part.step
        if (start is None or type(start) is int) and (stop is None or type(stop) is int) \
                and (step is None or type(step) is int):
            return part
        return slice(_slice_bound(start, function), _slice_bound(stop, function),
                     _slice_bound(step, function))
    if isinstance(part, Box):
        if dtype_of(part).kind not in "iub":
            raise TypeError(
                f"funcgrad.numpy.{function}: an index was a traced {dtype_of(part)} value. "
                f"Indices cannot carry derivatives; {_VALID_INDICES}. Convert a computed "
                f"index with .astype(int) first.")
        if dtype_of(part).kind in "iu":
            # Integers staged by jit or batched by vmap stay values of the program, left
            # for `gather_batched`: a jitted x[i] replays for every i, with no guard.
            kept = strip_derivatives(part)
            if isinstance(kept, Box):
                return kept
        part = unbox_all(part)  # a staged mask: its values decide the shape (a guard)
        if isinstance(part, Box):  # a batched mask: refused by `gather_batched`
            return part
    if isinstance(part, (bool, np.bool_)):
        return bool(part)
    if isinstance(part, (int, np.integer)):  # a traced Python int's value
        return int(part)
    if isinstance(part, (float, complex, np.inexact)):
        raise IndexError(f"funcgrad.numpy.{function}: the index {part!r} is not an integer; "
                         f"{_VALID_INDICES}. Convert it with int() first.")
    if isinstance(part, (list, tuple, np.ndarray)):
        return _index_array(part, function)
    raise IndexError(f"funcgrad.numpy.{function}: {type(part).__name__} {part!r} cannot be "
                     f"used as an index; {_VALID_INDICES}")


def batched_indices(indices):
    """The box of vmap holding `indices` when they differ per batch element (their values
    are not read: no guard under jit), else None."""
    if isinstance(indices, Box):
        kept = strip_derivatives(indices)
        if isinstance(kept, Box) and kept._trace.batches:
            return kept
    return None


def canonical_index(index, function="getitem"):
    """``index`` as a tuple of ints, slices, None, Ellipsis and integer/boolean arrays."""
    kind = type(index)
    if kind is int or kind is slice:  # the hot path: x[i], x[a:b]
        return (_canonical_part(index, function),)
    if kind is not tuple:
        index = (index,)
    return tuple([_canonical_part(part, function) for part in index])


def has_integer_array(index):
    """Whether ``index`` (canonical) may pick an element more than once."""
    return any(type(part) is np.ndarray and part.dtype.kind in "iu" for part in index)


def getitem(x, index):
    """``x[index]`` for every NumPy index form; the VJP adds into zeros at the index."""
    index = canonical_index(index)
    if any(isinstance(part, Box) for part in index):
        return gather_batched(x, index)
    return getitem_p(x, index=index, unique=not has_integer_array(index))


# ---- take, take_along_axis -------------------------------------------------------------


def _integer_indices(indices, function):
    """``indices`` as an integer array (computed indices may arrive traced, never float)."""
    if isinstance(indices, Box):
        indices = unbox_all(indices)
    # CuPy's indices stay on the device; NumPy's conversion computes a Dask index, which
    # Dask's own fancy indexing could not take.
    indices = computed(indices)
    if indices.dtype.kind not in "iu":
        if indices.size == 0:
            return indices.astype(np.intp)
        raise IndexError(f"funcgrad.numpy.{function}: indices must be integers, got dtype "
                         f"{indices.dtype}")
    return indices


def _apply_index_mode(indices, count, mode, function):
    """``indices`` (into ``count`` entries) wrapped or clipped as NumPy's ``mode`` says;
    unchanged for 'raise', whose range check is the caller's (its errors differ)."""
    if mode == "wrap":
        return np.mod(indices, count)
    if mode == "clip":
        return np.clip(indices, 0, count - 1)
    if mode != "raise":
        raise ValueError(f"funcgrad.numpy.{function}: mode must be 'raise', 'wrap' or 'clip', "
                         f"got {mode!r}")
    return indices


def take(a, indices, axis=None, out=None, mode="raise"):
    """``numpy.take``: elements of ``a`` at ``indices`` along ``axis`` (flattened if None).

    ``mode`` is NumPy's: 'raise' (out-of-bounds indices are an error), 'wrap' or 'clip'.
    """
    reject_out(out, "take")
    a = as_array(a)
    if axis is None:
        a, axis = ravel(a), 0
    axis = normalize_one_axis(axis, np.ndim(a), "take")
    length = np.shape(a)[axis]
    if batched_indices(indices) is not None:
        indices = _apply_index_mode(batched_indices(indices), length, mode, "take")
        return gather_batched(a, (slice(None),) * axis + (indices,))
    indices = _integer_indices(indices, "take")
    indices = _apply_index_mode(indices, length, mode, "take")
    if mode == "raise" and indices.size and not (
            -length <= indices.min() and indices.max() < length):
        raise IndexError(f"funcgrad.numpy.take: an index is out of bounds for axis {axis} "
                         f"with size {length}")
    return getitem_p(a, index=(slice(None),) * axis + (indices,), unique=indices.ndim == 0)


def _along_axis_index(shape, indices, axis):
    """The fancy index that picks ``indices`` along ``axis`` and keeps the other axes."""
    index = []
    for dim, length in enumerate(shape):
        if dim == axis:
            index.append(indices)
        else:
            span = [1] * len(shape)
            span[dim] = length
            index.append(np.arange(length).reshape(span))
    return tuple(index)


def take_along_axis(arr, indices, axis=-1):
    """``numpy.take_along_axis``: pick ``indices`` (arr's rank) along ``axis``."""
    return permute_along_axis(arr, indices, axis, unique=False, function="take_along_axis")


# ---- indices that are values: batched (vmap) or staged (jit) --------------------------------
# An index is a parameter of getitem; index arrays that differ per batch element or per
# run of a jitted program are arguments of these two primitives instead (never
# differentiated: they are integers). `template` is the canonical index with `SLOT` where
# each such array goes. Unregistered: only batched or staged indices reach them, so the
# vmap and jit tests check them (tests/test_vmap*.py, tests/test_jit*.py).


class _Slot:
    """The place of an index array in a template (one object, compared by identity)."""

    __slots__ = ()

    def __repr__(self):
        return "SLOT"


SLOT = _Slot()


def _fill(template, arrays):
    arrays = iter(arrays)
    return tuple([next(arrays) if part is SLOT else part for part in template])


def _gather_impl(x, *arrays, template):
    return x[_fill(template, arrays)]


def _scatter_zeros_impl(g, *arrays, template, shape, dtype):
    out = zeros_in_library_of(g, shape, dtype)
    index = _fill(template, arrays)
    if not any(is_array(array) for array in arrays) and not has_integer_array(template):
        # Integers (no arrays, a 0-d one included): each element is picked once, and
        # assigned, as getitem's transpose does for them (so -0.0 stays -0.0).
        out[index] = g
        return out
    return added_at(out, index, g)


def _scatter_last_impl(ids, *arrays, template, shape):
    out = np.full(shape, -1, np.intp)
    np.maximum.at(out, _fill(template, arrays), ids)
    return out


gather_p = Primitive("gather", _gather_impl, register=False)
# The transpose: values added into zeros at the index.
scatter_zeros_p = Primitive("scatter_zeros", _scatter_zeros_impl, register=False)
# The largest of the update numbers `ids` written at each position (-1 where none is):
# which update a set whose index repeats keeps (the last). Integers: no derivative.
scatter_last_p = Primitive("scatter_last", _scatter_last_impl, register=False)


def _gather_pull(g, arrays, template, shape, dtype):
    return scatter_zeros_p(g, *arrays, template=template, shape=shape, dtype=dtype)


def _scatter_zeros_pull(g, arrays, template):
    return gather_p(g, *arrays, template=template)


defvjp(gather_p, ArgVJP(lambda ans, x, *arrays, template: (arrays, template, *aval(x)),
                        _gather_pull))
defvjp(scatter_zeros_p, ArgVJP(lambda ans, g, *arrays, template, shape, dtype:
                               (arrays, template), _scatter_zeros_pull))
defjvp(gather_p, lambda t, ans, x, *arrays, template: gather_p(t, *arrays, template=template))
defjvp(scatter_zeros_p, lambda t, ans, g, *arrays, template, shape, dtype:
       scatter_zeros_p(t, *arrays, template=template, shape=shape, dtype=dtype))


def _batched_index(size, arrays, axes, template):
    """The index of the batched operand (batch in front): a range over the batch first, then
    the template's parts, its slots filled with the index arrays batched in front; every
    array part broadcasts against the others, so NumPy puts the batch first in the result,
    then the arrays' dimensions (``rank`` of them), then the other parts'."""
    arrays = [batched_everywhere(a, b, size) for a, b in zip(arrays, axes)]
    static = [part for part in template if isinstance(part, np.ndarray)]
    rank = max([ndim_of(a) - 1 for a in arrays] + [p.ndim for p in static])
    arrays = [with_rank(a, rank) for a in arrays]
    batch = np.arange(size).reshape((size,) + (1,) * rank)
    return [batch] + arrays, (SLOT,) + template, rank


def _advanced_position(template, ndim):
    """Where one element's ``x[template]`` (x of ``ndim`` dimensions) puts the index arrays'
    dimensions: after the dimensions of the parts before them when those arrays (and ints)
    are adjacent, else first (0), as NumPy does."""
    advanced = [i for i, part in enumerate(template)
                if part is SLOT or isinstance(part, (np.ndarray, int, np.integer))]
    if advanced[-1] - advanced[0] + 1 != len(advanced):
        return 0
    consumed = sum(1 for part in template if part is not None and part is not Ellipsis)
    return sum(ndim - consumed if part is Ellipsis else 1 for part in template[:advanced[0]])


def _arrays_moved(x, rank, source, destination):
    """``x`` (batch first) with its ``rank`` index-array dimensions moved from just after
    the batch by ``source`` to ``destination`` places."""
    if source == destination:
        return x
    rest = [d for d in range(1, ndim_of(x)) if not 1 + source <= d < 1 + source + rank]
    block = list(range(1 + source, 1 + source + rank))
    order = [0] + rest[:destination] + block + rest[destination:]
    return transpose_p(x, axes=tuple(order))


def _gather_batch(primitive, size, values, axes, params):
    x = batched_everywhere(values[0], axes[0], size)
    arrays, template, rank = _batched_index(size, values[1:], axes[1:], params["template"])
    out = gather_p(x, *arrays, template=template)
    position = _advanced_position(params["template"], ndim_of(x) - 1)
    return _arrays_moved(out, rank, 0, position), 0


def _scatter_batch(primitive, size, values, axes, params):
    """A scatter into a new array of ``params["shape"]`` (scatter_zeros, scatter_last): the
    batch becomes the first axis of that array and a leading index array."""
    g = batched_everywhere(values[0], axes[0], size)
    arrays, template, rank = _batched_index(size, values[1:], axes[1:], params["template"])
    position = _advanced_position(params["template"], len(params["shape"]))
    g = _arrays_moved(g, rank, position, 0)  # laid out as the batched gather makes it
    params = dict(params, template=template, shape=(size,) + tuple(params["shape"]))
    return primitive(g, *arrays, **params), 0


defbatch(gather_p, _gather_batch)
defbatch(scatter_zeros_p, _scatter_batch)
defbatch(scatter_last_p, _scatter_batch)


def gather_batched(x, index):
    """``x[index]`` for a canonical index some of whose integer arrays are boxes of vmap
    or jit (values of the batch or of the program rather than constants).
    Boolean arrays become their integer positions, so that every array part broadcasts."""
    template, arrays = index_template(index, "getitem")
    return gather_p(x, *arrays, template=template)


def index_template(index, function):
    """(template, arrays) of a canonical index whose integer arrays that are boxes go to
    `arrays` (a `SLOT` in the template for each); boolean masks become their integer
    positions, so that every array part broadcasts against the others."""
    template, arrays = [], []
    for part in index:
        if isinstance(part, Box):
            if dtype_of(part).kind not in "iu":
                raise TypeError(f"funcgrad.numpy.{function}: a boolean mask that differs "
                                f"per batch element (vmap) would give each element its own "
                                f"shape; use funcgrad.numpy.where instead.")
            template.append(SLOT)
            arrays.append(part)
        elif isinstance(part, np.ndarray) and part.dtype == bool:
            template.extend(np.nonzero(part))
        else:
            template.append(part)
    return tuple(template), arrays


def permute_along_axis(arr, indices, axis, unique=True, function="take_along_axis"):
    """take_along_axis for callers that know whether the indices along each line are
    distinct (a permutation, as in sort): then the VJP assigns instead of accumulating."""
    arr = as_array(arr)
    if batched_indices(indices) is not None:
        indices = batched_indices(indices)
        if axis is None:
            arr, axis = ravel(arr), 0
        axis = normalize_one_axis(axis, np.ndim(arr), function)
        return gather_batched(arr, _along_axis_index(np.shape(arr), indices, axis))
    indices = _integer_indices(indices, function)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError(f"funcgrad.numpy.{function}: with axis=None, indices must be "
                             f"one-dimensional, got shape {indices.shape}")
        arr, axis = ravel(arr), 0
    shape = np.shape(arr)
    if indices.ndim != len(shape):
        raise ValueError(f"funcgrad.numpy.{function}: indices (shape {indices.shape}) and "
                         f"arr (shape {shape}) must have the same number of dimensions")
    axis = normalize_one_axis(axis, len(shape), function)
    # Where indices are longer than arr in another dimension, arr's single line there is
    # read more than once: not unique then.
    broadcasts = any(n > m for d, (n, m) in enumerate(zip(indices.shape, shape)) if d != axis)
    return getitem_p(arr, index=_along_axis_index(shape, indices, axis),
                    unique=unique and not broadcasts)


__all__ = ["getitem", "take", "take_along_axis"]
