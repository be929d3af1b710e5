"""funcgrad.scipy.special: differentiable special functions (``scipy.special``).

Values come from SciPy's ufuncs; each primitive's VJP and JVP rules are built from its
partial derivatives, written with funcgrad functions so that higher derivatives work.
Conventions at singular points follow JAX (``jax.scipy.special``).
"""
import functools
import math

import numpy as np
import scipy.special as _scipy

from ... import numpy as fnp
from ...core import Box, unbox_all
from ...numpy._axes import normalize_axis
from ...numpy._batching import holds_anywhere, plain_value
from . import (_bessel, _boxcox, _complex_valued, _core, _gamma_family, _incomplete,
               _integrals)
from ._rules import check_broadcastable, constant_order

# ---- public functions -------------------------------------------------------------------


def gammaln(x):
    """``scipy.special.gammaln``: log|Gamma(x)|."""
    return _core.gammaln(x)


def gamma(x):
    """``scipy.special.gamma``: the Gamma function."""
    return _core.gamma(x)


def digamma(x):
    """``scipy.special.digamma`` (``psi``): the derivative of gammaln."""
    return _core.digamma(x)


def polygamma(n, x):
    """``scipy.special.polygamma``: the n-th derivative of digamma; ``n`` is a constant
    non-negative integer (or integer array), differentiable in ``x`` only."""
    n = constant_order("polygamma", "n", n)
    check_broadcastable("polygamma", n=n, x=x)
    return _core.polygamma(n, x)


def erf(x):
    """``scipy.special.erf``: the error function."""
    return _core.erf(x)


def erfc(x):
    """``scipy.special.erfc``: 1 - erf(x)."""
    return _core.erfc(x)


def erfinv(x):
    """``scipy.special.erfinv``: the inverse of erf on (-1, 1)."""
    return _core.erfinv(x)


def expit(x):
    """``scipy.special.expit``: the logistic sigmoid 1 / (1 + exp(-x))."""
    return _core.expit(x)


def logit(x):
    """``scipy.special.logit``: log(x / (1 - x)), the inverse of expit."""
    return _core.logit(x)


def ndtr(x):
    """``scipy.special.ndtr``: the standard normal CDF."""
    return _core.ndtr(x)


def ndtri(p):
    """``scipy.special.ndtri``: the inverse of ndtr."""
    return _core.ndtri(p)


def log_ndtr(x):
    """``scipy.special.log_ndtr``: log of the standard normal CDF, accurate in both tails."""
    return _core.log_ndtr(x)


def i0(x):
    """``scipy.special.i0``: the modified Bessel function of the first kind, order 0."""
    return _core.i0(x)


def i1(x):
    """``scipy.special.i1``: the modified Bessel function of the first kind, order 1."""
    return _core.i1(x)


def i0e(x):
    """``scipy.special.i0e``: exp(-|x|) i0(x)."""
    return _core.i0e(x)


def i1e(x):
    """``scipy.special.i1e``: exp(-|x|) i1(x)."""
    return _core.i1e(x)


def entr(x):
    """``scipy.special.entr``: -x log(x), 0 at x = 0 and -inf for x < 0."""
    return _core.entr(x)


def xlogy(x, y):
    """``scipy.special.xlogy``: x * log(y), and 0 where x == 0."""
    check_broadcastable("xlogy", x=x, y=y)
    return _core.xlogy(x, y)


def xlog1py(x, y):
    """``scipy.special.xlog1py``: x * log1p(y), and 0 where x == 0."""
    check_broadcastable("xlog1py", x=x, y=y)
    return _core.xlog1py(x, y)


def betaln(a, b):
    """``scipy.special.betaln``: log|B(a, b)|."""
    check_broadcastable("betaln", a=a, b=b)
    return _core.betaln(a, b)


def beta(a, b):
    """``scipy.special.beta``: Gamma(a) Gamma(b) / Gamma(a + b)."""
    check_broadcastable("beta", a=a, b=b)
    return _gamma_family.beta(a, b)


def rgamma(x):
    """``scipy.special.rgamma``: 1 / Gamma(x), 0 at the poles of Gamma."""
    return _gamma_family.rgamma(x)


def gammasgn(x):
    """``scipy.special.gammasgn``: the sign of Gamma(x) (derivative 0)."""
    return _gamma_family.gammasgn(x)


def loggamma(x):
    """``scipy.special.loggamma``: the principal branch of log Gamma; on real arguments,
    gammaln where Gamma(x) > 0 and nan elsewhere."""
    return _gamma_family.loggamma(x)


