"""Memory layout as PyTorch defines it: which copies keep a tensor's strides, and when a
view with another shape can share a tensor's storage.

Strides here are NumPy's, in bytes; `Tensor.stride()` divides them by the item size.
"""
import numpy as np

from funcgrad.core import Box, unbox_all


def dense(array):
    """Whether `array`'s elements fill its memory without gaps or overlaps, in some order of
    its dimensions (dimensions of length 1 do not matter): PyTorch's "non-overlapping and
    dense"."""
    expected = array.itemsize
    for step, size in sorted((abs(st), n) for st, n in zip(array.strides, array.shape)
                             if n != 1):
        if step != expected:
            return False
        expected *= size
    return True


def preserved_order(array):
    """The NumPy `order` of a copy that keeps `array`'s layout as PyTorch's
    ``preserve_format`` does: its own strides when it is dense ('K'), else row-major ('C'),
    e.g. for an expanded tensor or a strided slice. It is also the layout of a leaf's
    gradient (AccumulateGrad's contract)."""
    if array.flags.c_contiguous:
        return "C"
    return "K" if dense(array) else "C"


def clone_order(array):
    """The NumPy `order` of PyTorch's ``clone()`` (``preserve_format``): dense strides with
    the dimensions in `array`'s order of strides ('K'), row-major for a tensor with expanded
    (stride 0) dimensions."""
    if array.flags.c_contiguous or 0 in array.strides:
        return "C"
    return "K"


def has_layout(array, like):
    """Whether `array` has the strides of a copy of `like` made by `preserved_order`
    (dimensions of length 1 do not matter)."""
    if array.flags.c_contiguous and like.flags.c_contiguous:
        return True
    if preserved_order(like) == "C":
        return array.flags.c_contiguous
    return all(a == b for a, b, n in zip(array.strides, like.strides, like.shape) if n != 1)


def copy_with_layout(value, like):
    """A new writable array holding `value` (an array, possibly a broadcast view, read-only
    or of another dtype, or a number) with the shape and dtype of `like`, laid out as
    `preserved_order` keeps `like`."""
    out = np.empty_like(like, order=preserved_order(like))
    out[...] = value
    return out


def channels_last(array):
    """Whether a 4-d `array`'s strides are those of PyTorch's channels_last format (channels
    innermost, then width, height, batch), which PyTorch's cat keeps where every input has
    it. Ambiguous strides (a dimension of length 1 or 0) count as row-major, as in PyTorch."""
    if array.ndim != 4 or array.strides[1] == 0:
        return False
    least = 0
    for d in (1, 3, 2, 0):
        if array.shape[d] == 0 or array.strides[d] < least:
            return False
        if d == 0 and least == array.strides[1]:
            return False
        least = array.strides[d] * (array.shape[d] if array.shape[d] > 1 else 1)
    return True


def joined_order(arrays):
    """The NumPy `order` of PyTorch's cat of `arrays`: channels_last where every input is,
    otherwise row-major (a transposed input's layout is not kept)."""
    return "K" if all(channels_last(a) for a in arrays) else "C"


def order_of_dimensions(array):
    """`array`'s dimensions from the outermost to the innermost in memory, as PyTorch's
    TensorIterator orders them (`iterator_order` of one operand)."""
    return iterator_order((array,), array.shape)


def iterator_order(arrays, shape):
    """The dimensions of an elementwise result of `shape` from the outermost to the
    innermost in memory, as PyTorch's TensorIterator orders them from its operands `arrays`
    (broadcast to `shape`): for two dimensions the first operand whose strides tell them
    apart decides, a larger stride outside (equal strides put the longer dimension
    outside); an operand broadcast along either is passed over; where none decides, the
    order stays as in the shape."""
    ndim = len(shape)
    operands = [(0,) * (ndim - array.ndim) + tuple(
        0 if n == 1 and shape[d] != 1 else stride for d, n, stride in
        zip(range(ndim - array.ndim, ndim), array.shape, array.strides)) for array in arrays]
    inner_first = list(range(ndim - 1, -1, -1))

    def outside(a, b):  # 1: `a` (now inner of `b`) belongs outside it; -1: inside; 0: either
        for strides in operands:
            if strides[a] == 0 or strides[b] == 0:
                continue
            if strides[a] != strides[b]:
                return 1 if strides[a] > strides[b] else -1
            if shape[a] > shape[b]:
                return 1
        return 0

    for i in range(1, ndim):  # insertion sort, stable for ambiguous pairs
        moving = i
        for j in range(i - 1, -1, -1):
            verdict = outside(inner_first[j], inner_first[moving])
            if verdict > 0:
                inner_first[j], inner_first[moving] = inner_first[moving], inner_first[j]
                moving = j
            elif verdict < 0:
                break
    return inner_first[::-1]


