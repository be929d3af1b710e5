"""The operations whose results are pieces of their input, each a view of it: chunk, split,
unbind and tensor_split, with PyTorch's arguments, errors and grad_fn names.

PyTorch records chunk, split and unbind as one node for all the pieces (SplitBackward0,
SplitWithSizesBackward0, UnbindBackward0), each piece one of its outputs; compat records
funcgrad's split or unstack primitive, one node whose VJP is one concatenate, and a
`tuple_get` node a piece, straight from the input's array (`_record.pieces`).
tensor_split's pieces are slices of their own (SliceBackward0 each), as PyTorch's are.
"""
import itertools
import numbers

from funcgrad.numpy._base import getitem_p
from funcgrad.numpy.shape_ops import _split as split_p
from funcgrad.numpy.shape_ops import _unstack as unstack_p

from ._dim_args import no_dimensions
from ._record import check_tensor, pieces, recorded_view
from ._tensor import Tensor, typename


def chunk(input, chunks, dim=0, *, _unsafe=False):
    """Pieces of ceil(n / chunks) elements along `dim` (fewer pieces where that covers n).
    `_unsafe`: unsafe_chunk's pieces, which share the input's memory without being views."""
    check_tensor(input, "chunk")
    _integer(chunks, "chunk", "chunks", 1)
    _not_a_number(input, "chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    axis = _axis(input, dim, "chunk", 2)
    n = input._data.shape[axis]
    if n == 0:  # PyTorch's `chunks` empty pieces, from split_with_sizes
        return _split_at(input, (0,) * (chunks - 1), axis, "SplitWithSizesBackward0", _unsafe)
    size = -(-n // chunks)  # ceil(n / chunks)
    return _split_at(input, range(size, n, size), axis, "SplitBackward0", _unsafe)


def split(input, split_size_or_sections, dim=0, *, _unsafe=False):
    """Pieces of `split_size` elements along `dim` (the last may be shorter), or of the
    listed sizes, which must add up to the length (`_unsafe`: as in `chunk`)."""
    check_tensor(input, "split")
    sizes = split_size_or_sections
    if isinstance(sizes, Tensor) and sizes.dim() == 0:  # a 0-d tensor is a size
        sizes = sizes.item()
    if isinstance(sizes, numbers.Integral) and not isinstance(sizes, bool):
        return _split_evenly(input, sizes, dim, _unsafe)
    if not isinstance(sizes, (list, tuple)):
        raise TypeError(f"split_with_sizes(): argument 'split_sizes' (position 2) must be "
                        f"tuple of ints, not {typename(sizes)}")
    for size in sizes:
        _integer(size, "split_with_sizes", "split_sizes", 2)
    _not_a_number(input, "split expects at least a 1-dimensional tensor")
    axis = _axis(input, dim, "split", 3)
    n = input._data.shape[axis]
    if any(size < 0 for size in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative "
                           f"entries, but got split_sizes={list(sizes)}")
    if sum(sizes) != n:
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {n} "
                           f"(input tensor's size at dimension {dim}), but got "
                           f"split_sizes={list(sizes)}")
    if not sizes:  # (of an empty dimension) PyTorch's empty tuple
        return ()
    return _split_at(input, itertools.accumulate(sizes[:-1]), axis, "SplitWithSizesBackward0",
                     _unsafe)


def split_with_sizes(input, split_sizes, dim=0, *, _unsafe=False):
    """split, with the sizes of the pieces only (PyTorch's own name for that overload)."""
    if isinstance(split_sizes, numbers.Integral):
        raise TypeError(f"split_with_sizes(): argument 'split_sizes' (position 2) must be "
                        f"tuple of ints, not {typename(split_sizes)}")
    return split(input, split_sizes, dim, _unsafe=_unsafe)


def unsafe_chunk(input, chunks, dim=0):
    """chunk's pieces, sharing the input's memory without being views of it (PyTorch's
    in-place checks of views do not see them)."""
    return chunk(input, chunks, dim, _unsafe=True)


def unsafe_split(input, split_size, dim=0):
    """split into pieces of `split_size` elements, as unsafe_chunk's pieces are."""
    if not isinstance(split_size, numbers.Integral) or isinstance(split_size, bool):
        raise TypeError(f"unsafe_split(): argument 'split_size' (position 2) must be int, not "
                        f"{typename(split_size)}")
    return split(input, split_size, dim, _unsafe=True)


def unsafe_split_with_sizes(input, split_sizes, dim=0):
    """split_with_sizes, as unsafe_chunk's pieces are."""
    return split_with_sizes(input, split_sizes, dim, _unsafe=True)


def _split_evenly(input, size, dim, unsafe):
    _not_a_number(input, "split expects at least a 1-dimensional tensor")
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got "
                           f"split_size={size}")
    axis = _axis(input, dim, "split", 3)
    n = input._data.shape[axis]
    if size == 0 and n:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got "
                           f"dimension size of {n}")
    return _split_at(input, range(size, n, size) if size else (), axis, "SplitBackward0",
                     unsafe)


