"""funcgrad.numpy.lib.stride_tricks: ``sliding_window_view``, differentiable.

A sliding-window view is linear, so two primitives carry it: the view itself (NumPy's,
read-only, no copy) and its transpose, `overlap_add`, which adds each window's cotangent
back onto the elements the window covers. Each is the other's VJP and its own JVP.
`overlap_add` makes one strided addition per offset within the window (all windows at
once), not one per window.
"""
import itertools
import operator

import numpy as np

from ...core import shape_of, zeros_in_library_of
from .._axes import normalize_axis
from .._base import _given, as_array, is_traced
from .._batching import move_axis, physical
from .._rules import ArgVJP, defbatch, defjvp, defvjp, primitive

_NAME = "funcgrad.numpy.lib.stride_tricks.sliding_window_view"


def _view(x, window_shape, axes):
    return np.lib.stride_tricks.sliding_window_view(x, window_shape, axes)


def _overlap_add(g, window_shape, axes, shape):
    """The transpose of `_view`: zeros of ``shape`` (x's) onto which each window's
    elements of ``g`` are added where the window took them from."""
    out = zeros_in_library_of(g, shape, g.dtype)
    positions = shape_of(g)[:len(shape)]  # the windows' starts, along each axis of x
    for offset in itertools.product(*map(range, window_shape)):
        starts = [0] * len(shape)
        for axis, k in zip(axes, offset):
            starts[axis] += k
        target = tuple(slice(start, start + n) for start, n in zip(starts, positions))
        out[target] += g[(Ellipsis,) + offset]  # (a new array where immutable: Dask)
    return out


view_p = primitive(_view, "sliding_window_view")
overlap_add_p = primitive(_overlap_add, "overlap_add", allocates=True)


def _view_pull(g, window_shape, axes, shape):
    return overlap_add_p(g, window_shape=window_shape, axes=axes, shape=shape)


def _overlap_add_pull(g, window_shape, axes):
    return view_p(g, window_shape=window_shape, axes=axes)


# Both save only parameters and shapes (no arrays: saves=()).
defvjp(view_p, ArgVJP(lambda ans, x, window_shape, axes: (window_shape, axes, shape_of(x)),
                      _view_pull, saves=()))
defvjp(overlap_add_p, ArgVJP(lambda ans, g, window_shape, axes, shape: (window_shape, axes),
                             _overlap_add_pull, saves=()))
defjvp(view_p, lambda t, ans, x, window_shape, axes:
       view_p(t, window_shape=window_shape, axes=axes))
defjvp(overlap_add_p, lambda t, ans, g, window_shape, axes, shape:
       overlap_add_p(t, window_shape=window_shape, axes=axes, shape=shape))


def _view_batch(primitive, size, values, axes, params):
    """The batch is one more axis of x, not windowed: the windows' start axes keep x's
    order, so the batch stays where it is."""
    (x,), (b,) = values, axes
    windowed = tuple(physical(axis, b) for axis in params["axes"])
    return view_p(x, window_shape=params["window_shape"], axes=windowed), b


def _overlap_add_batch(primitive, size, values, axes, params):
    """The batch of g among the windows' start axes stays there; among the offset axes it
    moves in front."""
    (g,), (b,) = values, axes
    shape = params["shape"]
    if b > len(shape):
        g, b = move_axis(g, b, 0), 0
    windowed = tuple(physical(axis, b) for axis in params["axes"])
    return overlap_add_p(g, window_shape=params["window_shape"], axes=windowed,
                         shape=shape[:b] + (size,) + shape[b:]), b


defbatch(view_p, _view_batch)
defbatch(overlap_add_p, _overlap_add_batch)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """``numpy.lib.stride_tricks.sliding_window_view``: every window of ``window_shape``
    along ``axis`` (all axes when None; an axis may be windowed more than once), as the
    trailing axes of a read-only view. On a traced ``x`` its derivative adds each window's
    cotangent back where the window lies."""
    if not is_traced(x):  # NumPy's own (or, by dispatch, Dask's), with its options
        return np.lib.stride_tricks.sliding_window_view(
            x, window_shape, axis, **_given(subok=(subok, False), writeable=(writeable, False)))
    if writeable:
        raise ValueError(f"{_NAME}: writeable=True would let writes through the view change "
                         f"the traced array x, which is immutable; take the windows "
                         f"read-only and build a new array from them")
    x = as_array(x)
    shape = shape_of(x)
    window_shape = _window_shape(window_shape)
    axes = _window_axes(axis, len(shape), len(window_shape))
    trimmed = list(shape)
    for ax, size in zip(axes, window_shape):
        if trimmed[ax] < size:
            raise ValueError(f"{_NAME}: the window ({size} along axis {ax}) cannot be larger "
                             f"than the input array (shape {shape})")
        trimmed[ax] -= size - 1
    return view_p(x, window_shape=window_shape, axes=axes)


def _window_shape(window_shape):
    sizes = tuple(window_shape) if np.iterable(window_shape) else (window_shape,)
    try:
        sizes = tuple(operator.index(size) for size in sizes)
    except TypeError:
        raise TypeError(f"{_NAME}: window_shape must hold integers, got {window_shape!r}") \
            from None
    if any(size < 0 for size in sizes):
        raise ValueError(f"{_NAME}: window_shape cannot contain negative values, got "
                         f"{sizes}")
    return sizes


def _window_axes(axis, ndim, count):
    """The axes to window, non-negative, in the caller's order, repeats kept."""
    if axis is None:
        if count != ndim:
            raise ValueError(f"{_NAME}: with axis=None, window_shape needs a size for each of "
                             f"x's {ndim} axes, got {count}; pass axis= to window fewer")
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    axes = tuple(normalize_axis(operator.index(a), ndim, "sliding_window_view",
                                "funcgrad.numpy.lib.stride_tricks")[0] for a in axes)
    if len(axes) != count:
        raise ValueError(f"{_NAME}: window_shape and axis must have the same length, got "
                         f"{count} window sizes and {len(axes)} axes")
    return axes


__all__ = ["sliding_window_view"]
