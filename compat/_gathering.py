"""PyTorch's gather, scatter, index_*, take and put functions, narrow and select, on funcgrad's
indexing and `.at[]` updates, with PyTorch's addressing (an index picks along one `dim`) and
PyTorch's checks of the index, in its order and with its messages."""
import numbers

import numpy as np

import funcgrad.numpy as fnp
from funcgrad.core import shape_of, unbox_all

from . import _dtypes
from ._dim_args import checked_dims, existing_dims
from ._record import broadcast_error


def _along(index, dim, ndim):
    """The index of a tensor of `ndim` >= 1 dimensions that picks, at each position of
    `index`, element index[...] along `dim` (PyTorch's gather/scatter addressing; a 0-d
    index is one position of a vector; an empty one, of any shape, picks nothing)."""
    index = np.asarray(index)
    if index.size == 0:
        return (np.zeros(index.shape, np.intp),) * ndim
    if index.ndim == 0:
        return (index,)
    grids = list(np.indices(index.shape, sparse=True))
    grids[dim % index.ndim] = index
    return tuple(grids)


def _as_vector(x):
    """x, a 0-d x as a vector of one element (as gather and scatter read scalars)."""
    return fnp.reshape(x, (1,)) if fnp.ndim(x) == 0 else x


def _shaped_like(out, x):
    """A gather or scatter result computed on `_as_vector(x)`, back to x's dimensions."""
    return fnp.reshape(out, ()) if fnp.ndim(x) == 0 and fnp.ndim(out) else out


def _check_index(index, name, x, dim, src=None):
    """PyTorch's checks of a gather/scatter index, in its order: int32 or int64; its shape
    against x's and src's (a tensor; None for a number), unless it is empty; within
    [0, size) along `dim` (PyTorch counts no index from the end here)."""
    index = np.asarray(index)
    if index.dtype not in (np.int64, np.int32):  # (PyTorch names scatter for its variants)
        kernel = "gather" if name == "gather" else "scatter"
        raise RuntimeError(f"{kernel}(): Expected dtype int32/int64 for index")
    axis = checked_dims(x, dim)
    if index.size:
        _check_index_shape(name, index.shape, fnp.shape(x), axis,
                           None if src is None else fnp.shape(src))
    _check_in_range(index, (fnp.shape(x) or (1,))[axis], axis, RuntimeError, negatives=False)


def _length(shape, d):
    """shape[d], a scalar's shape counting as (1,) (PyTorch's ensure_nonempty_size)."""
    if not shape:
        return 1
    if d >= len(shape):
        raise IndexError(f"Dimension out of range (expected to be in range of [{-len(shape)}, "
                         f"{len(shape) - 1}], but got {d})")
    return shape[d]


def _check_index_shape(name, index_shape, shape, axis, src_shape):
    """PyTorch's errors, in its order, for an index with another number of dimensions than
    x or src (of `src_shape`, None for a number), longer than x along another dimension
    than `axis`, or longer than src along any (src is read only where x's sizes pass)."""
    ndim = max(len(shape), 1)
    if max(len(index_shape), 1) != ndim:
        raise RuntimeError(f"Index tensor must have the same number of dimensions as "
                           f"{'input' if name == 'gather' else 'self'} tensor")
    longer = [d for d in range(ndim) if d != axis and _length(index_shape, d) > _length(shape, d)]
    if name == "gather":
        if longer:
            raise RuntimeError(f"Size does not match at dimension {longer[0]} expected index "
                               f"{list(index_shape)} to be no larger than self {list(shape)} "
                               f"apart from dimension {axis}")
        return
    if not longer and src_shape is not None:  # src is read up to its first shorter dimension
        for d in range(ndim):
            if _length(index_shape, d) > _length(src_shape, d):
                longer = [d]
                break
    if src_shape is not None and max(len(src_shape), 1) != ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    if longer:
        src_part = "" if src_shape is None else f" and to be no larger size than src " \
                                                f"{list(src_shape)}"
        raise RuntimeError(f"Expected index {list(index_shape)} to be no larger than self "
                           f"{list(shape)} apart from dimension {axis}{src_part}")


def _read_source(src, index):
    """The elements of a scatter's src that `index` reads, shaped like index: its leading
    block of index's shape (a 0-d index reads one element; a 0-d src is one element, read
    wherever index points)."""
    if fnp.ndim(src) == 0:
        return src
    if not np.size(index):  # nothing is read (src may be shorter than the empty index)
        return np.zeros((), unbox_all(src).dtype)
    shape = np.shape(index)
    part = fnp.getitem(src, tuple(slice(0, n) for n in shape or (1,)))
    return part if shape else fnp.reshape(part, ())


