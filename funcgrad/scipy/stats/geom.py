"""funcgrad.scipy.stats.geom: the number of trials of probability ``p`` up to the first
success (1, 2, ...)."""
import numpy as np

from ... import numpy as fnp
from .. import special
from ._args import not_a_count, promote_inexact


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
