"""funcgrad.scipy.special: differentiable special functions (``scipy.special``).

Values come from SciPy's ufuncs; each primitive's VJP and JVP rules are built from its
partial derivatives, written with funcgrad functions so that higher derivatives work.
Conventions at singular points follow JAX (``jax.scipy.special``).
"""
import math

import numpy as np
import scipy.special as _scipy

from .. import numpy as fnp
from ..core import Box, unbox_all
from ..numpy._axes import normalize_axis
from ..numpy._base import unbroadcast
from ..numpy._batching import elementwise as batch_elementwise
from ..numpy._rules import ArgVJP, aval, defbatch, defjvp, defvjp, primitive
from ..numpy.elementwise_special import bessel_i1_slope

# ---- declaring elementwise primitives from their partial derivatives -----------------


def _vjp_from(partial, argnum):
    def save(ans, *args):
        return (ans, args, *aval(args[argnum]))

    def pull(g, ans, args, shape, dtype):
        return unbroadcast(fnp.multiply(g, partial(ans, *args)), shape, dtype)
    return ArgVJP(save, pull)


def _jvp_from(partial):
    def rule(t, ans, *args):
        shape, dtype = aval(ans)
        tangent = fnp.multiply(t, partial(ans, *args))
        if aval(tangent)[1] != dtype:
            tangent = fnp.astype(tangent, dtype)
        return fnp.broadcast_to(tangent, shape)
    return rule


def _elementwise(impl, name, *partials):
    """A primitive computing ``impl``; ``partials[i](ans, *args)`` is d(output)/d(args[i])
    (None for an argument that is never differentiable)."""
    prim = primitive(impl, f"scipy.special.{name}")
    defvjp(prim, *(None if p is None else _vjp_from(p, i) for i, p in enumerate(partials)))
    defjvp(prim, *(None if p is None else _jvp_from(p) for p in partials))
    defbatch(prim, batch_elementwise)
    return prim


_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_TWO_PI = math.sqrt(2.0 * math.pi)


def _polygamma_impl(n, x):
    # SciPy's polygamma computes in double precision; keep single precision as JAX does.
    dtype = np.result_type(x, np.float32) if np.result_type(x).kind == "f" else np.float64
    return np.asarray(_scipy.polygamma(n, x), dtype)


_gammaln = _elementwise(_scipy.gammaln, "gammaln", lambda ans, x: _digamma(x))
_gamma = _elementwise(_scipy.gamma, "gamma", lambda ans, x: fnp.multiply(ans, _digamma(x)))
_digamma = _elementwise(_scipy.digamma, "digamma", lambda ans, x: _polygamma(1, x))
_polygamma = _elementwise(_polygamma_impl, "polygamma", None,
                          lambda ans, n, x: _polygamma(np.add(n, 1), x))
_erf = _elementwise(_scipy.erf, "erf",
                    lambda ans, x: fnp.multiply(_TWO_OVER_SQRT_PI, fnp.exp(-(x * x))))
_erfc = _elementwise(_scipy.erfc, "erfc",
                     lambda ans, x: fnp.multiply(-_TWO_OVER_SQRT_PI, fnp.exp(-(x * x))))
_erfinv = _elementwise(_scipy.erfinv, "erfinv",
                       lambda ans, x: fnp.multiply(0.5 * math.sqrt(math.pi), fnp.exp(ans * ans)))
_expit = _elementwise(_scipy.expit, "expit", lambda ans, x: ans * (1.0 - ans))
_logit = _elementwise(_scipy.logit, "logit", lambda ans, x: fnp.divide(1.0, x * (1.0 - x)))
_ndtr = _elementwise(_scipy.ndtr, "ndtr",
                     lambda ans, x: fnp.exp(-0.5 * (x * x)) / _SQRT_TWO_PI)
_ndtri = _elementwise(_scipy.ndtri, "ndtri",
                      lambda ans, x: fnp.exp(0.5 * (ans * ans)) * _SQRT_TWO_PI)
# exp(-x**2/2) / ndtr(x) computed as one exponent: finite far into the lower tail.
_log_ndtr = _elementwise(_scipy.log_ndtr, "log_ndtr",
                         lambda ans, x: fnp.exp(-0.5 * (x * x) - ans) / _SQRT_TWO_PI)
