"""funcgrad.scipy.stats.uniform: the uniform distribution on [loc, loc + scale]."""
import numpy as np

from ... import numpy as fnp
from ._args import (invalid_scale, nan_where_invalid, outside_unit_interval, promote_inexact,
                    standardize)


def _below_above(x, loc, scale):
    """Where x is below loc and above loc + scale (compared with x itself, as JAX does:
    (x - loc) / scale can round across 1 where x does not cross loc + scale)."""
    return fnp.less(x, loc), fnp.greater(x, fnp.add(loc, scale))


@nan_where_invalid(invalid_scale)
def logpdf(x, loc=0, scale=1):
    """Log of the density at ``x``: -log(scale) on [loc, loc + scale], -inf elsewhere."""
    x, loc, scale = promote_inexact(x, loc, scale)
    below, above = _below_above(x, loc, scale)
    return fnp.where(below | above, -np.inf, -fnp.log(scale))


def pdf(x, loc=0, scale=1):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, loc, scale))


@nan_where_invalid(invalid_scale)
def cdf(x, loc=0, scale=1):
    """P(X <= x): 0 below loc, 1 above loc + scale."""
    y, x, loc, scale = standardize(x, loc, scale)
    below, above = _below_above(x, loc, scale)
    return fnp.where(below, 0.0, fnp.where(above, 1.0, y))


@nan_where_invalid(invalid_scale)
def ppf(q, loc=0, scale=1):
    """The quantile function: nan outside [0, 1]."""
    q, loc, scale = promote_inexact(q, loc, scale)
    return fnp.where(outside_unit_interval(q), np.nan, loc + q * scale)


__all__ = ["logpdf", "pdf", "cdf", "ppf"]