def _split_at(input, bounds, axis, label, unsafe=False):
    """The pieces; an unsafe split's are no views, its nodes PyTorch's Unsafe* names."""
    return pieces(split_p, "Unsafe" + label if unsafe else label, input,
                  {"bounds": tuple(bounds), "axis": axis}, view=not unsafe)


def unbind(input, dim=0):
    """The slices of `input` along `dim`, that dimension removed."""
    check_tensor(input, "unbind")
    _integer(dim, "unbind", "dim", 1)
    axis = input._dim(dim)  # (a 0-d tensor's dim wrapped first, as in PyTorch)
    if input._data.ndim == 0:
        raise no_dimensions(axis)
    return pieces(unstack_p, "UnbindBackward0", input, {"axis": axis})


def tensor_split(input, indices_or_sections, dim=0):
    """`sections` pieces along `dim` whose lengths differ by one at most (the longer ones
    first), or the pieces between the given indices (Python's slices between them)."""
    check_tensor(input, "tensor_split")
    if input._data.ndim == 0:
        raise RuntimeError(f"tensor_split expected at least a 1-dimensional tensor, but got "
                           f"a tensor with {input._data.ndim} dims")
    sections = _sections(indices_or_sections)
    axis = _axis(input, dim, "tensor_split", 2)
    n = input._data.shape[axis]
    if isinstance(sections, int):
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        size, longer = divmod(n, sections)
        stops = list(itertools.accumulate([size + 1] * longer + [size] * (sections - longer)))
        starts = [0] + stops[:-1]
    else:
        starts, stops = [0, *sections], [*sections, n]
    before = (slice(None),) * axis
    return tuple([recorded_view(getitem_p, "SliceBackward0", input,
                       {"index": (*before, _range(start, stop, n)), "unique": True})
                  for start, stop in zip(starts, stops)])


def _split_along(name, dim, least):
    """hsplit, vsplit or dsplit: tensor_split along `dim` of a tensor of `least` dimensions
    or more, whose length there a number of sections must divide."""
    def split_along(input, indices_or_sections):
        check_tensor(input, name)
        ndim = input._data.ndim
        if ndim < least:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {least} "
                               f"dimension, but got a tensor with {ndim} dimensions!")
        axis = 0 if ndim == 1 and name == "hsplit" else dim
        sections = _sections(indices_or_sections)
        n = input._data.shape[axis]
        if isinstance(sections, int) and sections and n % sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {axis}, but "
                               f"the size of the dimension {n} is not divisible by the "
                               f"split_size {sections}!")
        return tensor_split(input, sections, axis)
    split_along.__name__ = name
    return split_along


hsplit = _split_along("hsplit", 1, 1)
vsplit = _split_along("vsplit", 0, 2)
dsplit = _split_along("dsplit", 2, 3)


def _sections(indices_or_sections):
    """tensor_split's sections (an int) or indices (a list of ints), as PyTorch takes them:
    also from an int64 tensor of zero or one dimension."""
    if isinstance(indices_or_sections, Tensor):
        if indices_or_sections.dtype.name != "int64":
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to have "
                               f"dtype of long, but got {indices_or_sections.dtype.scalar_name}")
        if indices_or_sections.dim() > 1:
            raise RuntimeError(f"tensor_split expected tensor_indices_or_sections to be a "
                               f"zero-dimensional or one-dimensional tensor, but got a tensor "
                               f"with {indices_or_sections.dim()} dims")
        return indices_or_sections.tolist()
    if isinstance(indices_or_sections, numbers.Integral) and not isinstance(
            indices_or_sections, bool):
        return int(indices_or_sections)
    if isinstance(indices_or_sections, (list, tuple)) and all(
            isinstance(i, numbers.Integral) and not isinstance(i, bool)
            for i in indices_or_sections):
        return [int(i) for i in indices_or_sections]
    raise TypeError(f"tensor_split(): expected an int, a sequence of ints or an int64 tensor "
                    f"as indices_or_sections, got {typename(indices_or_sections)}")


def _range(start, stop, n):
    """The slice ``[start:stop]`` of a dimension of length `n` as Python's slicing reads it,
    in non-negative bounds, empty (rather than reversed) where stop comes before start."""
    start, stop, _ = slice(start, stop).indices(n)
    return slice(start, max(start, stop))


def _integer(value, function, name, position):
    # (an int first: the ABC's isinstance costs ~0.3 us)
    if type(value) is not int and (not isinstance(value, numbers.Integral)
                                   or isinstance(value, bool)):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be int, "
                        f"not {typename(value)}")


def _not_a_number(input, message):
    if input._data.ndim == 0:
        raise RuntimeError(message)


def _axis(input, dim, function, position):
    _integer(dim, function, "dim", position)
    return input._dim(dim)


__all__ = ["chunk", "split", "split_with_sizes", "tensor_split", "unbind", "hsplit", "vsplit",
           "dsplit", "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes"]
