"""Elementwise functions with special derivatives: rounding, integer division and
remainders, floating-point surgery (copysign, ldexp, frexp, modf, nan_to_num), powers in
float64, and the special functions sinc and i0. Rules are written as in ``elementwise``."""
import math
import operator

import numpy as np

from ..core import ZERO, ArgVJP, Box, as_dtype, unbox_all
from ._rules import defbatch, defdiagonal, defjvp, defvjp, dtype_of, primitive, reject_out
from ._base import astype
from ._batching import elementwise as batch_elementwise
from ._diagonal import elementwise as diagonal_elementwise
from .elementwise import (IDENTITY, ZERO_SLOPE, Ufunc, absolute, add, constant_slope,
                          define_rules, exp, float_power_p, imag, multiply, negative, real,
                          replace_where, subtract, true_divide, unary_rules, where)


# ---- rounding: zero derivative ---------------------------------------------------------

floor = Ufunc(np.floor)
ceil = Ufunc(np.ceil)
rint = Ufunc(np.rint)
trunc = Ufunc(np.trunc)
_round = primitive(lambda x, decimals: np.round(x, decimals), "round")
for _rounding in (floor, ceil, rint, trunc):
    define_rules(_rounding, ZERO_SLOPE)
defvjp(_round, ZERO)
defjvp(_round, lambda t, ans, x, decimals: None)


def round(a, decimals=0, out=None):
    """``numpy.round``: round to ``decimals`` decimals (halves to even); zero derivative."""
    if not isinstance(a, Box):
        return np.round(a, decimals, out)
    reject_out(out, "round")
    return _round(a, decimals=operator.index(decimals))


def fix(x, out=None):
    """``numpy.fix``: round toward zero (as ``trunc``); zero derivative."""
    if not isinstance(x, Box):
        return np.fix(x, out)
    reject_out(out, "fix")
    return trunc(x)


# ---- integer division and remainders ----------------------------------------------------

floor_divide = Ufunc(np.floor_divide)
remainder = Ufunc(np.remainder)
fmod = Ufunc(np.fmod)


def _truncated_quotient(x, y):
    return np.trunc(np.true_divide(x, y))


def _fmod_divisor_slope(ans, x, y):
    # fmod(x, y) = x - trunc(x / y) y, with the quotient held constant (as in JAX).
    return np.negative(_truncated_quotient(x, y))


def _remainder_divisor_slope(ans, x, y):
    # remainder = fmod, plus y where fmod's sign differs from y's (JAX's construction).
    truncated = np.fmod(x, y)
    shifted = (truncated != 0) & ((truncated < 0) != (y < 0))
    return shifted - _truncated_quotient(x, y)


define_rules(floor_divide, ZERO_SLOPE, ZERO_SLOPE)
define_rules(fmod, IDENTITY, constant_slope(_fmod_divisor_slope))
define_rules(remainder, IDENTITY, constant_slope(_remainder_divisor_slope))


def divmod(x1, x2, *args, **kwargs):
    """``numpy.divmod``: ``(floor_divide(x1, x2), remainder(x1, x2))``."""
    if not (isinstance(x1, Box) or isinstance(x2, Box)):
        return np.divmod(x1, x2, *args, **kwargs)
    return floor_divide(x1, x2, *args, **kwargs), remainder(x1, x2, *args, **kwargs)


# ---- signs, exponents and replacements ----------------------------------------------------

copysign = Ufunc(np.copysign)
heaviside = Ufunc(np.heaviside)
ldexp = Ufunc(np.ldexp)
frexp = Ufunc(np.frexp, multiple_results=True)
modf = Ufunc(np.modf, multiple_results=True)


def _copysign_slope(ans, x, y):
    # copysign(x, y) = +-|x|, with abs's slope of 1 at 0 (as in JAX).
    return np.where(x >= 0, 1.0, -1.0) * np.where(np.signbit(y), -1.0, 1.0)