# I0' = I1 and I1' = I0 - I1 / x (not the recurrence through iv: SciPy's iv(1, x) is nan at
# x = 2.2e-308); the exponentially scaled ones add -sign(x) times their own value.
_i0 = _elementwise(_scipy.i0, "i0", lambda ans, x: _i1(x))
_i1 = _elementwise(_scipy.i1, "i1", lambda ans, x: bessel_i1_slope(_i0(x), ans, x))
_i0e = _elementwise(_scipy.i0e, "i0e", lambda ans, x: _i1e(x) - fnp.sign(x) * ans)
_i1e = _elementwise(
    _scipy.i1e, "i1e",
    lambda ans, x: bessel_i1_slope(_i0e(x), ans, x, scaled=True) - fnp.sign(x) * ans)
_entr = _elementwise(_scipy.entr, "entr", lambda ans, x: -(fnp.log(x) + 1.0))
# JAX's convention: the plain formulas, even where x == 0 makes the value itself 0.
# fnp.divide, not /: the arguments may be Python floats, whose 0.0 / 0.0 raises.
_xlogy = _elementwise(_scipy.xlogy, "xlogy",
                      lambda ans, x, y: fnp.log(y), lambda ans, x, y: fnp.divide(x, y))
_xlog1py = _elementwise(_scipy.xlog1py, "xlog1py",
                        lambda ans, x, y: _xlog1py(1.0, y), lambda ans, x, y: fnp.divide(x, 1.0 + y))
_betaln = _elementwise(_scipy.betaln, "betaln",
                       lambda ans, a, b: _digamma(a) - _digamma(a + b),
                       lambda ans, a, b: _digamma(b) - _digamma(a + b))

# ---- argument checks ------------------------------------------------------------------


