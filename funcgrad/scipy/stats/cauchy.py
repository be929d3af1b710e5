"""funcgrad.scipy.stats.cauchy: the Cauchy distribution."""
import math

import numpy as np

from ... import numpy as fnp
from ._args import (invalid_scale, nan_where_invalid, outside_unit_interval, promote_inexact,
                    standardize)


@nan_where_invalid(invalid_scale)
def logpdf(x, loc=0, scale=1):
    """Log of the density at ``x``."""
    y, _, _, scale = standardize(x, loc, scale)
    return -fnp.log1p(y * y) - fnp.log(scale) - math.log(math.pi)


def pdf(x, loc=0, scale=1):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, loc, scale))


@nan_where_invalid(invalid_scale)
def cdf(x, loc=0, scale=1):
    """P(X <= x)."""
    return 0.5 + fnp.arctan(standardize(x, loc, scale)[0]) / math.pi


def logcdf(x, loc=0, scale=1):
    """log P(X <= x)."""
    return fnp.log(cdf(x, loc, scale))


@nan_where_invalid(invalid_scale)
def sf(x, loc=0, scale=1):
    """P(X > x)."""
    return 0.5 - fnp.arctan(standardize(x, loc, scale)[0]) / math.pi


def logsf(x, loc=0, scale=1):
    """log P(X > x)."""
    return fnp.log(sf(x, loc, scale))


@nan_where_invalid(invalid_scale)
def ppf(q, loc=0, scale=1):
    """The quantile function, the inverse of ``cdf``: -inf and inf at 0 and 1, nan outside
    [0, 1]."""
    return _quantile(q, loc, scale, 1.0)


@nan_where_invalid(invalid_scale)
def isf(q, loc=0, scale=1):
    """The inverse of ``sf``."""
    return _quantile(q, loc, scale, -1.0)


def _quantile(q, loc, scale, sign):
    """loc + sign scale tan(pi (q - 1/2)), exact at the ends (tan(pi / 2) is 1.6e16 in
    floating point)."""
    q, loc, scale = promote_inexact(q, loc, scale)
    outside, at_ends = outside_unit_interval(q), fnp.equal(q, 0) | fnp.equal(q, 1)
    inner = fnp.where(outside | at_ends, 0.5, q)
    value = loc + sign * scale * fnp.tan(math.pi * (inner - 0.5))
    value = fnp.where(fnp.equal(q, 0), -sign * np.inf, value)
    value = fnp.where(fnp.equal(q, 1), sign * np.inf, value)
    return fnp.where(outside, np.nan, value)


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
