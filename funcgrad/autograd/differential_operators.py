"""autograd's differential operators, on funcgrad's transforms.

Each operator takes ``fun`` and ``argnum`` (an int, or a tuple of ints to differentiate
with respect to several arguments at once, giving tuples back) and returns a function
with ``fun``'s signature. The differentiated argument may be an array, a scalar, or a
list, tuple or dict of them (any funcgrad pytree).
"""
import functools
import inspect
import operator
import warnings
from collections import OrderedDict

from .. import numpy as fnp
from ..transforms import checkpoint as _checkpoint
from ..transforms import grad as _grad
from ..transforms import hessian as _hessian
from ..transforms import jacrev as _jacrev
from ..transforms import jvp as _jvp
from ..transforms import value_and_grad as _value_and_grad
from ..transforms import vjp as _vjp
from ..tree_util import tree_leaves, tree_map


def _argnum_operator(unary_operator):
    """Lift ``unary_operator(f, x, *extra)``, defined for functions of one argument, to
    autograd's ``operator(fun, argnum=0, *extra)`` for functions of many."""

    @functools.wraps(unary_operator)
    def operator_(fun, argnum=0, *extra, **extra_kwargs):
        name = unary_operator.__name__
        argnum = _checked_argnum(argnum, name)

        @functools.wraps(fun)
        def transformed(*args, **kwargs):
            x, of_x = _focus(fun, argnum, args, kwargs, name)
            return unary_operator(of_x, x, *extra, **extra_kwargs)

        return transformed

    return operator_


def _checked_argnum(argnum, name):
    if isinstance(argnum, bool) or not isinstance(argnum, (int, tuple, list)):
        raise TypeError(f"funcgrad.autograd.{name}: argnum must be an int or a tuple of ints, "
                        f"got {argnum!r}")
    if isinstance(argnum, int):
        return argnum
    for a in argnum:
        operator.index(a)
    return tuple(argnum)


def _focus(fun, argnum, args, kwargs, name):
    """The argument(s) at ``argnum``, and ``fun`` as a function of them alone."""
    positions = (argnum,) if isinstance(argnum, int) else argnum
    for position in positions:
        if not -len(args) <= position < len(args):
            raise TypeError(f"funcgrad.autograd.{name}: argnum {position} asks for positional "
                            f"argument {position}, but the function was called with "
                            f"{len(args)} positional argument(s).")

    def of_x(x):
        full = list(args)
        for position, value in zip(positions, (x,) if isinstance(argnum, int) else x):
            full[position] = value
        return fun(*full, **kwargs)

    x = args[argnum] if isinstance(argnum, int) else tuple(args[i] for i in argnum)
    return x, of_x


def _ones_like(tree):
    return tree_map(lambda leaf: fnp.ones(fnp.shape(leaf), fnp.result_type(leaf)), tree)


def _zeros_like(tree):
    return tree_map(lambda leaf: fnp.zeros(fnp.shape(leaf), fnp.result_type(leaf)), tree)


def _cast_like(values, like):
    """Cotangents or tangents given as Python numbers, or in another dtype of the same kind,
    cast to their primal's dtype, as autograd accepts them (funcgrad's transforms want the
    exact dtype; other mismatches still reach their clear error)."""
    def cast(value, primal):
        dtype, given = fnp.result_type(primal), fnp.result_type(value)
        if given == dtype or not fnp.can_cast(given, dtype, "same_kind"):
            return value
        return fnp.astype(fnp.asarray(value), dtype)
    return tree_map(cast, values, like)


# ---- the operators ------------------------------------------------------------------------


@_argnum_operator
def make_vjp(fun, x):
    """``(vjp, ans)``: ``fun``'s value at x and its vector-Jacobian product, a function of a
    cotangent shaped like ``ans`` (note the order: the function comes first)."""
    ans, pullback = _vjp(fun, x)
    return (lambda g: pullback(_cast_like(g, ans))[0]), ans


@_argnum_operator
def make_jvp(fun, x):
    """A function of a tangent ``v`` shaped like x, giving ``(ans, jvp)``: forward mode."""
    return lambda v: _jvp(fun, (x,), (_cast_like(v, x),))


@_argnum_operator
def grad(fun, x):
    """The gradient of ``fun``, whose output is a real scalar (or holds one element), with
    respect to argument ``argnum``. Shaped like that argument."""
    return _grad(fun)(x)


@_argnum_operator
def value_and_grad(fun, x):
    """``(fun(x), grad(fun)(x))`` in one pass, as ``scipy.optimize.minimize(jac=True)`` wants."""
    return _value_and_grad(fun)(x)


@_argnum_operator
def grad_and_aux(fun, x):
    """For ``fun`` returning ``(ans, aux)``: the gradient of ans (the sum of its elements if
    it is not a scalar), and aux unchanged."""
    ans, pullback, aux = _vjp(fun, x, has_aux=True)
    return pullback(_ones_like(ans))[0], aux