define_rules(copysign, constant_slope(_copysign_slope), ZERO_SLOPE)
# heaviside(x, h0) is h0 where x == 0: the gradient reaches h0 there only.
define_rules(heaviside, ZERO_SLOPE, constant_slope(lambda ans, x, h0: x == 0))
# The exponent (y) is an integer, so a constant.
define_rules(ldexp, lambda v, y: ldexp(v, y), None)


# Floating-point neighbours have no derivative rule, as in JAX (whose grad raises
# NotImplementedError for both): differentiating through them raises an error naming them.
# Not registered: the oracle's registry self-test needs a differentiable case of every
# registered primitive, and these have none to give.
nextafter = Ufunc(np.nextafter, register=False)
spacing = Ufunc(np.spacing, register=False)


def _frexp_pull(g, exponent):
    return None if g[0] is None else ldexp(g[0], -exponent)


# mantissa = x 2**-exponent, the exponent (an integer array, never traced) held constant.
defvjp(frexp, ArgVJP(lambda ans, x: (ans[1],), _frexp_pull))
defjvp(frexp, lambda t, ans, x: (ldexp(t, -ans[1]), None))
# The integral part has zero derivative.
defvjp(modf, ArgVJP(lambda ans, x: (), lambda g: g[0]))
defjvp(modf, lambda t, ans, x: (t, None))


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """``numpy.nan_to_num``; replaced elements get zero gradient (as in JAX)."""
    if not isinstance(x, Box):
        return np.nan_to_num(x, copy=copy, nan=nan, posinf=posinf, neginf=neginf)
    if dtype_of(x).kind == "c":  # the real and imaginary parts are replaced separately
        parts = [nan_to_num(part(x), nan=nan, posinf=posinf, neginf=neginf)
                 for part in (real, imag)]
        return add(parts[0], multiply(parts[1], 1j))
    raw = unbox_all(x)
    finite = np.isfinite(raw)
    if isinstance(raw, Box):  # batched (vmap): NumPy's replacements, chosen per element
        info = np.finfo(dtype_of(raw))
        replaced = astype(where(raw != raw, nan, where(
            raw > 0, info.max if posinf is None else posinf,
            info.min if neginf is None else neginf)), dtype_of(raw))
    else:
        replaced = np.nan_to_num(raw, nan=nan, posinf=posinf, neginf=neginf)
    return replace_where(~finite, replaced, x)


def float_power(x1, x2, *args, **kwargs):
    """``numpy.float_power``: ``x1 ** x2`` computed in float64 (complex128 for complex)."""
    if not (isinstance(x1, Box) or isinstance(x2, Box)):
        return np.float_power(x1, x2, *args, **kwargs)
    complex_ = dtype_of(x1).kind == "c" or dtype_of(x2).kind == "c"
    dtype = np.dtype(np.complex128 if complex_ else np.float64)
    x1, x2 = (v if dtype_of(v) == dtype else astype(v, dtype) for v in (x1, x2))
    return float_power_p(x1, x2, *args, **kwargs)


# ---- sinc --------------------------------------------------------------------------------

# Near 0 the k-th derivative of sin(u) / u comes from its Maclaurin series,
# sum_n (-1)**n u**(2n) / (2n + 1)!, differentiated termwise; elsewhere from the recurrence
# u f_k + k f_(k-1) = sin(u + k pi / 2), which loses no accuracy once |u| >= 1.
_MACLAURIN_TERMS = 14


def _sin_over_u_derivative_near_zero(u, k):
    total = np.zeros_like(u)
    first = (k + 1) // 2
    for n in range(first, first + _MACLAURIN_TERMS):
        coefficient = (-1) ** n * math.factorial(2 * n) / (
            math.factorial(2 * n - k) * math.factorial(2 * n + 1))
        total = total + coefficient * u ** (2 * n - k)
    return total


def _sin_over_u_derivative_far(u, k):
    derivative = np.sin(u) / u
    for j in range(1, k + 1):
        derivative = (np.sin(u + j * np.pi / 2) - j * derivative) / u
    return derivative