def gather(x, dim, index, *, sparse_grad=False):
    _check_index(index, "gather", x, dim)
    return fnp.getitem(_as_vector(x), _along(index, dim, max(fnp.ndim(x), 1)))


def scatter_add(x, dim, index, src):
    _check_index(index, "scatter_add", x, dim, src)
    out = fnp.at(_as_vector(x))[_along(index, dim, max(fnp.ndim(x), 1))].add(
        _read_source(src, index))
    return _shaped_like(out, x)


def scatter(x, dim, index, src=None, *, value=None, reduce=None):
    _check_index(index, "scatter", x, dim, None if isinstance(src, numbers.Number) else src)
    if reduce is not None:
        raise NotImplementedError("compat: scatter(reduce=...) is not supported; use "
                                  "scatter_add or scatter_reduce")
    if src is not None and not isinstance(src, numbers.Number):
        _check_same_dtype(x, src, "scatter(): Expected self.dtype to be equal to src.dtype")
    index = np.asarray(index)
    part = value if src is None else _read_source(src, index)
    where = _along(index, dim, max(fnp.ndim(x), 1))
    return _shaped_like(fnp.at(_as_vector(x))[where].set(part), x)


def _scalar_type(x):
    """PyTorch's name of x's element type in messages: Float, Long, Bool, ..."""
    return _dtypes.from_numpy_dtype(unbox_all(x).dtype).scalar_name


def _check_same_dtype(x, other, message):
    if unbox_all(x).dtype != unbox_all(other).dtype:
        raise RuntimeError(message)


_SCATTER_UPDATES = {"sum": "add", "prod": "multiply", "amax": "max", "amin": "min"}


def _scatter_identity(reduce, dtype):
    """The value a position starts from when include_self=False leaves its own out."""
    if reduce in ("sum", "prod"):
        return np.asarray(0 if reduce == "sum" else 1, dtype)
    if np.issubdtype(dtype, np.floating):
        return np.asarray(-np.inf if reduce == "amax" else np.inf, dtype)
    limits = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    if limits is None:  # bool
        return np.asarray(reduce == "amin", dtype)
    return np.asarray(limits.min if reduce == "amax" else limits.max, dtype)


def scatter_reduce(x, dim, index, src, reduce, *, include_self=True):
    """src's elements reduced into x at index[...] along `dim` (PyTorch's addressing);
    with include_self=False, a position src reaches starts from the reduction's identity
    instead of its own value (and gets no gradient for it)."""
    _check_index(index, "scatter_reduce", x, dim, src)
    if reduce not in _SCATTER_UPDATES and reduce != "mean":
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    _check_same_dtype(x, src, "scatter(): Expected self.dtype to be equal to src.dtype")
    if reduce in ("amax", "amin"):
        _refuse_complex(x, f"scatter_gather_tensor_cpu_reduce_{reduce}")
    vector = _as_vector(x)
    where = _along(index, dim, fnp.ndim(vector))
    part = _read_source(src, index)
    dtype = unbox_all(x).dtype
    hits = np.zeros(fnp.shape(vector), np.int64)
    np.add.at(hits, where, 1)
    hits = _shaped_like(hits, x)
    if reduce == "mean":
        total = scatter_reduce(x, dim, index, src, "sum", include_self=include_self)
        counts = (hits + 1 if include_self else np.maximum(hits, 1)).astype(dtype)
        if np.issubdtype(dtype, np.inexact):
            return total / counts
        return fnp.floor_divide(total, counts)  # PyTorch's integer mean rounds down
    update = _SCATTER_UPDATES[reduce]
    start = x if include_self else fnp.where(hits > 0, _scatter_identity(reduce, dtype), x)
    if not include_self and reduce in ("amax", "amin"):
        start = _ties_counting_self(x, start, hits, where, part, update)
    out = getattr(fnp.at(_as_vector(start))[where], update)(part)
    return _shaped_like(out, x)


def _ties_counting_self(x, start, hits, where, part, update):
    """The start of an amax/amin that leaves x out: where x's own value equals the result,
    x's value as a constant instead of the identity (the same result), so that x counts
    among the ties sharing the derivative, as PyTorch's backward counts it, while getting
    no derivative itself."""
    result = _shaped_like(getattr(fnp.at(_as_vector(unbox_all(start)))[where], update)(
        unbox_all(part)), x)
    constant = unbox_all(x)
    return fnp.where((hits > 0) & (constant == result), constant, start)


