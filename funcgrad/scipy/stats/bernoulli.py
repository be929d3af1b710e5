"""funcgrad.scipy.stats.bernoulli: 1 with probability ``p``, else 0."""
import numpy as np

from ... import numpy as fnp
from .. import special
from ._args import nan_where_invalid, outside_unit_interval, promote_inexact


def _invalid(p, loc=0):  # (SciPy's domain of the parameters)
    return outside_unit_interval(p)


@nan_where_invalid(_invalid)
def logpmf(k, p, loc=0):
    """log P(K = k): log p at k - loc = 1, log(1 - p) at 0, -inf elsewhere."""
    k, p, loc = promote_inexact(k, p, loc)
    count = fnp.subtract(k, loc)
    # (not at a NaN k: its mass is NaN, as SciPy's)
    impossible = fnp.not_equal(count, 0) & fnp.not_equal(count, 1) & ~fnp.isnan(count)
    count = fnp.where(impossible, 0.0, count)
    return fnp.where(impossible, -np.inf,
                     special.xlogy(count, p) + special.xlog1py(1.0 - count, -p))


def pmf(k, p, loc=0):
    """P(K = k)."""
    return fnp.exp(logpmf(k, p, loc))


@nan_where_invalid(_invalid)
def cdf(k, p):
    """P(K <= k): 0 below 0, 1 - p on [0, 1), 1 from 1 on."""
    k, p = promote_inexact(k, p)
    value = fnp.where(fnp.less(k, 0), 0.0, fnp.where(fnp.less(k, 1), 1.0 - p, 1.0))
    return fnp.where(fnp.isnan(k), np.nan, value)


@nan_where_invalid(_invalid)
def ppf(q, p):
    """The least k with cdf(k) >= q: 0 for q <= 1 - p, else 1; nan outside [0, 1], and -1
    at 0 (SciPy's convention for discrete distributions: one below the support)."""
    q, p = promote_inexact(q, p)
    value = fnp.where(fnp.less_equal(q, 1.0 - p), 0.0, fnp.ones_like(q))
    value = fnp.where(fnp.equal(q, 0), -1.0, value)
    return fnp.where(outside_unit_interval(q), np.nan, value)


__all__ = ["logpmf", "pmf", "cdf", "ppf"]
