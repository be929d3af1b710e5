"""funcgrad.scipy.stats.poisson: the Poisson distribution with mean ``mu``."""
import numpy as np

from ... import numpy as fnp
from ...numpy._batching import plain_value
from .. import special
from ._args import promote_inexact


def logpmf(k, mu, loc=0):
    """Log of P(K = k) for K - loc Poisson with mean ``mu``: -inf unless ``k - loc`` is a
    non-negative integer. Differentiable in ``mu``."""
    k, mu, loc = promote_inexact(k, mu, loc)
    count = fnp.subtract(k, loc)
    log_mass = special.xlogy(count, mu) - special.gammaln(fnp.add(count, 1)) - mu
    k_values = plain_value(k)
    impossible = fnp.less(count, 0) | (np.round(k_values) != k_values)
    return fnp.where(impossible, -np.inf, log_mass)


def pmf(k, mu, loc=0):
    """P(K = k)."""
    return fnp.exp(logpmf(k, mu, loc))


def cdf(k, mu, loc=0):
    """P(K <= k) = gammaincc(floor(k - loc) + 1, mu): 0 below loc. Differentiable in mu."""
    k, mu, loc = promote_inexact(k, mu, loc)
    count = fnp.floor(fnp.subtract(k, loc))
    negative = fnp.less(count, 0)
    return fnp.where(negative, 0.0, special.gammaincc(fnp.where(negative, 0.0, count) + 1.0, mu))


__all__ = ["logpmf", "pmf", "cdf"]