def _sinc_derivative(x, order):
    """The ``order``-th derivative of ``numpy.sinc`` at x (``sinc`` itself for order 0)."""
    if order == 0:
        return np.sinc(x)
    dtype = np.result_type(x, 1.0)
    u = np.pi * as_dtype(x, np.result_type(dtype, np.float64))
    near = np.abs(u) < 1
    far_u = np.where(near, 1.0, u)
    result = np.where(near, _sin_over_u_derivative_near_zero(u, order),
                      _sin_over_u_derivative_far(far_u, order))
    return (np.pi ** order * result).astype(dtype)


_sinc = primitive(_sinc_derivative, "sinc")
defvjp(_sinc, ArgVJP(lambda ans, x, order: (x, order),
                     lambda g, x, order: multiply(g, _sinc(x, order=order + 1))))
defjvp(_sinc, lambda t, ans, x, order: multiply(t, _sinc(x, order=order + 1)))


def sinc(x):
    """``numpy.sinc``: sin(pi x) / (pi x), and 1 at 0; exact derivatives of every order."""
    return _sinc(x, order=0)


# ---- i0 ----------------------------------------------------------------------------------

_SERIES_LIMIT = 25.0


def _bessel_i1_impl(x):
    """The modified Bessel function I1 (NumPy has only I0): its power series below
    ``_SERIES_LIMIT``, its asymptotic expansion above (each to double precision there)."""
    dtype = np.result_type(x, 1.0)
    x = as_dtype(x, np.dtype(np.float64))
    small = np.minimum(np.abs(x), _SERIES_LIMIT)
    quarter_square = small * small / 4
    term = small / 2
    series = term
    for k in range(1, 60):
        term = term * quarter_square / (k * (k + 1))
        series = series + term
    large = np.maximum(np.abs(x), _SERIES_LIMIT)
    term = np.ones_like(large)
    expansion = term
    for k in range(1, 30):
        term = term * ((2 * k - 1) ** 2 - 4) / (8 * k * large)
        expansion = expansion + term
    with np.errstate(over="ignore"):
        asymptotic = np.exp(large) / np.sqrt(2 * np.pi * large) * expansion
    magnitude = np.where(np.abs(x) < _SERIES_LIMIT, series, asymptotic)
    return (np.sign(x) * magnitude).astype(dtype)


i0 = primitive(np.i0, "i0")
_bessel_i1 = primitive(_bessel_i1_impl, "bessel_i1")
for _primitive in (_round, _sinc, i0, _bessel_i1):
    defbatch(_primitive, batch_elementwise)
    defdiagonal(_primitive, diagonal_elementwise)
unary_rules(i0, lambda v, x: multiply(v, _bessel_i1(x)))


def bessel_i1_slope(i0_x, i1_x, x, scaled=False):
    """I1'(x) = I0(x) - I1(x) / x, given I0(x) and I1(x) (or, ``scaled``, exp(-|x|) times
    each). Where |x| <= eps, I1(x) / x comes from its series 1/2 + x**2 / 16 instead: the
    quotient loses its digits there (I1 of a subnormal x rounds, 0 / 0 at 0), and the series
    keeps derivatives of the next orders right."""
    tiny = absolute(x) <= np.finfo(np.result_type(unbox_all(x), np.float32)).eps
    # Each branch sees only the x it is used at, so neither overflows nor divides by 0.
    safe_x = where(tiny, 1.0, x)
    tiny_x = where(tiny, x, 0.0)
    series = add(0.5, true_divide(multiply(tiny_x, tiny_x), 16.0))
    if scaled:
        series = multiply(series, exp(negative(absolute(tiny_x))))
    return subtract(i0_x, where(tiny, series, true_divide(i1_x, safe_x)))


unary_rules(_bessel_i1, lambda v, ans, x: multiply(v, bessel_i1_slope(i0(x), ans, x)))

around = round
mod = remainder

__all__ = ["floor", "ceil", "rint", "trunc", "round", "around", "fix", "floor_divide",
           "remainder", "mod", "fmod", "divmod", "copysign", "heaviside", "ldexp", "frexp",
           "modf", "nextafter", "spacing", "nan_to_num", "float_power", "sinc", "i0"]