def multigammaln(a, d):
    """``scipy.special.multigammaln``: the log of the multivariate gamma function of
    dimension ``d`` (a constant positive integer), defined for a > (d - 1) / 2."""
    d = int(constant_order("multigammaln", "d", d))
    if d < 1:
        raise ValueError(f"funcgrad.scipy.special.multigammaln: the dimension d must be "
                         f"positive, got {d}")
    if holds_anywhere(plain_value(a) <= 0.5 * (d - 1)):
        raise ValueError(f"funcgrad.scipy.special.multigammaln: a must be greater than "
                         f"(d - 1) / 2 = {0.5 * (d - 1)} everywhere")
    terms = [_core.gammaln(fnp.subtract(a, 0.5 * j)) for j in range(d)]
    return functools.reduce(fnp.add, terms) + 0.25 * d * (d - 1) * math.log(math.pi)


def poch(z, m):
    """``scipy.special.poch``: Pochhammer's symbol Gamma(z + m) / Gamma(z)."""
    check_broadcastable("poch", z=z, m=m)
    return _gamma_family.poch(z, m)


def factorial(n, exact=False):
    """``scipy.special.factorial`` with ``exact=False``: Gamma(n + 1), and 0 where n < 0."""
    if exact:
        raise NotImplementedError("funcgrad.scipy.special.factorial: exact=True (integer "
                                  "arithmetic) is not differentiable; use exact=False or "
                                  "scipy.special.factorial")
    negative = fnp.less(n, 0)
    return fnp.where(negative, 0.0, _core.gamma(fnp.where(negative, 0.0, n) + 1.0))


def binom(n, k):
    """``scipy.special.binom``: the binomial coefficient of real n and k,
    Gamma(n + 1) / (Gamma(k + 1) Gamma(n - k + 1)); differentiable in both."""
    check_broadcastable("binom", n=n, k=k)
    return _gamma_family.binom(n, k)


def comb(N, k, exact=False, repetition=False):
    """``scipy.special.comb`` with ``exact=False``: the binomial coefficient, 0 where
    k > N, N < 0 or k < 0; with ``repetition``, comb(N + k - 1, k)."""
    if exact:
        raise NotImplementedError("funcgrad.scipy.special.comb: exact=True (integer "
                                  "arithmetic) is not differentiable; use exact=False or "
                                  "scipy.special.comb")
    check_broadcastable("comb", N=N, k=k)
    if repetition:
        N = fnp.subtract(fnp.add(N, k), 1)
    outside = fnp.greater(k, N) | fnp.less(N, 0) | fnp.less(k, 0)
    # Outside, binom sees (1, 0): its derivatives there (digamma at poles) would be nan.
    inside = _gamma_family.binom(fnp.where(outside, 1.0, N), fnp.where(outside, 0.0, k))
    return fnp.where(outside, 0.0, inside)


def zeta(x, q=None):
    """``scipy.special.zeta``: Hurwitz's zeta function sum_n (n + q)**-x, differentiable in
    ``q``; ``q=None`` is Riemann's, defined below x = 1 too (by analytic continuation, as
    SciPy's; Hurwitz's is NaN there)."""
    if q is None:
        return _gamma_family.riemann_zeta(x)
    check_broadcastable("zeta", x=x, q=q)
    return _gamma_family.zeta(x, q)


def gammainc(a, x):
    """``scipy.special.gammainc``: the regularized lower incomplete gamma function P(a, x),
    differentiable in ``x`` and in ``a``."""
    check_broadcastable("gammainc", a=a, x=x)
    return _incomplete.gammainc(a, x)


def gammaincc(a, x):
    """``scipy.special.gammaincc``: 1 - gammainc(a, x), differentiable in ``x`` and ``a``."""
    check_broadcastable("gammaincc", a=a, x=x)
    return _incomplete.gammaincc(a, x)


def betainc(a, b, x):
    """``scipy.special.betainc``: the regularized incomplete beta function, differentiable
    in ``x`` (as JAX's; a derivative in ``a`` or ``b`` is an error)."""
    check_broadcastable("betainc", a=a, b=b, x=x)
    return _incomplete.betainc(a, b, x)


def erfcinv(y):
    """``scipy.special.erfcinv``: the inverse of erfc on (0, 2)."""
    return _integrals.erfcinv(y)


def erfcx(x):
    """``scipy.special.erfcx``: exp(x**2) erfc(x)."""
    return _integrals.erfcx(x)


def dawsn(x):
    """``scipy.special.dawsn``: Dawson's integral exp(-x**2) int_0^x exp(t**2) dt."""
    return _integrals.dawsn(x)