def all_row_major(operands):
    """Whether the arrays among `operands` (arrays and numbers) are all row-major, along
    their dimensions of length 1 too: an elementwise result of them is then row-major in
    PyTorch as in NumPy (PyTorch's TensorIterator reads the strides of such dimensions,
    which a permutation may have left in another order)."""
    for x in operands:  # (a loop, not all() of a generator: ~0.3 us an operation)
        if type(x) is np.ndarray and not (x.flags.c_contiguous and (
                1 not in x.shape or x.strides == row_major_strides(x.shape, x.itemsize))):
            return False
    return True


def laid_out_as_iterator(value, operands):
    """`value`, a fresh elementwise result of `operands` (arrays and numbers), laid out as
    PyTorch's TensorIterator lays it out (`iterator_order`), where NumPy's result is
    row-major because the operands' layouts differ."""
    if all_row_major(operands):
        return value
    arrays = [x for x in operands if type(x) is np.ndarray]
    return relaid(value, lambda raw: laid_out(raw, iterator_order(arrays, raw.shape)))


def laid_out(array, order):
    """`array`, or a new array holding its values, with dense strides in the `order` of
    dimensions (outermost first) that `order_of_dimensions` gives."""
    out = np.empty([array.shape[d] for d in order], array.dtype).transpose(np.argsort(order))
    if all(a == b for a, b, n in zip(out.strides, array.strides, array.shape) if n > 1):
        return array
    out[...] = array
    return out


def matrices_column_major(array):
    """`array`, or a copy of it, with each matrix (its last two dimensions) column-major:
    LAPACK's layout, in which PyTorch's linear algebra returns its matrices."""
    if array.ndim < 2:
        return array
    return laid_out(array, (*range(array.ndim - 2), array.ndim - 1, array.ndim - 2))


def row_major(array):
    """`array`, or a row-major copy of it (NumPy's ascontiguousarray would make a 0-d
    array 1-d)."""
    return array if array.flags.c_contiguous else np.ascontiguousarray(array)


def relaid(value, layout):
    """`value` (an operation's fresh result: a box, whose array is replaced in place, or
    an array) with its array laid out by `layout` (array -> array)."""
    raw = unbox_all(value)
    if type(raw) is not np.ndarray:
        return value
    new = layout(raw)
    if new is raw:
        return value
    if isinstance(value, Box):
        value.value = new
        return value
    return new


