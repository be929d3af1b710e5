"""funcgrad.scipy.stats.nbinom: the number of failures before the ``n``-th success in
trials of probability ``p`` (``n`` may be any positive real)."""
import numpy as np

from ... import numpy as fnp
from .. import special
from ._args import nan_where_invalid, not_a_count, not_positive, promote_inexact


def _invalid(n, p, loc=0):  # (SciPy's domain of the parameters)
    return not_positive(n, p) | fnp.greater(p, 1)


@nan_where_invalid(_invalid)
def logpmf(k, n, p, loc=0):
    """log P(K = k): -inf unless k - loc is a non-negative integer. Differentiable in n
    and p."""
    k, n, p, loc = promote_inexact(k, n, p, loc)
    count = fnp.subtract(k, loc)
    impossible = not_a_count(count)
    count = fnp.where(impossible, 0.0, count)
    log_choices = (special.gammaln(n + count) - special.gammaln(count + 1.0)
                   - special.gammaln(n))
    log_mass = log_choices + special.xlogy(n, p) + special.xlog1py(count, -p)
    return fnp.where(impossible, -np.inf, log_mass)


def pmf(k, n, p, loc=0):
    """P(K = k)."""
    return fnp.exp(logpmf(k, n, p, loc))


__all__ = ["logpmf", "pmf"]
