"""Integrals of elementary functions: the exponential integrals, Spence's dilogarithm, the
sine and cosine integrals, Fresnel's integrals, Dawson's integral, Owen's T, the scaled
complementary and inverse complementary error functions, and the confluent and Gauss
hypergeometric functions (in x)."""
import math

import numpy as np
import scipy.special as _scipy

from ... import numpy as fnp
from ._core import erf
from ._rules import elementwise, in_precision_of, no_derivative

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_INV_SQRT_TWO = 1.0 / math.sqrt(2.0)
# Below |x - 1| = 1e-3 six terms of the series of spence' leave 1e-18 (relative).
_SPENCE_SERIES_RADIUS = 1e-3
_SPENCE_SERIES_TERMS = 6


def _expn_slope(ans, n, x):
    """E_n' = -E_{n-1} for n >= 1; E_0(x) = e**-x / x, so E_0' = -E_0 (1 + 1 / x)."""
    previous = expn(np.maximum(np.subtract(n, 1), 0), x)
    return fnp.where(np.equal(n, 0), -ans * (1.0 + 1.0 / x), -previous)


def _spence_slope(ans, x):
    """spence(x) = integral from 1 to x of log(t) / (1 - t): its slope -log1p(u) / u with
    u = x - 1, near u = 0 from the series -sum_k (-u)**k / (k + 1), whose derivatives of
    every order are right at u = 0 too (the quotient is 0 / 0 there)."""
    u = x - 1.0
    near_one = fnp.less(fnp.abs(u), _SPENCE_SERIES_RADIUS)
    series_u = fnp.where(near_one, u, 0.0)
    series = -sum((-series_u) ** k / (k + 1.0) for k in range(_SPENCE_SERIES_TERMS))
    safe_u = fnp.where(near_one, 1.0, u)
    return fnp.where(near_one, series, -fnp.log1p(safe_u) / safe_u)


expi = elementwise(_scipy.expi, "expi", lambda ans, x: fnp.exp(x) / x)
exp1 = elementwise(_scipy.exp1, "exp1", lambda ans, x: -fnp.exp(-x) / x)
expn = elementwise(in_precision_of(_scipy.expn, 1), "expn", None, _expn_slope)
spence = elementwise(_scipy.spence, "spence", _spence_slope)
# si' = sin(x) / x (sinc, 1 at 0); ci' = cos(x) / x.
si = elementwise(lambda x: _scipy.sici(x)[0], "si", lambda ans, x: fnp.sinc(x / math.pi))
ci = elementwise(lambda x: _scipy.sici(x)[1], "ci", lambda ans, x: fnp.cos(x) / x)
fresnel_s = elementwise(lambda x: _scipy.fresnel(x)[0], "fresnel_s",
                        lambda ans, x: fnp.sin(0.5 * math.pi * (x * x)))
fresnel_c = elementwise(lambda x: _scipy.fresnel(x)[1], "fresnel_c",
                        lambda ans, x: fnp.cos(0.5 * math.pi * (x * x)))
dawsn = elementwise(_scipy.dawsn, "dawsn", lambda ans, x: 1.0 - 2.0 * x * ans)
erfcx = elementwise(_scipy.erfcx, "erfcx", lambda ans, x: 2.0 * x * ans - _TWO_OVER_SQRT_PI)
erfcinv = elementwise(_scipy.erfcinv, "erfcinv",
                      lambda ans, x: -0.5 * math.sqrt(math.pi) * fnp.exp(ans * ans))
# T(h, a) = integral from 0 to a of exp(-h**2 (1 + t**2) / 2) / (1 + t**2) / (2 pi).
owens_t = elementwise(
    _scipy.owens_t, "owens_t",
    lambda ans, h, a: (-0.25 * _TWO_OVER_SQRT_PI * _INV_SQRT_TWO) * fnp.exp(-0.5 * (h * h))
    * erf(a * h * _INV_SQRT_TWO),
    lambda ans, h, a: fnp.exp(-0.5 * (h * h) * (1.0 + a * a)) / (2.0 * math.pi * (1.0 + a * a)))

_NO_HYPERGEOMETRIC_PARAMETER = "only the derivative in x is implemented"
hyp1f1 = elementwise(
    _scipy.hyp1f1, "hyp1f1",
    no_derivative("hyp1f1", "a", _NO_HYPERGEOMETRIC_PARAMETER),
    no_derivative("hyp1f1", "b", _NO_HYPERGEOMETRIC_PARAMETER),
    lambda ans, a, b, x: a / b * hyp1f1(a + 1.0, b + 1.0, x))
hyp2f1 = elementwise(
    _scipy.hyp2f1, "hyp2f1",
    no_derivative("hyp2f1", "a", _NO_HYPERGEOMETRIC_PARAMETER),
    no_derivative("hyp2f1", "b", _NO_HYPERGEOMETRIC_PARAMETER),
    no_derivative("hyp2f1", "c", _NO_HYPERGEOMETRIC_PARAMETER),
    lambda ans, a, b, c, x: a * b / c * hyp2f1(a + 1.0, b + 1.0, c + 1.0, x))