def _check_broadcastable(function, **arrays):
    try:
        return np.broadcast_shapes(*(np.shape(a) for a in arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{name} {np.shape(a)}" for name, a in arrays.items())
        raise ValueError(f"funcgrad.scipy.special.{function}: shapes {shapes} cannot be "
                         f"broadcast together") from None


def _polygamma_order(n):
    if isinstance(n, Box):
        raise TypeError("funcgrad.scipy.special.polygamma: the order n was a traced value; "
                        "it is a non-negative integer constant and cannot be differentiated")
    n = np.asarray(n)
    if n.dtype.kind == "f" and np.all(np.floor(n) == n):
        n = n.astype(np.int64)
    if n.dtype.kind not in "iu":
        raise TypeError(f"funcgrad.scipy.special.polygamma: the order n must be an integer "
                        f"(or integer array), got {n.dtype} values {n.tolist()!r}")
    if np.any(n < 0):
        raise ValueError(f"funcgrad.scipy.special.polygamma: the order n must be "
                         f"non-negative, got {n.tolist()!r}")
    return n


# ---- public functions -------------------------------------------------------------------


def gammaln(x):
    """``scipy.special.gammaln``: log|Gamma(x)|."""
    return _gammaln(x)


def gamma(x):
    """``scipy.special.gamma``: the Gamma function."""
    return _gamma(x)


def digamma(x):
    """``scipy.special.digamma`` (``psi``): the derivative of gammaln."""
    return _digamma(x)


def polygamma(n, x):
    """``scipy.special.polygamma``: the n-th derivative of digamma; ``n`` is a constant
    non-negative integer (or integer array), differentiable in ``x`` only."""
    n = _polygamma_order(n)
    _check_broadcastable("polygamma", n=n, x=x)
    return _polygamma(n, x)


def erf(x):
    """``scipy.special.erf``: the error function."""
    return _erf(x)


def erfc(x):
    """``scipy.special.erfc``: 1 - erf(x)."""
    return _erfc(x)


def erfinv(x):
    """``scipy.special.erfinv``: the inverse of erf on (-1, 1)."""
    return _erfinv(x)


def expit(x):
    """``scipy.special.expit``: the logistic sigmoid 1 / (1 + exp(-x))."""
    return _expit(x)


def logit(x):
    """``scipy.special.logit``: log(x / (1 - x)), the inverse of expit."""
    return _logit(x)


def ndtr(x):
    """``scipy.special.ndtr``: the standard normal CDF."""
    return _ndtr(x)


def ndtri(p):
    """``scipy.special.ndtri``: the inverse of ndtr."""
    return _ndtri(p)


def log_ndtr(x):
    """``scipy.special.log_ndtr``: log of the standard normal CDF, accurate in both tails."""
    return _log_ndtr(x)


def i0(x):
    """``scipy.special.i0``: the modified Bessel function of the first kind, order 0."""
    return _i0(x)


def i1(x):
    """``scipy.special.i1``: the modified Bessel function of the first kind, order 1."""
    return _i1(x)


def i0e(x):
    """``scipy.special.i0e``: exp(-|x|) i0(x)."""
    return _i0e(x)


def i1e(x):
    """``scipy.special.i1e``: exp(-|x|) i1(x)."""
    return _i1e(x)


def entr(x):
    """``scipy.special.entr``: -x log(x), 0 at x = 0 and -inf for x < 0."""
    return _entr(x)


def xlogy(x, y):
    """``scipy.special.xlogy``: x * log(y), and 0 where x == 0."""
    _check_broadcastable("xlogy", x=x, y=y)
    return _xlogy(x, y)


def xlog1py(x, y):
    """``scipy.special.xlog1py``: x * log1p(y), and 0 where x == 0."""
    _check_broadcastable("xlog1py", x=x, y=y)
    return _xlog1py(x, y)


def betaln(a, b):
    """``scipy.special.betaln``: log|B(a, b)|."""
    _check_broadcastable("betaln", a=a, b=b)
    return _betaln(a, b)


def _max_shift(x, axes, finite_only):
    """A constant to subtract before exponentiating: the maximum over ``axes`` (kept), or 0
    where it is not finite if ``finite_only``. Being a constant, it carries no derivative."""
    # Batched values (vmap) stay boxed, and NumPy's functions dispatch to ours for them.
    values = unbox_all(x) if isinstance(x, Box) else np.asarray(x)
    if values.size == 0:
        raise ValueError("funcgrad.scipy.special: cannot reduce an empty array")
    shift = np.max(values, axis=axes, keepdims=True)
    if finite_only:
        shift = np.where(np.isfinite(shift), shift, 0).astype(shift.dtype)
    return shift


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """``scipy.special.logsumexp``: log(sum(b * exp(a))) over ``axis``, computed stably.

    Entries where ``b == 0`` do not count (nor receive gradient). With ``return_sign``,
    returns (log|sum|, sign of sum); otherwise a negative sum gives nan.
    """
    a = fnp.asarray(a)
    if b is not None:
        b = fnp.asarray(b)
        _check_broadcastable("logsumexp", a=a, b=b)
        a = fnp.where(fnp.not_equal(b, 0), a, -np.inf)
    axes = normalize_axis(axis, np.ndim(a), "logsumexp", "funcgrad.scipy.special")
    shift = _max_shift(a, axes, finite_only=True)
    terms = fnp.exp(a - shift)
    if b is not None:
        terms = terms * b
    total = fnp.sum(terms, axis=axes, keepdims=True)
    if return_sign:
        sign = np.sign(unbox_all(total))
        out = fnp.log(fnp.abs(total)) + shift
    else:
        out = fnp.log(total) + shift
    if not keepdims:
        out = fnp.squeeze(out, axis=axes)
    if return_sign:
        return out, (sign if keepdims else np.squeeze(sign, axis=axes))
    return out


def softmax(x, axis=None):
    """``scipy.special.softmax``: exp(x) / sum(exp(x)) over ``axis`` (default: all)."""
    x = fnp.asarray(x)
    axes = normalize_axis(axis, np.ndim(x), "softmax", "funcgrad.scipy.special")
    unnormalized = fnp.exp(x - _max_shift(x, axes, finite_only=False))
    return unnormalized / fnp.sum(unnormalized, axis=axes, keepdims=True)


def log_softmax(x, axis=None):
    """``scipy.special.log_softmax``: x - logsumexp(x) over ``axis`` (default: all)."""
    x = fnp.asarray(x)
    axes = normalize_axis(axis, np.ndim(x), "log_softmax", "funcgrad.scipy.special")
    shifted = x - _max_shift(x, axes, finite_only=False)
    return shifted - fnp.log(fnp.sum(fnp.exp(shifted), axis=axes, keepdims=True))


psi = digamma

__all__ = ["gammaln", "gamma", "digamma", "psi", "polygamma", "erf", "erfc", "erfinv",
           "expit", "logit", "ndtr", "ndtri", "log_ndtr", "i0", "i1", "i0e", "i1e", "entr",
           "xlogy", "xlog1py", "betaln", "logsumexp", "softmax", "log_softmax"]