def masked_scatter(x, mask, source):
    """x with the positions where `mask` (broadcast to x) is True filled, in row-major
    order, by source's first elements."""
    mask = np.asarray(mask)
    if mask.dtype != np.bool_:
        raise RuntimeError("masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {_scalar_type(mask)}")
    _check_same_dtype(x, source, "masked_scatter: expected self and source to have same "
                      f"dtypes but got{_scalar_type(x)} and {_scalar_type(source)}")  # (sic)
    mask = np.broadcast_to(mask, np.broadcast_shapes(fnp.shape(x), mask.shape))
    x = fnp.broadcast_to(x, mask.shape)
    count = int(mask.sum())
    if count > fnp.size(source):
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return fnp.at(x)[mask].set(fnp.reshape(source, (-1,))[:count])


def index_select(x, dim, index):
    axis = checked_dims(x, dim)
    index = np.asarray(index)
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if index.dtype not in (np.int32, np.int64):
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    if fnp.ndim(x) == 0:  # PyTorch's 0-d tensor has one element along dimension 0
        if index.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got "
                               f"{index.size} value(s)")
        _check_selected(index, (1,), 0)
        return x
    _check_selected(index, fnp.shape(x), axis)
    return fnp.take(x, np.reshape(index, (-1,)), axis=axis)  # a 0-d index as a vector


def _check_selected(index, shape, axis):
    """PyTorch's error for an index_select `index` out of [0, size) along `axis` of a tensor
    of `shape` (it counts no index from the end here), which depends on the kernel it
    picks: the one for dimension 1 and the one for an empty tensor of two or more
    dimensions say which index, the others do not."""
    size = shape[axis]
    empty = len(shape) > 1 and 0 in shape
    if empty and not size and index.size:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    bad = index[(index < 0) | (index >= size)]
    if not bad.size:
        return
    if axis == 1 or empty:
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad.flat[0]} "
                           f"axis_dim={size}")
    raise IndexError("index out of range in self")


def _check_index_along(name, x, dim, index, source):
    """PyTorch's checks of index_add's and index_reduce's arguments, in its order: `index`
    a vector of int32 or int64, `dim` a dimension of source too, source of x's dtype, one
    index per slice of source along dim, source shaped as x but along dim. Returns dim,
    counted from 0 (range of the indices is each function's own check)."""
    index, dim = np.asarray(index), checked_dims(x, dim)
    if index.ndim > 1:
        raise IndexError(f"{name}_(): Index is supposed to be a vector, but got dim: "
                         f"{index.ndim} with type: {_scalar_type(index)} and size: "
                         f"{list(index.shape)}")
    if index.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{name}_(): Expected dtype int32/int64 for index but got: "
                           f"{_scalar_type(index)}")
    shape, source_shape = fnp.shape(x), fnp.shape(source)
    sizes = source_shape or (1,)  # (a 0-d source is read as one slice)
    if dim >= len(sizes):
        raise RuntimeError(f"{name}_(): Indexing dim {dim} is out of bounds of the source "
                           f"tensor with dim {len(source_shape)}")
    _check_same_dtype(x, source, f"{name}_(): self ({_scalar_type(x)}) and source "
                      f"({_scalar_type(source)}) must have the same scalar type")
    if index.size != sizes[dim]:
        raise RuntimeError(f"{name}_(): Number of indices ({index.size}) should be equal to "
                           f"source.size(dim): ({sizes[dim]}), for dim: {dim}")
    if len(shape) != len(source_shape) or _without(shape, dim) != _without(source_shape, dim):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(shape)} "
                           f"source.shape = {list(source_shape)}")
    return dim


def _without(shape, dim):
    """`shape` without its dimension `dim` (a slice's shape)."""
    return shape[:dim] + shape[dim + 1:]


def _slices_at(dim, index, ndim):
    """The index of a tensor of `ndim` dimensions (a 0-d one read as a vector) that picks
    the slices at `index` (a vector, or one position) along `dim`."""
    grid = [slice(None)] * max(ndim, 1)
    grid[dim] = np.reshape(index, (-1,))
    return tuple(grid)


def index_add(x, dim, index, source, *, alpha=1):
    dim = _check_index_along("index_add", x, dim, index, source)
    index = np.asarray(index)
    _check_in_range(index, (fnp.shape(x) or (1,))[dim], dim, RuntimeError, negatives=False)
    out = fnp.at(_as_vector(x))[_slices_at(dim, index, fnp.ndim(x))].add(
        _as_vector(source) if alpha == 1 else _as_vector(source) * alpha)
    return _shaped_like(out, x)


