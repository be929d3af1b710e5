"""Axis arguments, normalized once so every rule sees a tuple of non-negative ints."""
import operator

import numpy as np


def normalize_axis(axis, ndim, function, namespace="funcgrad.numpy"):
    """``axis`` (None, int or tuple) as a sorted tuple of non-negative ints; errors name
    ``namespace.function``."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    result = []
    for a in axes:
        a = operator.index(a)
        if not -ndim <= a < ndim:
            # (axis, ndim, prefix): the exception then carries both, for callers that
            # word it their own way (compat's "Dimension out of range")
            raise np.exceptions.AxisError(a, ndim, f"{namespace}.{function}")
        result.append(a % ndim)
    if len(set(result)) != len(result):
        raise ValueError(f"{namespace}.{function}: repeated axis in {axis!r}")
    return tuple(sorted(result))


def kept_shape(shape, axes):
    """The shape of a reduction over ``axes`` with keepdims=True."""
    return tuple(1 if i in axes else n for i, n in enumerate(shape))
