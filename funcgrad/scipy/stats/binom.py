"""funcgrad.scipy.stats.binom: the number of successes in ``n`` trials of probability ``p``."""
import numpy as np

from ... import numpy as fnp
from .. import special
from ._args import nan_where_invalid, not_a_count, outside_unit_interval, promote_inexact


def _invalid(n, p, loc=0):  # (SciPy's domain of the parameters)
    return not_a_count(n) | outside_unit_interval(p)


@nan_where_invalid(_invalid)
def logpmf(k, n, p, loc=0):
    """log P(K = k): -inf unless k - loc is an integer in [0, n]. Differentiable in p (and
    in n, through the log binomial coefficient)."""
    k, n, p, loc = promote_inexact(k, n, p, loc)
    count = fnp.subtract(k, loc)
    impossible = not_a_count(count) | fnp.greater(count, n)
    count = fnp.where(impossible, 0.0, count)
    log_choices = (special.gammaln(n + 1.0) - special.gammaln(count + 1.0)
                   - special.gammaln(n - count + 1.0))
    log_mass = log_choices + special.xlogy(count, p) + special.xlog1py(n - count, -p)
    return fnp.where(impossible, -np.inf, log_mass)


def pmf(k, n, p, loc=0):
    """P(K = k)."""
    return fnp.exp(logpmf(k, n, p, loc))


__all__ = ["logpmf", "pmf"]