_INDEX_REDUCTIONS = ("prod", "mean", "amax", "amin")


def _refuse_complex(x, kernel):
    """PyTorch's error where `kernel` (if any) meets complex numbers, which it has no loop
    for (NumPy would order them lexicographically)."""
    if kernel is not None and np.iscomplexobj(unbox_all(x)):
        raise _dtypes.not_implemented_for(kernel, _dtypes.from_numpy_dtype(unbox_all(x).dtype))


def _index_reduce_kernel(x, reduce, include_self):
    """The kernel of PyTorch's index_reduce that refuses complex numbers (None where its
    kernel computes them: prod and mean of a matrix, including its own values)."""
    if not include_self:
        return "index_reduce_func_exclude_input_init"
    if fnp.ndim(x) <= 1:
        return "index_func_"
    return {"amax": "maximum_cpu", "amin": "minimum_cpu"}.get(reduce)


def index_reduce(x, dim, index, source, reduce, *, include_self=True):
    """source's slices along `dim` reduced into x's slices at `index`: scatter_reduce with
    the index spread over each slice (whose derivatives PyTorch's index_reduce shares)."""
    if reduce not in _INDEX_REDUCTIONS:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    dim = _check_index_along("index_reduce", x, dim, index, source)
    _refuse_complex(x, _index_reduce_kernel(x, reduce, include_self))
    index = np.reshape(index, (-1,))
    size = (fnp.shape(x) or (1,))[dim]
    if np.any((index < 0) | (index >= size)):
        raise IndexError("index out of range in self")
    shape = fnp.shape(source)
    if not shape:
        return scatter_reduce(x, 0, index.reshape(()), source, reduce,
                              include_self=include_self)
    along = index.reshape([-1 if d == dim else 1 for d in range(len(shape))])
    return scatter_reduce(x, dim, np.broadcast_to(along, shape), source, reduce,
                          include_self=include_self)


def index_copy(x, dim, index, source):
    """x with its slices at `index` along `dim` replaced by source's, in order."""
    index, dim = np.asarray(index), checked_dims(x, dim)
    if index.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.ndim})")
    if index.dtype != np.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got "
                           f"{_scalar_type(index)}")
    _check_same_dtype(x, source, f"index_copy_(): self and source expected to have the same "
                      f"dtype, but got (self) {_scalar_type(x)} and (source) "
                      f"{_scalar_type(source)}")
    shape, source_shape = fnp.shape(x), fnp.shape(source)
    if not source_shape and index.size != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element "
                         f"(got {index.size})")
    if source_shape and shape and len(source_shape) != len(shape):
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their "
                         f"dimensionality must match. Source dimensionality "
                         f"({len(source_shape)}), destination dimensionality ({len(shape)})")
    x_slice, source_slice = _without(shape, dim), _without(source_shape, dim)
    if x_slice != source_slice:
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice "
                           f"shapes. Destination slice shape: {' '.join(map(str, x_slice))} at "
                           f"dimension {dim} and source slice shape: "
                           f"{' '.join(map(str, source_slice))} at dimension 0.")
    if source_shape and index.size != source_shape[dim]:
        raise IndexError(f"index_copy_(): Number of indices ({index.size}) should be equal to "
                         f"source.size(dim) ({source_shape[dim]})")
    size = (shape or (1,))[dim]
    bad = index[(index < 0) | (index >= size)]
    if bad.size:
        raise IndexError(f"index_copy_(): index {bad.flat[0]} is out of bounds for dimension "
                         f"{dim} with size {size}")
    out = fnp.at(_as_vector(x))[_slices_at(dim, index, len(shape))].set(
        source if not source_shape else _as_vector(source))
    return _shaped_like(out, x)


def put(x, index, source, accumulate=False):
    """x with source's elements written (or added) at `index`, counted in x's row-major
    order (from the end for a negative index)."""
    index = np.asarray(index)
    if index.dtype != np.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got "
                           f"{_scalar_type(index)}")
    _check_same_dtype(x, source, f"put_(): self and source expected to have the same dtype, "
                      f"but got self.dtype = {_scalar_type(x)} and source.dtype = "
                      f"{_scalar_type(source)}")
    if fnp.size(source) != index.size:
        raise IndexError(f"put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {fnp.size(source)}, "
                         f"index.numel() = {index.size}")
    size = fnp.size(x)
    if index.size and not size:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    _check_flat_range(index, size)
    where = fnp.at(fnp.reshape(x, (-1,)))[index.reshape(-1)]
    values = fnp.reshape(source, (-1,))
    out = where.add(values) if accumulate else where.set(values)
    return fnp.reshape(out, fnp.shape(x))


