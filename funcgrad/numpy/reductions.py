"""Reductions (sum, mean, prod, max, min) and their VJPs."""
import numpy as np

from ._axes import kept_shape, normalize_axis
from ._rules import aval, defvjp, primitive
from .casting import astype
from .elementwise import equal, multiply, true_divide, where
from .shape_ops import broadcast_to, reshape


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


def _prod_vjp(ans, x, axes, keepdims):
    # prod over the other elements, computed without dividing by zero: with one zero,
    # only that element gets a gradient (the product of the rest); with more, none does.
    shape, dtype = aval(x)
    is_zero = equal(x, 0)
    zeros_per_slice = np.sum(is_zero, axis=axes, keepdims=True)
    x_no_zeros = where(is_zero, 1, x)
    prod_no_zeros = _prod(x_no_zeros, axes=axes, keepdims=True)
    others = where(zeros_per_slice == 0, true_divide(prod_no_zeros, x_no_zeros),
                   where(is_zero & (zeros_per_slice == 1), prod_no_zeros, 0))
    others = astype(others, dtype)
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
