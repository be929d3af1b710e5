"""Axis arguments, normalized once so every rule sees non-negative ints.

As in NumPy, an axis is an int (or a NumPy integer), and several axes a tuple of them (or,
as in JAX, a list); anything else is refused, however it could be read: an array passed
where an axis goes (``sum(x, y)`` for ``sum(x + y)``) would otherwise pick axes by its
values, or none at all when it is empty."""
import operator

import numpy as np


def normalize_axis(axis, ndim, function, namespace="funcgrad.numpy"):
    """``axis`` (None, an int, or a tuple or list of ints) as a sorted tuple of
    non-negative ints; errors name ``namespace.function``."""
    if axis is None:
        return tuple(range(ndim))
    if not isinstance(axis, (tuple, list)):  # (here None is a third choice to name)
        axis = _as_int(axis, function, namespace, "an int, a tuple of ints or None")
    return tuple(sorted(axes_in_order(axis, ndim, function, namespace)))


def axes_in_order(axis, ndim, function, namespace="funcgrad.numpy", argument="axis"):
    """``axis`` (an int, or a tuple or list of ints) as a tuple of non-negative ints in the
    order given, where it pairs them with something (moveaxis's destinations, gradient's
    spacings and results, the real FFTs' last axis); errors name ``namespace.function``
    and its ``argument``."""
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    result = tuple(normalize_one_axis(a, ndim, function, namespace) for a in axes)
    if len(set(result)) != len(result):
        raise ValueError(f"{namespace}.{function}: repeated axis in {argument} {axis!r}")
    return result


def normalize_one_axis(axis, ndim, function, namespace="funcgrad.numpy"):
    """``axis``, a single axis (an int, possibly negative), as a non-negative int."""
    axis = _as_int(axis, function, namespace, "an int")
    if not -ndim <= axis < ndim:
        # (axis, ndim, prefix): the exception then carries both, for callers that word it
        # their own way (compat's "Dimension out of range")
        raise np.exceptions.AxisError(axis, ndim, f"{namespace}.{function}")
    return axis % ndim


def _as_int(axis, function, namespace, expected):
    try:
        return operator.index(axis)
    except TypeError:
        got = (f"an array of shape {axis.shape} and dtype {axis.dtype}"
               if isinstance(axis, np.ndarray) else f"{type(axis).__name__} {axis!r}")
        raise TypeError(f"{namespace}.{function}: axis must be {expected}, got {got}"
                        ) from None


def kept_shape(shape, axes):
    """The shape of a reduction over ``axes`` with keepdims=True."""
    return tuple(1 if i in axes else n for i, n in enumerate(shape))
