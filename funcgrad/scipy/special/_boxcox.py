"""The Box-Cox transformations boxcox(x, l) = (x**l - 1) / l and boxcox1p(x, l) =
((1 + x)**l - 1) / l, differentiable in x and in l.

With L = log(x) (or log1p(x)) and u = l L, the value is L (e**u - 1) / u and its slope in l
is L**2 g(u), g(u) = (e**u (u - 1) + 1) / u**2. Written as (l L e**u - e**u + 1) / l**2 that
slope cancels catastrophically where u is small (a relative error eps / u**2: every digit
near l = 0); there g comes from its Taylor series, whose derivatives of every order are right
at u = 0 too.
"""
import math

import numpy as np
import scipy.special as _scipy

from ... import numpy as fnp
from ._core import xlog1py, xlogy
from ._rules import elementwise

# g's Taylor coefficients (j + 1) / (j + 2)!: below |u| = 1/2, 14 terms leave 3e-19
# (relative); above it, the closed form's cancellation costs at most a few eps.
_SERIES_RADIUS = 0.5
_SERIES_COEFFICIENTS = tuple((j + 1) / math.factorial(j + 2) for j in range(14))


def _g_series(u):
    total = _SERIES_COEFFICIENTS[-1]
    for coefficient in reversed(_SERIES_COEFFICIENTS[:-1]):
        total = total * u + coefficient
    return total


def _lambda_slope(x, lmbda, log_base, xlog_base, domain_low):
    """d/dl of ((b**l - 1) / l) for the base b whose log is ``log_base(x)``; ``xlog_base(p,
    x)`` is p log(b) (0 where p is 0), ``domain_low`` the x where b is 0 (below it the slope
    is nan, as the value). Both branches are evaluated at safe substitutes where the other
    one is used, so neither puts a nan into the derivatives of the one that is kept."""
    outside = fnp.less(x, domain_low)
    x = fnp.where(outside, domain_low + 1.0, x)
    near_zero = fnp.less(fnp.abs(lmbda * log_base(x)), _SERIES_RADIUS)
    series_log = log_base(fnp.where(near_zero, x, domain_low + 1.0))
    series = series_log * series_log * _g_series(lmbda * series_log)
    safe_lmbda = fnp.where(near_zero, 1.0, lmbda)
    safe_x = fnp.where(near_zero, domain_low + 2.0, x)
    power = fnp.exp(safe_lmbda * log_base(safe_x))
    closed = (safe_lmbda * xlog_base(power, safe_x) - power + 1.0) / (safe_lmbda * safe_lmbda)
    return fnp.where(outside, np.nan, fnp.where(near_zero, series, closed))


def _x_slope(base, x, lmbda, domain_low):
    """b**(l - 1), nan where x is below the domain (where the value is nan)."""
    outside = fnp.less(x, domain_low)
    return fnp.where(outside, np.nan,
                     fnp.power(fnp.where(outside, 1.0, base), lmbda - 1.0))


boxcox = elementwise(
    _scipy.boxcox, "boxcox",
    lambda ans, x, lmbda: _x_slope(x, x, lmbda, 0.0),
    lambda ans, x, lmbda: _lambda_slope(x, lmbda, fnp.log, xlogy, 0.0))
boxcox1p = elementwise(
    _scipy.boxcox1p, "boxcox1p",
    lambda ans, x, lmbda: _x_slope(1.0 + x, x, lmbda, -1.0),
    lambda ans, x, lmbda: _lambda_slope(x, lmbda, fnp.log1p, xlog1py, -1.0))
