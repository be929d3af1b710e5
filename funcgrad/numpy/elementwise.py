"""Elementwise functions (NumPy's ufuncs) and their VJPs, written in funcgrad.numpy."""
import numpy as np

from ._rules import aval, defvjp, primitive, unbroadcast
from .casting import astype

# ---- unary -------------------------------------------------------------------------

negative = primitive(np.negative)
positive = primitive(np.positive)
exp = primitive(np.exp)
log = primitive(np.log)
sin = primitive(np.sin)
cos = primitive(np.cos)
tanh = primitive(np.tanh)
sqrt = primitive(np.sqrt)
absolute = primitive(np.absolute)
sign = primitive(np.sign)
real = primitive(np.real)
imag = primitive(np.imag)
conjugate = primitive(np.conjugate)

defvjp(negative, lambda ans, x: lambda g: negative(g))
defvjp(positive, lambda ans, x: lambda g: g)
defvjp(exp, lambda ans, x: lambda g: multiply(g, ans))
defvjp(log, lambda ans, x: lambda g: true_divide(g, x))
defvjp(sin, lambda ans, x: lambda g: multiply(g, cos(x)))
defvjp(cos, lambda ans, x: lambda g: negative(multiply(g, sin(x))))
defvjp(tanh, lambda ans, x: lambda g: multiply(g, subtract(1.0, multiply(ans, ans))))
defvjp(sqrt, lambda ans, x: lambda g: true_divide(multiply(g, 0.5), ans))
defvjp(sign, lambda ans, x: lambda g: multiply(g, 0.0))
defvjp(conjugate, lambda ans, x: lambda g: conjugate(g))


def _abs_vjp(ans, x):
    # JAX's convention: slope 1 at 0 for real x; x / |x| for complex x.
    if np.iscomplexobj(x):
        return lambda g: multiply(real(g), true_divide(x, ans))
    slope = astype(where(less(x, 0), -1.0, 1.0), aval(x)[1])
    return lambda g: multiply(g, slope)


defvjp(absolute, _abs_vjp)


def _real_vjp(ans, x):
    shape, dtype = aval(x)
    return lambda g: unbroadcast(g, shape, dtype)


def _imag_vjp(ans, x):
    shape, dtype = aval(x)
    if dtype.kind != "c":
        return lambda g: multiply(g, 0.0)
    return lambda g: multiply(g, -1j)


defvjp(real, _real_vjp)
defvjp(imag, _imag_vjp)

# ---- binary ------------------------------------------------------------------------

add = primitive(np.add)
subtract = primitive(np.subtract)
multiply = primitive(np.multiply)
true_divide = primitive(np.true_divide)
power = primitive(np.power)
maximum = primitive(np.maximum)
minimum = primitive(np.minimum)


def _staged(argnum, cotangent):
    """The rule for argument `argnum` of a broadcasting binary primitive.

    ``cotangent(g, ans, x, y)`` gives the full-shape cotangent; the closure keeps
    x, y and ans alive for the backward pass, so linear rules below avoid it.
    """
    def rule(ans, x, y):
        shape, dtype = aval(y if argnum else x)
        return lambda g: unbroadcast(cotangent(g, ans, x, y), shape, dtype)
    return rule


def _linear(argnum, negate=False):
    """The rule of add or subtract: only the argument's shape and dtype are kept."""
    def rule(ans, x, y):
        shape, dtype = aval(y if argnum else x)
        if negate:
            return lambda g: unbroadcast(negative(g), shape, dtype)
        return lambda g: unbroadcast(g, shape, dtype)
    return rule


def _binary(primitive_, cotangent_x, cotangent_y):
    defvjp(primitive_, _staged(0, cotangent_x), _staged(1, cotangent_y))


defvjp(add, _linear(0), _linear(1))
defvjp(subtract, _linear(0), _linear(1, negate=True))
_binary(multiply, lambda g, ans, x, y: multiply(g, y), lambda g, ans, x, y: multiply(g, x))
_binary(true_divide,
        lambda g, ans, x, y: true_divide(g, y),
        lambda g, ans, x, y: negative(multiply(g, true_divide(ans, y))))


def _power_dx(g, ans, x, y):
    return multiply(g, multiply(y, power(x, subtract(y, 1))))


def _power_dy(g, ans, x, y):
    # d/dy x**y = log(x) x**y, taken as 0 where x == 0 (JAX's convention).
    safe_x = where(equal(x, 0), 1.0, x)
    return multiply(g, multiply(log(safe_x), ans))


_binary(power, _power_dx, _power_dy)


def _chooser_slope(x, y, wins):
    """1 where x wins, 0.5 at ties (the gradient is split, as in JAX), else 0."""
    return add(where(wins(x, y), 1.0, 0.0), where(equal(x, y), 0.5, 0.0))


_binary(maximum,
        lambda g, ans, x, y: multiply(g, _chooser_slope(x, y, greater)),
        lambda g, ans, x, y: multiply(g, _chooser_slope(y, x, greater)))
_binary(minimum,
        lambda g, ans, x, y: multiply(g, _chooser_slope(x, y, less)),
        lambda g, ans, x, y: multiply(g, _chooser_slope(y, x, less)))

# ---- comparisons: boolean results are constants, so no rules -----------------------

less = primitive(np.less)
less_equal = primitive(np.less_equal)
greater = primitive(np.greater)
greater_equal = primitive(np.greater_equal)
equal = primitive(np.equal)
not_equal = primitive(np.not_equal)

# ---- selection ---------------------------------------------------------------------

_where = primitive(np.where, name="where")


def _where_rule(argnum):
    def rule(ans, condition, x, y):
        shape, dtype = aval((x, y)[argnum - 1])
        if argnum == 1:
            return lambda g: unbroadcast(_where(condition, g, 0.0), shape, dtype)
        return lambda g: unbroadcast(_where(condition, 0.0, g), shape, dtype)
    return rule


defvjp(_where, None, _where_rule(1), _where_rule(2))


def where(condition, x=None, y=None):
    """``numpy.where``: elements of x where condition holds, else of y."""
    if x is None and y is None:
        return np.nonzero(condition)
    if x is None or y is None:
        raise ValueError("funcgrad.numpy.where: give both x and y, or neither")
    return _where(condition, x, y)


def clip(a, a_min=None, a_max=None):
    """``numpy.clip`` as maximum then minimum, so ties split the gradient as in JAX."""
    if a_min is not None:
        a = maximum(a_min, a)
    if a_max is not None:
        a = minimum(a_max, a)
    return a


abs = absolute
divide = true_divide
conj = conjugate
pow = power

__all__ = [
    "negative", "positive", "exp", "log", "sin", "cos", "tanh", "sqrt", "absolute", "abs",
    "sign", "real", "imag", "conjugate", "conj", "add", "subtract", "multiply", "true_divide",
    "divide", "power", "pow", "maximum", "minimum", "less", "less_equal", "greater",
    "greater_equal", "equal", "not_equal", "where", "clip",
]