def infer_shape(shape, numel):
    """`shape` with its -1 (if any) replaced by the length that gives `numel` elements,
    raising PyTorch's errors for shapes that cannot hold them."""
    inferred = None
    known = 1
    for i, size in enumerate(shape):
        if size == -1:
            if inferred is not None:
                raise RuntimeError("only one dimension can be inferred")
            inferred = i
        elif size < 0:
            raise RuntimeError(f"invalid shape dimension {size} at index {i} of shape "
                               f"{list(shape)}")
        else:
            known *= size
    if inferred is None:
        if known != numel:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        return tuple(shape)
    if known == 0:
        if numel == 0:
            raise RuntimeError(
                f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                f"unspecified dimension size -1 can be any value and is ambiguous")
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    if numel % known:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape[:inferred]) + (numel // known,) + tuple(shape[inferred + 1:])


def view_strides(array, new_shape):
    """The strides of a view of `array` with `new_shape` (same number of elements, no -1),
    or None when no view can have that shape.

    PyTorch's rule: the old dimensions split into chunks, maximal runs of dimensions each
    contiguous with the next (dimensions of length 1 join any chunk); a view exists when the
    new shape splits into consecutive groups with the chunks' numbers of elements. Each
    group then steps through its chunk row-major.
    """
    shape, strides = array.shape, array.strides
    if array.size == 0 or not shape:  # no elements, or a scalar: any layout will do
        if tuple(shape) == tuple(new_shape):
            return strides
        return row_major_strides(new_shape, array.itemsize)
    new_strides = [0] * len(new_shape)
    new_dim = len(new_shape) - 1
    chunk_step = strides[-1]
    chunk_numel = view_numel = 1
    for dim in range(len(shape) - 1, -1, -1):
        chunk_numel *= shape[dim]
        chunk_ends = dim == 0 or (shape[dim - 1] != 1
                                  and strides[dim - 1] != chunk_numel * chunk_step)
        if not chunk_ends:
            continue
        while new_dim >= 0 and (view_numel < chunk_numel or new_shape[new_dim] == 1):
            new_strides[new_dim] = view_numel * chunk_step
            view_numel *= new_shape[new_dim]
            new_dim -= 1
        if view_numel != chunk_numel:
            return None
        if dim > 0:
            chunk_step = strides[dim - 1]
            chunk_numel = view_numel = 1
    if new_dim != -1:
        return None
    return tuple(new_strides)


def row_major_strides(shape, itemsize):
    """The strides, in bytes, of a row-major array of `shape` (PyTorch's: a dimension of
    length 0 or 1 steps as if it had length 1)."""
    strides = []
    step = itemsize
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def diagonal_view(array, offset, axis1, axis2):
    """A view of the `offset` diagonal of `array` in the planes of its (non-negative, distinct)
    axes `axis1` and `axis2`, laid out as numpy.diagonal lays it out (the other axes, then
    the diagonal) and, as PyTorch's diagonal, writable when `array` is (NumPy's view is
    read-only)."""
    shape, strides = array.shape, array.strides
    first_row, first_column = max(-offset, 0), max(offset, 0)
    length = max(min(shape[axis1] - first_row, shape[axis2] - first_column), 0)
    start = [slice(None)] * array.ndim
    if length:  # the view starts at the diagonal's first element
        start[axis1], start[axis2] = slice(first_row, None), slice(first_column, None)
    others = [axis for axis in range(array.ndim) if axis not in (axis1, axis2)]
    return np.lib.stride_tricks.as_strided(
        array[tuple(start)], [shape[axis] for axis in others] + [length],
        [strides[axis] for axis in others] + [strides[axis1] + strides[axis2]],
        writeable=array.flags.writeable)


class StorageMemory(np.ndarray):
    """The memory of a tensor's storage, one-dimensional, where the tensor's array no longer
    starts at its first element (Tensor.as_strided_ moved it there): that array's NumPy
    base, which `storage_memory` and `storage_start` find."""


def storage_memory(array):
    """The one-dimensional memory of the storage of a tensor (not a view) whose array is
    `array`: the StorageMemory that array lies in, else from its first element to its last
    (a view of `array`'s memory)."""
    viewed = array
    while viewed is not None:
        if type(viewed) is StorageMemory:
            return viewed
        viewed = getattr(viewed, "base", None)  # (an __array_interface__'s holder has one)
    if any(step < 0 for step in array.strides):
        raise NotImplementedError("compat: the storage of a tensor laid out backwards "
                                  "(negative strides) is not supported")
    length = 1 + sum((n - 1) * step // array.itemsize
                     for n, step in zip(array.shape, array.strides)) if array.size else 0
    return np.lib.stride_tricks.as_strided(array, (length,), (array.itemsize,),
                                           writeable=array.flags.writeable)


def storage_start(array):
    """The address of the first element of the storage of a tensor (not a view) whose array
    is `array`."""
    viewed = array
    while viewed is not None:
        if type(viewed) is StorageMemory:
            return viewed.__array_interface__["data"][0]
        viewed = getattr(viewed, "base", None)
    return array.__array_interface__["data"][0]


def window(memory, size, stride, offset):
    """The view of the one-dimensional array `memory` with `size`, `stride` and `offset` (in
    elements), which keeps `memory` reachable as its base (`storage_memory`)."""
    itemsize = memory.itemsize
    start, read_only = memory.__array_interface__["data"]
    return np.asarray(_Window({"version": 3, "typestr": memory.dtype.str, "shape": tuple(size),
                               "strides": tuple(step * itemsize for step in stride),
                               "data": (start + offset * itemsize, read_only)}, memory))


class _Window:
    """What NumPy makes a view from: an array interface over part of `base`'s memory. The
    view keeps it as its NumPy base."""

    __slots__ = ("__array_interface__", "base")

    def __init__(self, interface, base):
        self.__array_interface__ = interface
        self.base = base


def memory_owner(array):
    """The array whose memory `array` views (itself if it owns its memory), also through
    the holders of array interfaces that NumPy keeps as the base of as_strided's views."""
    owner = viewed = array
    while viewed is not None:
        if isinstance(viewed, np.ndarray):
            owner = viewed
        viewed = getattr(viewed, "base", None)
    return owner


def positions_in(view, base):
    """The flat (C order) index in `base` of each element of `view`, an array whose
    elements are among base's (a view of it), or are their real or imaginary parts."""
    itemsize = base.itemsize
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    start -= start % itemsize  # (the imaginary parts of a complex base: their elements)
    if base.flags.c_contiguous:  # the common case, with no sort (100x100 base: 43 -> 10 us)
        flat = np.arange(base.size)
        steps = tuple(stride // itemsize * flat.itemsize for stride in view.strides)
        return np.lib.stride_tricks.as_strided(flat[start // itemsize:], view.shape,
                                               steps).copy()
    base_offsets = byte_offsets(base).ravel()
    order = np.argsort(base_offsets, kind="stable")
    return order[np.searchsorted(base_offsets[order], byte_offsets(view) + start)]


def byte_offsets(array):
    """Each element's distance in bytes from the array's first element."""
    offsets = np.zeros(array.shape, np.intp)
    for axis, (size, stride) in enumerate(zip(array.shape, array.strides)):
        offsets += (np.arange(size) * stride).reshape((size,) + (1,) * (array.ndim - axis - 1))
    return offsets
