"""funcgrad.scipy.stats.geom: the number of trials of probability ``p`` up to the first
success (1, 2, ...)."""
import numpy as np

from ... import numpy as fnp
from .. import special
from ._args import nan_where_invalid, not_a_count, not_positive, promote_inexact


def _invalid(p, loc=0):  # (SciPy's domain of the parameters)
    return not_positive(p) | fnp.greater(p, 1)


@nan_where_invalid(_invalid)
def logpmf(k, p, loc=0):
    """log P(K = k) = (k - 1) log(1 - p) + log p: -inf unless k - loc is a positive
    integer. Differentiable in p."""
    k, p, loc = promote_inexact(k, p, loc)
    count = fnp.subtract(k, loc)
    impossible = not_a_count(count) | fnp.less(count, 1)
    count = fnp.where(impossible, 1.0, count)
    return fnp.where(impossible, -np.inf, special.xlog1py(count - 1.0, -p) + fnp.log(p))


def pmf(k, p, loc=0):
    """P(K = k)."""
    return fnp.exp(logpmf(k, p, loc))


__all__ = ["logpmf", "pmf"]
