"""Array creation. Constructors of constants are NumPy's own; ``array`` also accepts
(nested) lists holding traced values, which it stacks so their derivatives flow."""
import numpy as np

from ..core import Box
from .casting import astype
from .shape_ops import stack


def _holds_box(obj):
    stack_ = [obj]
    while stack_:
        item = stack_.pop()
        if isinstance(item, Box):
            return True
        if isinstance(item, (list, tuple)):
            stack_.extend(item)
    return False


def array(object, dtype=None, copy=True, ndmin=0):
    """``numpy.array``; lists may hold traced values (they are stacked, not copied out)."""
    if isinstance(object, Box):
        result = object
    elif isinstance(object, (list, tuple)) and _holds_box(object):
        result = stack([array(item) for item in object])
    else:
        return np.array(object, dtype=dtype, copy=copy, ndmin=ndmin)
    if dtype is not None and np.dtype(dtype) != result.dtype:
        result = astype(result, dtype)
    if result.ndim < ndmin:
        from .shape_ops import reshape
        result = reshape(result, (1,) * (ndmin - result.ndim) + result.shape)
    return result


def asarray(a, dtype=None):
    """``numpy.asarray``: traced values pass through unchanged."""
    if isinstance(a, Box) or (isinstance(a, (list, tuple)) and _holds_box(a)):
        return array(a, dtype=dtype)
    return np.asarray(a, dtype=dtype)


def zeros_like(a, dtype=None, shape=None):
    return np.zeros(np.shape(a) if shape is None else shape,
                    np.result_type(a.dtype if dtype is None else dtype))


def ones_like(a, dtype=None, shape=None):
    return np.ones(np.shape(a) if shape is None else shape,
                   np.result_type(a.dtype if dtype is None else dtype))


def full_like(a, fill_value, dtype=None, shape=None):
    return np.full(np.shape(a) if shape is None else shape, fill_value,
                   np.result_type(a.dtype if dtype is None else dtype))


def empty_like(a, dtype=None, shape=None):
    return np.empty(np.shape(a) if shape is None else shape,
                    np.result_type(a.dtype if dtype is None else dtype))


# Constants that never depend on traced values: NumPy's constructors as they are.
zeros = np.zeros
ones = np.ones
empty = np.empty
full = np.full
arange = np.arange
linspace = np.linspace
eye = np.eye
identity = np.identity

__all__ = ["array", "asarray", "zeros", "ones", "empty", "full", "arange", "linspace", "eye",
           "identity", "zeros_like", "ones_like", "full_like", "empty_like"]
