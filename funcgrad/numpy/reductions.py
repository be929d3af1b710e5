"""Reductions (sum, mean, prod, max, min) and their VJPs."""
import numpy as np

from ._axes import kept_shape, normalize_axis
from ._rules import aval, defvjp, primitive
from .casting import astype
from .elementwise import equal, multiply, true_divide
from .shape_ops import broadcast_to, concatenate, reshape, transpose


def _spread(g, shape, axes):
    """Broadcast the cotangent of a reduction over ``axes`` back to the input's shape."""
    return broadcast_to(reshape(g, kept_shape(shape, axes)), shape)


# Primitives take the axes already normalized: a sorted tuple of ints.
_sum = primitive(lambda x, axes, keepdims: np.sum(x, axis=axes, keepdims=keepdims), "sum")
_mean = primitive(lambda x, axes, keepdims: np.mean(x, axis=axes, keepdims=keepdims), "mean")
_prod = primitive(lambda x, axes, keepdims: np.prod(x, axis=axes, keepdims=keepdims), "prod")
_max = primitive(lambda x, axes, keepdims: np.max(x, axis=axes, keepdims=keepdims), "max")
_min = primitive(lambda x, axes, keepdims: np.min(x, axis=axes, keepdims=keepdims), "min")


def _sum_vjp(ans, x, axes, keepdims):
    shape = aval(x)[0]
    return lambda g: _spread(g, shape, axes)


def _mean_vjp(ans, x, axes, keepdims):
    shape = aval(x)[0]
    count = int(np.prod([shape[a] for a in axes]))
    return lambda g: _spread(true_divide(g, count), shape, axes)


def _exclusive_cumprod(x):
    """Products of the elements before each one along the last axis, by log-depth doubling:
    only multiplications, so every derivative order is exact even at zeros."""
    n = np.shape(x)[-1]
    ones = np.ones(np.shape(x)[:-1] + (1,), np.result_type(x.dtype))
    inclusive, shift = x, 1
    while shift < n:
        pad = np.ones(np.shape(x)[:-1] + (shift,), np.result_type(x.dtype))
        inclusive = multiply(inclusive, concatenate([pad, inclusive[..., :n - shift]], axis=-1))
        shift *= 2
    return concatenate([ones, inclusive[..., :n - 1]], axis=-1)


def _prod_vjp(ans, x, axes, keepdims):
    # d prod / dx_i is the product of the other elements: exclusive products from the
    # left times those from the right, with the reduced axes moved last and flattened.
    shape = aval(x)[0]
    kept = [i for i in range(len(shape)) if i not in axes]
    order = kept + list(axes)
    moved_shape = tuple(shape[i] for i in order)
    flat = reshape(transpose(x, order), moved_shape[:len(kept)] + (-1,))
    others = multiply(_exclusive_cumprod(flat), _exclusive_cumprod(flat[..., ::-1])[..., ::-1])
    others = transpose(reshape(others, moved_shape), tuple(np.argsort(order)))
    return lambda g: multiply(_spread(g, shape, axes), others)


def _chooser_vjp(ans, x, axes, keepdims):
    # Ties share the gradient equally, as in JAX.
    shape, dtype = aval(x)
    winners = np.asarray(equal(x, reshape(ans, kept_shape(shape, axes))), dtype)
    share = winners / np.sum(winners, axis=axes, keepdims=True)
    return lambda g: multiply(_spread(g, shape, axes), share)


defvjp(_sum, _sum_vjp)
defvjp(_mean, _mean_vjp)
defvjp(_prod, _prod_vjp)
defvjp(_max, _chooser_vjp)
defvjp(_min, _chooser_vjp)


def _reducer(primitive_, name):
    def reduce(a, axis=None, dtype=None, out=None, keepdims=False, **unsupported):
        if out is not None or unsupported:
            raise TypeError(f"funcgrad.numpy.{name}: out= and {sorted(unsupported)} are not "
                            f"supported on traced arrays")
        if dtype is not None:
            a = astype(a, dtype)
        axes = normalize_axis(axis, np.ndim(a) if not hasattr(a, "ndim") else a.ndim, name)
        return primitive_(a, axes=axes, keepdims=bool(keepdims))
    reduce.__name__ = name
    reduce.__doc__ = f"``numpy.{name}`` over ``axis`` (None, int or tuple), differentiable."
    return reduce


sum = _reducer(_sum, "sum")
mean = _reducer(_mean, "mean")
prod = _reducer(_prod, "prod")
max = _reducer(_max, "max")
min = _reducer(_min, "min")
amax = max
amin = min

__all__ = ["sum", "mean", "prod", "max", "min", "amax", "amin"]
