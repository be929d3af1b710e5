"""PyTorch's memory formats (torch.contiguous_format, preserve_format, channels_last,
channels_last_3d) and its one layout (torch.strided): the order of dimensions in memory
of a new tensor that clone, contiguous or empty_like make."""
import numpy as np

from . import _layout


class memory_format:  # noqa: N801 -- torch.memory_format
    """A memory format, printed as PyTorch prints it (``torch.channels_last``)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):  # pickled as the module's object of that name
        return self.name


class layout:  # noqa: N801 -- torch.layout
    """A tensor layout: compat's tensors are all torch.strided."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return self.name


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")
strided = layout("strided")

# The channels-last formats: the rank they need, and their dimensions from the outermost
# to the innermost in memory (the channels, dimension 1, innermost).
_CHANNELS_LAST = {channels_last: (4, (0, 2, 3, 1)), channels_last_3d: (5, (0, 2, 3, 4, 1))}


def _checked(format, name):
    if not isinstance(format, memory_format):
        raise TypeError(f"{name}(): argument 'memory_format' must be torch.memory_format, not "
                        f"{type(format).__name__}")
    return format


def _channels_last_order(array, format):
    rank, order = _CHANNELS_LAST[format]
    if array.ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {format.name} format")
    return order


def empty_in(array, format, name, dtype=None):
    """A new uninitialized array of `array`'s shape (and dtype, unless `dtype`) laid out in
    `format`: preserve_format keeps a dense array's strides (`_layout.clone_order`)."""
    dtype = array.dtype if dtype is None else dtype
    format = _checked(format, name)
    if format is preserve_format:
        return np.empty_like(array, dtype, order=_layout.clone_order(array))
    if format is contiguous_format:
        return np.empty(array.shape, dtype)
    order = _channels_last_order(array, format)
    return np.empty([array.shape[d] for d in order], dtype).transpose(np.argsort(order))


def suggested_order(array):
    """`array`'s dimensions from the outermost to the innermost as PyTorch's
    suggest_memory_format lays out a result made from it (a pad's, an interpolation's):
    channels-last for a 4-d or 5-d array laid out so and not row-major, else row-major."""
    if not array.flags.c_contiguous:
        for format, (rank, order) in _CHANNELS_LAST.items():
            if array.ndim == rank and is_in(array, format):
                return order
    return tuple(range(array.ndim))


def in_suggested_format(value, like):
    """`value`, a fresh result made from array `like`, laid out by `suggested_order`."""
    order = suggested_order(like)
    return _layout.relaid(value, lambda raw: _layout.laid_out(raw, order))


def is_in(array, format, name="is_contiguous"):
    """Whether `array` is laid out densely in `format` (dimensions of length 1 do not
    count, as in PyTorch); never for a channels-last format of another rank."""
    format = _checked(format, name)
    if format in _CHANNELS_LAST:
        if array.ndim != _CHANNELS_LAST[format][0]:
            return False
        expected = empty_in(array, format, name).strides
        return all(a == b for a, b, n in zip(array.strides, expected, array.shape) if n != 1)
    return array.flags.c_contiguous
