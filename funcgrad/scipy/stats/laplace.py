"""funcgrad.scipy.stats.laplace: the Laplace (double exponential) distribution."""
import math

from ... import numpy as fnp
from ._args import invalid_scale, nan_where_invalid, standardize


@nan_where_invalid(invalid_scale)
def logpdf(x, loc=0, scale=1):
    """Log of the density at ``x``."""
    y, _, _, scale = standardize(x, loc, scale)
    return -fnp.abs(y) - fnp.log(scale) - math.log(2.0)


def pdf(x, loc=0, scale=1):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, loc, scale))


@nan_where_invalid(invalid_scale)
def cdf(x, loc=0, scale=1):
    """P(X <= x): exp(y) / 2 below loc, 1 - exp(-y) / 2 above (y standardized)."""
    y = standardize(x, loc, scale)[0]
    lower = fnp.less_equal(y, 0)
    # Each branch sees only its own side's y, so neither exponential overflows.
    return fnp.where(lower, 0.5 * fnp.exp(fnp.where(lower, y, 0.0)),
                     1.0 - 0.5 * fnp.exp(-fnp.where(lower, 0.0, y)))


__all__ = ["logpdf", "pdf", "cdf"]