@_argnum_operator
def elementwise_grad(fun, x):
    """The sum over ``fun``'s outputs of their gradients, in one reverse pass: for a
    function acting elementwise, the derivative of each output with respect to its input."""
    ans, pullback = _vjp(fun, x)
    if any(fnp.iscomplexobj(leaf) for leaf in tree_leaves(ans)):
        raise TypeError("funcgrad.autograd.elementwise_grad: only applies to real-output "
                        "functions; use holomorphic_grad or jacobian for complex outputs.")
    return pullback(_ones_like(ans))[0]


@_argnum_operator
def deriv(fun, x):
    """The derivative along a direction of all ones, by forward mode: ``f'(x)`` for a
    function of a scalar."""
    return _jvp(fun, (x,), (_ones_like(x),))[1]


@_argnum_operator
def jacobian(fun, x):
    """The Jacobian by reverse mode: shape ``fun(x).shape + x.shape``."""
    return _jacrev(fun)(x)


@_argnum_operator
def hessian(fun, x):
    """The Hessian: shape ``fun(x).shape + x.shape + x.shape``."""
    return _hessian(fun)(x)


@_argnum_operator
def holomorphic_grad(fun, x):
    """``f'(z)`` for holomorphic ``fun`` of complex z: the gradient of its real part."""
    if not any(fnp.iscomplexobj(leaf) for leaf in tree_leaves(x)):
        warnings.warn("Input to holomorphic_grad is not complex", stacklevel=3)
    return _grad(lambda z: fnp.real(fun(z)))(x)


@_argnum_operator
def make_hvp(fun, x):
    """``(hvp, grad(fun)(x))``: ``hvp(v)`` is the Hessian at x times v, reusing the forward
    pass for many v."""
    return make_vjp(_grad(fun))(x)


@_argnum_operator
def make_jvp_reversemode(fun, x):
    """The Jacobian-vector product at x by two reverse passes (transposing the VJP)."""
    vjp, ans = make_vjp(fun)(x)
    return make_vjp(vjp)(_zeros_like(ans))[0]


def hessian_tensor_product(fun, argnum=0):
    """A function of ``(*args, tensor)``: the Hessian of scalar ``fun`` with respect to
    argument ``argnum`` contracted with ``tensor`` (shaped like that argument)."""
    fun_grad = grad(fun, argnum)

    def grad_dot_tensor(*args, **kwargs):
        args, tensor = args[:-1], args[-1]
        return fnp.tensordot(fun_grad(*args, **kwargs), tensor, fnp.ndim(tensor))

    return grad(grad_dot_tensor, argnum)


hessian_vector_product = hessian_tensor_product


def tensor_jacobian_product(fun, argnum=0):
    """A function of ``(*args, tensor)``: ``tensor`` contracted with the leading axes of the
    Jacobian of ``fun`` with respect to argument ``argnum`` (a VJP when tensor is shaped
    like the output)."""
    def tensor_dot_fun(*args, **kwargs):
        args, tensor = args[:-1], args[-1]
        return fnp.tensordot(tensor, fun(*args, **kwargs), fnp.ndim(tensor))

    return jacobian(tensor_dot_fun, argnum)


vector_jacobian_product = tensor_jacobian_product


def make_ggnvp(f, g=lambda x: 0.5 * fnp.sum(x ** 2, axis=-1), f_argnum=0):
    """Generalized Gauss-Newton-vector products of ``g(f(x))``: a function of x giving
    ``v -> J_f(x)^T H_g(f(x)) J_f(x) v``."""
    def at(x_fun, x):
        f_vjp, f_x = make_vjp(x_fun)(x)
        g_hvp, _ = make_hvp(g)(f_x)
        return lambda v: f_vjp(g_hvp(_jvp(x_fun, (x,), (_cast_like(v, x),))[1]))

    at.__name__ = "make_ggnvp"
    return _argnum_operator(at)(f, f_argnum)


def grad_named(fun, argname):
    """The gradient with respect to the argument called ``argname`` (passed positionally)."""
    names = list(inspect.signature(fun).parameters)
    if argname not in names:
        raise ValueError(f"funcgrad.autograd.grad_named: {getattr(fun, '__name__', fun)} has "
                         f"no argument named {argname!r}; its arguments are {names}.")
    return grad(fun, names.index(argname))


def multigrad_dict(fun):
    """A function with ``fun``'s signature returning an OrderedDict from each argument's
    name (defaults included; ``*args`` as a tuple, ``**kwargs`` as a dict) to its gradient."""
    signature = inspect.signature(fun)

    @functools.wraps(fun)
    def gradients(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        arguments = OrderedDict(bound.arguments)

        def fun_of_all(values):
            rebound = inspect.BoundArguments(signature, OrderedDict(values))
            return fun(*rebound.args, **rebound.kwargs)

        found = _grad(fun_of_all)(dict(arguments))
        return OrderedDict((name, found[name]) for name in arguments)

    return gradients


def checkpoint(fun):
    """``fun``, recomputed in the backward pass instead of keeping its intermediates."""
    return _checkpoint(fun)
