"""funcgrad.scipy.stats.expon: the exponential distribution on [loc, inf) with mean
loc + scale."""
import numpy as np

from ... import numpy as fnp
from ._args import (invalid_scale, nan_where_invalid, outside_unit_interval, promote_inexact,
                    standardize)


def _inside(x, loc, scale):
    """The standardized x, set to 0 below loc (where the functions are constants)."""
    y, x, loc, scale = standardize(x, loc, scale)
    below = fnp.less(x, loc)
    return fnp.where(below, 0.0, y), below, scale


@nan_where_invalid(invalid_scale)
def logpdf(x, loc=0, scale=1):
    """Log of the density at ``x``: -inf below ``loc``."""
    y, below, scale = _inside(x, loc, scale)
    return fnp.where(below, -np.inf, -y - fnp.log(scale))


def pdf(x, loc=0, scale=1):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, loc, scale))


@nan_where_invalid(invalid_scale)
def cdf(x, loc=0, scale=1):
    """P(X <= x)."""
    y, below, _ = _inside(x, loc, scale)
    return fnp.where(below, 0.0, -fnp.expm1(-y))


@nan_where_invalid(invalid_scale)
def logcdf(x, loc=0, scale=1):
    """log P(X <= x)."""
    y, below, _ = _inside(x, loc, scale)
    return fnp.where(below, -np.inf, fnp.log(-fnp.expm1(-y)))


@nan_where_invalid(invalid_scale)
def sf(x, loc=0, scale=1):
    """P(X > x)."""
    y, below, _ = _inside(x, loc, scale)
    return fnp.where(below, 1.0, fnp.exp(-y))


@nan_where_invalid(invalid_scale)
def logsf(x, loc=0, scale=1):
    """log P(X > x)."""
    y, below, _ = _inside(x, loc, scale)
    return fnp.where(below, 0.0, -y)


@nan_where_invalid(invalid_scale)
def ppf(q, loc=0, scale=1):
    """The quantile function: nan outside [0, 1]."""
    q, loc, scale = promote_inexact(q, loc, scale)
    outside = outside_unit_interval(q)
    q = fnp.where(outside, 0.0, q)
    return fnp.where(outside, np.nan, loc - scale * fnp.log1p(-q))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"]