def fresnel(x):
    """``scipy.special.fresnel``: the Fresnel integrals (S(x), C(x))."""
    return _integrals.fresnel_s(x), _integrals.fresnel_c(x)


def sici(x):
    """``scipy.special.sici``: the sine and cosine integrals (Si(x), Ci(x))."""
    return _integrals.si(x), _integrals.ci(x)


def expi(x):
    """``scipy.special.expi``: the exponential integral Ei(x)."""
    return _integrals.expi(x)


def exp1(x):
    """``scipy.special.exp1``: the exponential integral E1(x)."""
    return _integrals.exp1(x)


def expn(n, x):
    """``scipy.special.expn``: the generalized exponential integral E_n(x); ``n`` is a
    constant non-negative integer."""
    n = constant_order("expn", "n", n)
    check_broadcastable("expn", n=n, x=x)
    return _integrals.expn(n, x)


def spence(x):
    """``scipy.special.spence``: Spence's function, the dilogarithm Li2(1 - x)."""
    return _integrals.spence(x)


def owens_t(h, a):
    """``scipy.special.owens_t``: Owen's T function T(h, a)."""
    check_broadcastable("owens_t", h=h, a=a)
    return _integrals.owens_t(h, a)


def hyp1f1(a, b, x):
    """``scipy.special.hyp1f1``: the confluent hypergeometric function 1F1(a; b; x),
    differentiable in ``x`` (a derivative in ``a`` or ``b`` is an error)."""
    check_broadcastable("hyp1f1", a=a, b=b, x=x)
    return _integrals.hyp1f1(a, b, x)


def hyp2f1(a, b, c, x):
    """``scipy.special.hyp2f1``: the Gauss hypergeometric function 2F1(a, b; c; x),
    differentiable in ``x`` (a derivative in ``a``, ``b`` or ``c`` is an error)."""
    check_broadcastable("hyp2f1", a=a, b=b, c=c, x=x)
    return _integrals.hyp2f1(a, b, c, x)


def boxcox(x, lmbda):
    """``scipy.special.boxcox``: the Box-Cox transformation (x**lmbda - 1) / lmbda (log(x)
    at lmbda = 0), nan for x < 0; differentiable in ``x`` and ``lmbda``, the derivative in
    lmbda accurate at and near lmbda = 0 too."""
    check_broadcastable("boxcox", x=x, lmbda=lmbda)
    return _boxcox.boxcox(x, lmbda)


def boxcox1p(x, lmbda):
    """``scipy.special.boxcox1p``: the Box-Cox transformation of 1 + x, ((1 + x)**lmbda - 1)
    / lmbda (log1p(x) at lmbda = 0), nan for x < -1; differentiable in ``x`` and ``lmbda``."""
    check_broadcastable("boxcox1p", x=x, lmbda=lmbda)
    return _boxcox.boxcox1p(x, lmbda)


def wofz(z):
    """``scipy.special.wofz``: Faddeeva's function exp(-z**2) erfc(-iz), complex for real or
    complex ``z`` (complex64 for single precision, as JAX); holomorphic, with derivative
    -2 z wofz(z) + 2i / sqrt(pi)."""
    return _complex_valued.wofz(z)


def sph_harm_y(n, m, theta, phi, *, diff_n=0, n_max=None):
    """``scipy.special.sph_harm_y``: the spherical harmonic Y_n^m(theta, phi) of degree
    ``n`` and order ``m`` (constant integers; 0 where |m| > n, as SciPy), with ``theta`` the
    polar and ``phi`` the azimuthal angle; differentiable in both angles, to any order.

    ``diff_n`` (SciPy's derivatives returned with the value) must be 0: differentiate with
    ``funcgrad.grad`` or ``jacfwd`` instead. ``n_max`` (JAX's bound on ``n``) is accepted and
    must be at least max(n); JAX would silently clip larger degrees to it."""
    if diff_n != 0:
        raise NotImplementedError(
            f"funcgrad.scipy.special.sph_harm_y: diff_n={diff_n!r} is not supported; take "
            f"the derivatives with funcgrad.grad, jacfwd or jvp (the angles are differentiable)")
    n = constant_order("sph_harm_y", "n", n)
    m = constant_order("sph_harm_y", "m", m, non_negative=False)
    if n_max is not None and n.size and int(n_max) < int(np.max(n)):
        raise ValueError(f"funcgrad.scipy.special.sph_harm_y: n_max={n_max!r} is below the "
                         f"largest degree n, {int(np.max(n))}; pass n_max >= max(n) or leave "
                         f"it out")
    check_broadcastable("sph_harm_y", n=n, m=m, theta=theta, phi=phi)
    return _complex_valued.sph_harm_y(n, m, theta, phi)