def index_fill(x, dim, index, value):
    return fnp.at(x)[_index_fill_selection(x, dim, index)].set(value)


def _index_fill_selection(x, dim, index):
    index, dim = np.asarray(index), checked_dims(x, dim)
    if index.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if index.ndim > 1:
        raise RuntimeError("Index has to be a vector/scalar")
    _check_in_range(index, (fnp.shape(x) or (1,))[dim], dim, IndexError, negatives=True)
    grid = [slice(None)] * max(fnp.ndim(x), 1)
    grid[dim] = index
    return tuple(grid)


def index_fill_written(t, dim, index, value):
    """The elements index_fill_ writes in tensor `t` (`_inplace.inplace`'s `written`)."""
    marks = np.zeros(t._data.shape or (1,), np.bool_)
    marks[_index_fill_selection(t._data, dim, index._data)] = True
    return marks.reshape(t._data.shape)


def _check_in_range(index, size, dim, error, negatives):
    """PyTorch's `error` for an index out of [0, size) (or [-size, size) where it counts
    `negatives` from the end) along `dim`."""
    bad = index[(index < (-size if negatives else 0)) | (index >= size)]
    if bad.size:
        raise error(f"index {bad.flat[0]} is out of bounds for dimension {dim} with size {size}")


def take(x, index):
    """x's elements, counted in row-major order (from the end for a negative index)."""
    index = np.asarray(index)
    if index.dtype != np.int64:
        raise RuntimeError(f"take(): Expected a long tensor for index, but got "
                           f"{_scalar_type(index)}")
    size = fnp.size(x)
    if index.size and not size:
        raise IndexError("take(): tried to take from an empty tensor")
    _check_flat_range(index, size)
    return fnp.take(fnp.reshape(x, (-1,)), index)


def _check_flat_range(index, size):
    """PyTorch's error for a take or put index out of [-size, size)."""
    bad = index[(index < -size) | (index >= size)]
    if bad.size:
        raise IndexError(f"out of range: tried to access index {bad.flat[0]} on a tensor of "
                         f"{size} elements.")


def take_along_dim(x, indices, dim=None):
    """PyTorch's gather of the flattened tensor (dim None), else along `dim` of x and
    indices broadcast to each other but along it, indices counted modulo dim's size."""
    indices = np.asarray(indices)
    if dim is None:
        return gather(fnp.reshape(x, (-1,)), 0, indices.reshape(-1))
    if fnp.ndim(x) != indices.ndim:
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same "
                           f"number of dimensions, but got {fnp.ndim(x)} dimensions for input, "
                           f"and {indices.ndim} dimensions for indices")
    if indices.dtype != np.int64:
        raise RuntimeError(f"torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{_scalar_type(indices)}")
    axis = existing_dims(x, checked_dims(x, dim))  # (a 0-d tensor's dim 0 or -1: dim 0)
    shape = list(fnp.shape(x))
    clash = broadcast_error(shape[:axis] + [1] + shape[axis + 1:],
                            indices.shape[:axis] + (1,) + indices.shape[axis + 1:])
    if clash:
        raise RuntimeError(clash)
    shape[axis] = indices.shape[axis]
    indices = np.broadcast_to(indices, np.broadcast_shapes(tuple(shape), indices.shape))
    size = fnp.shape(x)[axis]
    if indices.size and not size:
        raise RuntimeError("ZeroDivisionError")  # (PyTorch's text for indices modulo 0)
    return fnp.take_along_axis(x, indices % max(size, 1), axis=axis)


def narrow(x, dim, start, length):
    dim = checked_dims(x, dim)
    shape = shape_of(x)
    index = [slice(None)] * len(shape)
    start = int(start) % shape[dim] if start < 0 else int(start)
    if start + length > shape[dim]:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({shape[dim]}).")
    index[dim] = slice(start, start + length)
    return fnp.getitem(x, tuple(index))


def select(x, dim, index):
    shape = fnp.shape(x)
    if not shape:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    dim = checked_dims(x, dim)
    if not -shape[dim] <= index < shape[dim]:
        raise IndexError(f"select(): index {index} out of range for tensor of size "
                         f"{list(shape)} at dimension {dim}")
    grid = [slice(None)] * len(shape)
    grid[dim] = index
    return fnp.getitem(x, tuple(grid))
