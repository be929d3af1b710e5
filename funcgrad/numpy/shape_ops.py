"""Shape manipulation: reshape, transpose, expand_dims, squeeze, broadcast_to, concatenate, stack."""
import numpy as np

from ._axes import normalize_axis
from ._rules import aval, defvjp, defvjp_any_arg, primitive, unbroadcast

_reshape = primitive(lambda a, shape, order: np.reshape(a, shape, order=order), "reshape")
_transpose = primitive(lambda a, axes: np.transpose(a, axes), "transpose")
_broadcast_to = primitive(lambda a, shape: np.broadcast_to(a, shape), "broadcast_to")
_concatenate = primitive(lambda *arrays, axis: np.concatenate(arrays, axis=axis), "concatenate")


def _reshape_vjp(ans, a, shape, order):
    a_shape = aval(a)[0]
    return lambda g: _reshape(g, shape=a_shape, order=order)


def _transpose_vjp(ans, a, axes):
    inverse = tuple(np.argsort(axes))
    return lambda g: _transpose(g, axes=inverse)


def _broadcast_to_vjp(ans, a, shape):
    a_shape, a_dtype = aval(a)
    return lambda g: unbroadcast(g, a_shape, a_dtype)


def _concatenate_vjp(argnum, ans, *arrays, axis):
    from .indexing import getitem  # indexing's own rules use this module
    sizes = [np.shape(a)[axis] for a in arrays]
    start = int(np.sum(sizes[:argnum]))
    index = (slice(None),) * axis + (slice(start, start + sizes[argnum]),)
    shape, dtype = aval(arrays[argnum])
    return lambda g: unbroadcast(getitem(g, index), shape, dtype)


defvjp(_reshape, _reshape_vjp)
defvjp(_transpose, _transpose_vjp)
defvjp(_broadcast_to, _broadcast_to_vjp)
defvjp_any_arg(_concatenate, _concatenate_vjp)


def reshape(a, shape=None, order="C", *, newshape=None):
    """``numpy.reshape``; -1 in ``shape`` is inferred."""
    shape = newshape if shape is None else shape
    if shape is None:
        raise TypeError("funcgrad.numpy.reshape: missing the target shape")
    if order not in ("C", "F"):
        raise ValueError(f"funcgrad.numpy.reshape: order must be 'C' or 'F', got {order!r}")
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    # Resolve -1 now so the VJP rule and graphs see the real shape.
    shape = np.empty(np.shape(a), dtype=np.bool_).reshape(shape).shape if -1 in shape else shape
    return _reshape(a, shape=shape, order=order)


def ravel(a, order="C"):
    return reshape(a, (-1,), order=order)


def transpose(a, axes=None):
    """``numpy.transpose``: reverse the axes, or permute them as ``axes`` says."""
    ndim = np.ndim(a)
    if axes is None:
        axes = tuple(range(ndim))[::-1]
    else:
        axes = tuple(int(ax) % ndim if -ndim <= int(ax) < ndim else int(ax) for ax in axes)
        if sorted(axes) != list(range(ndim)):
            raise ValueError(f"funcgrad.numpy.transpose: axes {axes} are not a permutation of "
                             f"the {ndim} axes of the array")
    return _transpose(a, axes=axes)


def expand_dims(a, axis):
    """``numpy.expand_dims``: insert axes of length one at the positions in ``axis``."""
    shape = list(np.shape(a))
    axes = normalize_axis(axis, len(shape) + (1 if np.isscalar(axis) else len(axis)),
                          "expand_dims")
    for ax in axes:
        shape.insert(ax, 1)
    return _reshape(a, shape=tuple(shape), order="C")


def squeeze(a, axis=None):
    """``numpy.squeeze``: remove axes of length one (all of them, or those in ``axis``)."""
    shape = np.shape(a)
    if axis is None:
        axes = tuple(i for i, n in enumerate(shape) if n == 1)
    else:
        axes = normalize_axis(axis, len(shape), "squeeze")
        for ax in axes:
            if shape[ax] != 1:
                raise ValueError(f"funcgrad.numpy.squeeze: cannot select axis {ax}, whose "
                                 f"length is {shape[ax]}, not 1")
    return _reshape(a, shape=tuple(n for i, n in enumerate(shape) if i not in axes),
                    order="C")


def broadcast_to(array, shape):
    """``numpy.broadcast_to``; the VJP sums over the broadcast axes."""
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if np.shape(array) == shape:
        return array
    np.broadcast_shapes(np.shape(array), shape)  # raises NumPy's error if impossible
    return _broadcast_to(array, shape=shape)


def concatenate(arrays, axis=0):
    """``numpy.concatenate`` of a sequence of arrays (axis=None flattens them first)."""
    arrays = list(arrays)
    if not arrays:
        raise ValueError("funcgrad.numpy.concatenate: need at least one array to concatenate")
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    ndim = np.ndim(arrays[0])
    if ndim == 0:
        raise ValueError("funcgrad.numpy.concatenate: zero-dimensional arrays cannot be "
                         "concatenated; use stack")
    axis = normalize_axis(axis, ndim, "concatenate")[0]
    return _concatenate(*arrays, axis=axis)


def stack(arrays, axis=0):
    """``numpy.stack``: join arrays of one shape along a new axis."""
    arrays = list(arrays)
    if not arrays:
        raise ValueError("funcgrad.numpy.stack: need at least one array to stack")
    shapes = {np.shape(a) for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"funcgrad.numpy.stack: all input arrays must have the same shape, "
                         f"got {sorted(shapes)}")
    axis = normalize_axis(axis, np.ndim(arrays[0]) + 1, "stack")[0]
    return concatenate([expand_dims(a, axis) for a in arrays], axis=axis)


__all__ = ["reshape", "ravel", "transpose", "expand_dims", "squeeze", "broadcast_to",
           "concatenate", "stack"]
