"""funcgrad.scipy.stats.poisson: the Poisson distribution with mean ``mu``."""
import math

import numpy as np
import scipy.special as _scipy

from ... import numpy as fnp
from ...core import dtype_of
from ...core.trace import every_value
from .. import special
from ._args import nan_where_invalid, negative, not_a_count, promote_inexact


def _invalid(mu, loc=0):  # (SciPy's domain of the parameters)
    return negative(mu)


@nan_where_invalid(_invalid)
def logpmf(k, mu, loc=0):
    """Log of P(K = k) for K - loc Poisson with mean ``mu``: -inf unless ``k - loc`` is a
    non-negative integer. Differentiable in ``mu``."""
    k, mu, loc = promote_inexact(k, mu, loc)
    count = fnp.subtract(k, loc)
    log_mass = special.xlogy(count, mu) - special.gammaln(fnp.add(count, 1)) - mu
    return fnp.where(not_a_count(count), -np.inf, log_mass)


def pmf(k, mu, loc=0):
    """P(K = k)."""
    return fnp.exp(logpmf(k, mu, loc))


@nan_where_invalid(_invalid)
def cdf(k, mu, loc=0):
    """P(K <= k) = gammaincc(floor(k - loc) + 1, mu): 0 below loc. Differentiable in mu."""
    k, mu, loc = promote_inexact(k, mu, loc)
    count = fnp.floor(fnp.subtract(k, loc))
    negative = fnp.less(count, 0)
    return fnp.where(negative, 0.0, special.gammaincc(fnp.where(negative, 0.0, count) + 1.0, mu))


# From mu = 1000 on, the entropy's asymptotic series to mu**-4 is exact to 1e-16; below, the
# sum over k within 15 standard deviations and 40 of mu, whose tails are below 1e-40.
_ASYMPTOTIC_FROM = 1000.0
_ASYMPTOTIC_TERMS = (-1.0 / 12.0, -1.0 / 24.0, -19.0 / 360.0, -9.0 / 80.0)
_STIRLING_FROM = 20


def _log_gamma_rest(k):
    """lgamma(k + 1) - k log(k) + k for integers k (0 at k = 0): Stirling's series from
    k = 20 on, where the difference itself would lose 13 digits to cancellation."""
    k = np.asarray(k, np.float64)
    small = k < _STIRLING_FROM
    direct = _scipy.gammaln(k + 1.0) - _scipy.xlogy(k, k) + k
    large = np.maximum(k, _STIRLING_FROM)
    series = (0.5 * np.log(2.0 * math.pi * large) + 1.0 / (12.0 * large)
              - 1.0 / (360.0 * large ** 3) + 1.0 / (1260.0 * large ** 5)
              - 1.0 / (1680.0 * large ** 7))
    return np.where(small, direct, series)


def _summed_entropy(mu):
    """-sum_k p_k log p_k with -log p_k = k log(k / mu) + (mu - k) + lgamma(k+1) - k log k
    + k: each part without the cancellation of k log(mu) against lgamma(k + 1)."""
    values = np.asarray(every_value(mu), np.float64)
    spread = 15.0 * np.sqrt(values) + 40.0
    if values.size:
        k = np.arange(max(0.0, math.floor(np.min(values - spread))),
                      math.ceil(np.max(values + spread)) + 1.0)
    else:  # no mu (an empty array, or a vmap over none): no terms
        k = np.zeros(0)
    rest = _log_gamma_rest(k).astype(dtype_of(mu))
    k = k.astype(dtype_of(mu))
    mu = fnp.expand_dims(mu, -1)
    neg_log_mass = k * fnp.log(np.maximum(k, 1.0) / mu) + (mu - k) + rest
    return fnp.sum(fnp.exp(-neg_log_mass) * neg_log_mass, axis=-1)


def _asymptotic_entropy(mu):
    """log(2 pi e mu) / 2 - 1 / (12 mu) - 1 / (24 mu**2) - 19 / (360 mu**3) - 9 / (80 mu**4)."""
    inverse = 1.0 / mu
    correction = 0.0
    for coefficient in reversed(_ASYMPTOTIC_TERMS):
        correction = (correction + coefficient) * inverse
    return 0.5 * fnp.log(2.0 * math.pi * math.e * mu) + correction


def entropy(mu, loc=0):
    """``scipy.stats.poisson.entropy``: -sum_k p_k log p_k, 0 at mu = 0 (SciPy's; JAX's is
    nan) and nan for mu < 0; ``loc`` does not change it (its shape broadcasts).
    Differentiable in ``mu`` (d/dmu = E[log((K + 1) / mu)]), to any order. Accurate to
    rounding for every mu, where SciPy's sum fails from mu = 1e4 on and JAX's agrees to
    1e-5."""
    mu, loc = promote_inexact(mu, loc)
    positive = fnp.greater(mu, 0)
    summed = fnp.less(mu, _ASYMPTOTIC_FROM) & positive
    entropies = fnp.where(
        summed, _summed_entropy(fnp.where(summed, mu, 1.0)),
        _asymptotic_entropy(fnp.where(summed | ~positive, _ASYMPTOTIC_FROM, mu)))
    entropies = fnp.where(fnp.equal(mu, 0), 0.0, fnp.where(negative(mu), np.nan, entropies))
    return fnp.broadcast_to(entropies, np.broadcast_shapes(np.shape(mu), np.shape(loc)))


__all__ = ["logpmf", "pmf", "cdf", "entropy"]