def kl_div(x, y):
    """``scipy.special.kl_div``: x log(x / y) - x + y (0 at x = 0 <= y, inf elsewhere off
    x, y > 0)."""
    check_broadcastable("kl_div", x=x, y=y)
    return _core.kl_div(x, y)


def rel_entr(x, y):
    """``scipy.special.rel_entr``: x log(x / y) (0 at x = 0 <= y, inf elsewhere off
    x, y > 0)."""
    check_broadcastable("rel_entr", x=x, y=y)
    return _core.rel_entr(x, y)


def bernoulli(n):
    """``scipy.special.bernoulli``: the Bernoulli numbers B_0, ..., B_n (a constant array;
    ``n`` is a non-negative integer)."""
    return _scipy.bernoulli(int(constant_order("bernoulli", "n", n)))


def j0(x):
    """``scipy.special.j0``: the Bessel function of the first kind of order 0."""
    return _bessel.j0(x)


def j1(x):
    """``scipy.special.j1``: the Bessel function of the first kind of order 1."""
    return _bessel.j1(x)


def jn(n, x):
    """``scipy.special.jn``: the Bessel function of the first kind of integer order ``n``
    (a constant), differentiable in ``x``."""
    n = constant_order("jn", "n", n, non_negative=False)
    check_broadcastable("jn", n=n, x=x)
    return _bessel.jn(n, x)


def y0(x):
    """``scipy.special.y0``: the Bessel function of the second kind of order 0."""
    return _bessel.y0(x)


def y1(x):
    """``scipy.special.y1``: the Bessel function of the second kind of order 1."""
    return _bessel.y1(x)


def yn(n, x):
    """``scipy.special.yn``: the Bessel function of the second kind of integer order ``n``
    (a constant), differentiable in ``x``."""
    n = constant_order("yn", "n", n, non_negative=False)
    check_broadcastable("yn", n=n, x=x)
    return _bessel.yn(n, x)


def iv(v, x):
    """``scipy.special.iv``: the modified Bessel function of the first kind of real order
    ``v`` (a constant), differentiable in ``x``."""
    v = constant_order("iv", "v", v, integer=False)
    check_broadcastable("iv", v=v, x=x)
    return _bessel.iv(v, x)


def ive(v, x):
    """``scipy.special.ive``: exp(-|x|) iv(v, x)."""
    v = constant_order("ive", "v", v, integer=False)
    check_broadcastable("ive", v=v, x=x)
    return _bessel.ive(v, x)


def bessel_jn(z, *, v, n_iter=50):
    """``jax.scipy.special.bessel_jn``: J_0(z), ..., J_v(z) stacked along a new first axis.
    SciPy evaluates each exactly, so ``n_iter`` (JAX's number of recurrence steps) only has
    to be a positive integer."""
    v = int(constant_order("bessel_jn", "v", v))
    if int(n_iter) < 1:
        raise ValueError(f"funcgrad.scipy.special.bessel_jn: n_iter must be a positive "
                         f"integer, got {n_iter!r}")
    return fnp.stack([_bessel.jn(order, z) for order in range(v + 1)])


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
    # SciPy computes in the common floating type (a float32 a beside a float64 b: double;
    # integers and booleans in double: uint8's a - max(a) would wrap around)
    a = fnp.asarray(a)
    common = fnp.result_type(a)
    if b is not None:
        b = fnp.asarray(b)
        check_broadcastable("logsumexp", a=a, b=b)
        common = np.result_type(common, fnp.result_type(b))
    if common.kind not in "fc":
        common = np.dtype(np.float64)
    a = fnp.asarray(a, common)
    if b is not None:
        b = fnp.asarray(b, common)
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
           "xlogy", "xlog1py", "betaln", "beta", "rgamma", "gammasgn", "loggamma",
           "multigammaln", "poch", "factorial", "binom", "comb", "zeta", "gammainc", "gammaincc",
           "betainc", "erfcinv", "erfcx", "dawsn", "fresnel", "sici", "expi", "exp1", "expn",
           "spence", "owens_t", "hyp1f1", "hyp2f1", "boxcox", "boxcox1p", "wofz", "sph_harm_y",
           "kl_div", "rel_entr", "bernoulli", "j0", "j1", "jn", "y0", "y1", "yn", "iv", "ive",
           "bessel_jn", "logsumexp", "softmax", "log_softmax"]
