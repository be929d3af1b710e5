"""The regularized incomplete gamma and beta functions, and the derivative of the incomplete
gamma function in its shape parameter, which no closed form gives: it is summed from the
power series of P(a, x) where x < a + 1 and from the continued fraction of Q(a, x)
elsewhere (the regions where each converges quickly), in double precision."""
import numpy as np
import scipy.special as _scipy

from ... import numpy as fnp
from ._core import betaln, digamma, gammaln, xlog1py, xlogy
from ._rules import elementwise, in_precision_of, no_derivative

_EPS = np.finfo(np.float64).eps
_MAX_TERMS = 100_000  # the series needs about 8 sqrt(a) terms; the fraction fewer


def _series_da(a, x):
    """dP/da = sum_n t_n (log x - digamma(a + n + 1)), t_n = x**(a+n) e**-x / Gamma(a+n+1)
    the terms of P's series, for 0 < x < a + 1."""
    log_x = np.log(x)
    term = np.exp(a * log_x - x - _scipy.gammaln(a + 1))
    psi = _scipy.digamma(a + 1)
    total = term * (log_x - psi)
    active = np.ones(a.shape, bool)
    for n in range(1, _MAX_TERMS):
        psi = psi + 1.0 / (a + n)
        term = term * x / (a + n)
        step = term * (log_x - psi)
        total = np.where(active, total + step, total)
        active &= np.abs(step) > _EPS * np.abs(total)
        if not active.any():
            break
    return total


def _fraction_da(a, x):
    """dP/da = -dQ/da for x >= a + 1, from Q = e**-x x**a / Gamma(a) / G with the continued
    fraction G = b_0 + c_1 / (b_1 + c_2 / (b_2 + ...)), b_n = x + 2n + 1 - a and
    c_n = -n (n - a). Its convergents A_n / B_n are carried with their derivatives in a
    (db_n/da = -1, dc_n/da = n), rescaled every step so that they neither overflow nor
    underflow (the ratios do not change)."""
    ones, zeros = np.ones_like(a), np.zeros_like(a)
    a_prev, a_cur = ones, x + 1.0 - a
    b_prev, b_cur = zeros, ones
    da_prev, da_cur = zeros, -ones
    db_prev, db_cur = zeros, zeros
    value, slope = a_cur / b_cur, da_cur
    active = np.ones(a.shape, bool)
    for n in range(1, _MAX_TERMS):
        b_n, c_n = x + 2 * n + 1.0 - a, -n * (n - a)
        a_next = b_n * a_cur + c_n * a_prev
        b_next = b_n * b_cur + c_n * b_prev
        da_next = -a_cur + b_n * da_cur + n * a_prev + c_n * da_prev
        db_next = -b_cur + b_n * db_cur + n * b_prev + c_n * db_prev
        scale = 1.0 / np.abs(b_next)
        a_prev, a_cur = a_cur * scale, a_next * scale
        b_prev, b_cur = b_cur * scale, b_next * scale
        da_prev, da_cur = da_cur * scale, da_next * scale
        db_prev, db_cur = db_cur * scale, db_next * scale
        new_value = a_cur / b_cur
        new_slope = (da_cur * b_cur - a_cur * db_cur) / (b_cur * b_cur)
        moved = ((np.abs(new_value - value) > _EPS * np.abs(new_value))
                 | (np.abs(new_slope - slope) > _EPS * np.abs(new_slope)))
        value = np.where(active, new_value, value)
        slope = np.where(active, new_slope, slope)
        active &= moved
        if not active.any():
            break
    # Q = prefactor / G: dQ/da = Q (log x - digamma(a)) - prefactor dG/da / G**2.
    log_x = np.log(x)
    prefactor = np.exp(a * log_x - x - _scipy.gammaln(a))
    return -(prefactor / value * (log_x - _scipy.digamma(a)) - prefactor * slope / value**2)


def _gammainc_da_impl(a, x):
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(a.shape, np.nan)
    valid = (a > 0) & (x >= 0)
    out[valid & ((x == 0) | (x == np.inf))] = 0.0
    series = valid & (x > 0) & (x < a + 1)
    fraction = valid & (x >= a + 1) & (x < np.inf)
    if series.any():
        out[series] = _series_da(a[series], x[series])
    if fraction.any():
        out[fraction] = _fraction_da(a[fraction], x[fraction])
    return out


def _gamma_density(a, x):
    """dP/dx: the gamma density with shape a at x."""
    return fnp.exp(xlogy(a - 1.0, x) - x - gammaln(a))


gammainc_da = elementwise(
    in_precision_of(_gammainc_da_impl, 0, 1), "gammainc_da",
    no_derivative("gammainc", "a twice",
                  "the second derivative in the shape parameter has no implementation"),
    lambda ans, a, x: _gamma_density(a, x) * (fnp.log(x) - digamma(a)))
gammainc = elementwise(in_precision_of(_scipy.gammainc, 0, 1), "gammainc",
                       lambda ans, a, x: gammainc_da(a, x),
                       lambda ans, a, x: _gamma_density(a, x))
gammaincc = elementwise(in_precision_of(_scipy.gammaincc, 0, 1), "gammaincc",
                        lambda ans, a, x: -gammainc_da(a, x),
                        lambda ans, a, x: -_gamma_density(a, x))

_NO_BETAINC_PARAMETERS = "as in JAX, only the derivative in x is implemented"
betainc = elementwise(
    in_precision_of(_scipy.betainc, 0, 1, 2), "betainc",
    no_derivative("betainc", "a", _NO_BETAINC_PARAMETERS),
    no_derivative("betainc", "b", _NO_BETAINC_PARAMETERS),
    lambda ans, a, b, x: fnp.exp(xlogy(a - 1.0, x) + xlog1py(b - 1.0, -x) - betaln(a, b)))
