"""funcgrad.scipy.stats.bernoulli: 1 with probability ``p``, else 0."""
import numpy as np

from ... import numpy as fnp
from .. import special
from ._args import outside_unit_interval, promote_inexact


def logpmf(k, p, loc=0):
    """log P(K = k): log p at k - loc = 1, log(1 - p) at 0, -inf elsewhere."""
    k, p, loc = promote_inexact(k, p, loc)
    count = fnp.subtract(k, loc)
    impossible = fnp.not_equal(count, 0) & fnp.not_equal(count, 1)
    count = fnp.where(impossible, 0.0, count)
    return fnp.where(impossible, -np.inf,
                     special.xlogy(count, p) + special.xlog1py(1.0 - count, -p))


def pmf(k, p, loc=0):
    """P(K = k)."""
    return fnp.exp(logpmf(k, p, loc))


def cdf(k, p):
    """P(K <= k): 0 below 0, 1 - p on [0, 1), 1 from 1 on."""
    k, p = promote_inexact(k, p)
    return fnp.where(fnp.less(k, 0), 0.0, fnp.where(fnp.less(k, 1), 1.0 - p, 1.0))


def ppf(q, p):
    """The least k with cdf(k) >= q: 0 for q <= 1 - p, else 1; nan outside [0, 1]."""
    q, p = promote_inexact(q, p)
    value = fnp.where(fnp.less_equal(q, 1.0 - p), 0.0, fnp.ones_like(q))
    return fnp.where(outside_unit_interval(q), np.nan, value)


__all__ = ["logpmf", "pmf", "cdf", "ppf"]
