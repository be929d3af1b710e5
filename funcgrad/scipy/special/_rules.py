"""Declaring scipy.special's elementwise primitives from their partial derivatives, and the
argument checks the public functions share."""
import numpy as np

from ... import numpy as fnp
from ...core import Box, as_dtype
from ...numpy._base import as_computed, unbroadcast
from ...numpy._batching import elementwise as batch_elementwise
from ...numpy._diagonal import elementwise as diagonal_elementwise
from ...numpy._rules import ArgVJP, aval, defbatch, defdiagonal, defjvp, defvjp, primitive


def _vjp_from(partial, argnum):
    def save(ans, *args):
        return (ans, args, *aval(args[argnum]))

    def pull(g, ans, args, shape, dtype):
        return unbroadcast(fnp.multiply(g, partial(ans, *as_computed(ans, args))),
                           shape, dtype)
    return ArgVJP(save, pull)


def _jvp_from(partial):
    def rule(t, ans, *args):
        shape, dtype = aval(ans)
        tangent = fnp.multiply(t, partial(ans, *as_computed(ans, args)))
        if aval(tangent)[1] != dtype:
            tangent = fnp.astype(tangent, dtype)
        return fnp.broadcast_to(tangent, shape)
    return rule


def elementwise(impl, name, *partials):
    """A primitive computing ``impl``; ``partials[i](ans, *args)`` is d(output)/d(args[i])
    (None for an argument that is never differentiable)."""
    prim = primitive(impl, f"scipy.special.{name}")
    defvjp(prim, *(None if p is None else _vjp_from(p, i) for i, p in enumerate(partials)))
    defjvp(prim, *(None if p is None else _jvp_from(p) for p in partials))
    defbatch(prim, batch_elementwise)
    defdiagonal(prim, diagonal_elementwise)
    return prim


def no_derivative(function, parameter, reason):
    """A partial derivative that is asked for but not computed: raises, naming the
    parameter (never a silent zero)."""
    def refuse(ans, *args):
        raise NotImplementedError(
            f"funcgrad.scipy.special.{function}: the derivative with respect to {parameter} "
            f"is not implemented ({reason}); pass {parameter} as a constant (or wrap it in "
            f"funcgrad.stop_gradient)")
    return refuse


def zero_partial(ans, *args):
    """The partial derivative of a piecewise constant function."""
    return fnp.zeros_like(ans)


def in_precision_of(impl, *positions):
    """``impl`` with its result cast to the floating precision of the arguments at
    ``positions`` (SciPy's ufuncs compute some functions only in double precision; JAX keeps
    single precision)."""
    def cast(*args):
        # (Python numbers are weak beside arrays, and float64 alone, as in NumPy)
        dtype = np.result_type(*(args[i] for i in positions))
        if dtype.kind not in "fc":  # integers and booleans: double, as SciPy computes them
            dtype = np.dtype(np.float64)
        return as_dtype(impl(*args), np.result_type(dtype, np.float32))  # (half: single)
    cast.__name__ = cast.__qualname__ = getattr(impl, "__name__", "impl")
    return cast


def check_broadcastable(function, **arrays):
    try:
        return np.broadcast_shapes(*(np.shape(a) for a in arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{name} {np.shape(a)}" for name, a in arrays.items())
        raise ValueError(f"funcgrad.scipy.special.{function}: shapes {shapes} cannot be "
                         f"broadcast together") from None


def constant_order(function, name, n, integer=True, non_negative=True):
    """The order ``n`` of ``function`` as a constant array: it is not differentiable, so a
    traced value is an error. ``integer`` orders must be integers (``non_negative`` ones
    too)."""
    if isinstance(n, Box):
        raise TypeError(f"funcgrad.scipy.special.{function}: the order {name} was a traced "
                        f"value; it is a constant and cannot be differentiated (pass a number "
                        f"or a NumPy array)")
    n = np.asarray(n)
    if not integer:
        if n.dtype.kind not in "iuf":
            raise TypeError(f"funcgrad.scipy.special.{function}: the order {name} must be "
                            f"real, got {n.dtype}")
        return n
    if n.dtype.kind == "f" and np.all(np.floor(n) == n):
        n = n.astype(np.int64)
    if n.dtype.kind not in "iu":
        raise TypeError(f"funcgrad.scipy.special.{function}: the order {name} must be an "
                        f"integer (or integer array), got {n.dtype} values {n.tolist()!r}")
    if non_negative and np.any(n < 0):
        raise ValueError(f"funcgrad.scipy.special.{function}: the order {name} must be "
                         f"non-negative, got {n.tolist()!r}")
    return n
