"""funcgrad.scipy.stats.cauchy: the Cauchy distribution."""
import math

from ... import numpy as fnp
from ._args import promote_inexact, standardize


def logpdf(x, loc=0, scale=1):
    """Log of the density at ``x``."""
    y, _, _, scale = standardize(x, loc, scale)
    return -fnp.log1p(y * y) - fnp.log(scale) - math.log(math.pi)


def pdf(x, loc=0, scale=1):
    """The density at ``x``."""
    return fnp.exp(logpdf(x, loc, scale))


def cdf(x, loc=0, scale=1):
    """P(X <= x)."""
    return 0.5 + fnp.arctan(standardize(x, loc, scale)[0]) / math.pi


def logcdf(x, loc=0, scale=1):
    """log P(X <= x)."""
    return fnp.log(cdf(x, loc, scale))


def sf(x, loc=0, scale=1):
    """P(X > x)."""
    return 0.5 - fnp.arctan(standardize(x, loc, scale)[0]) / math.pi


def logsf(x, loc=0, scale=1):
    """log P(X > x)."""
    return fnp.log(sf(x, loc, scale))


def ppf(q, loc=0, scale=1):
    """The quantile function, the inverse of ``cdf``."""
    q, loc, scale = promote_inexact(q, loc, scale)
    return loc + scale * fnp.tan(math.pi * (q - 0.5))


def isf(q, loc=0, scale=1):
    """The inverse of ``sf``."""
    q, loc, scale = promote_inexact(q, loc, scale)
    return loc + scale * fnp.tan(math.pi * (0.5 - q))


__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]
